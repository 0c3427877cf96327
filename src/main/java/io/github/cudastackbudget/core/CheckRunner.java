package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.check.CheckProblem;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.check.StackBudgetCheck;
import io.github.cudastackbudget.core.report.JsonReportWriter;
import io.github.cudastackbudget.core.report.ReportFiles;
import io.github.cudastackbudget.core.report.TextReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The check as the front ends run it: validate {@link CheckOptions} once, run the check, build the report model once,
 * write every report from it (JSON, text, HTML, before any verdict), and phrase the log's lines. Both the Maven goal
 * and the command line are thin layers over this.
 */
public final class CheckRunner {

    /** The text report's file name. */
    public static final String TEXT_REPORT = ReportFiles.TEXT_FILE_NAME;

    /** The JSON report's file name. */
    public static final String JSON_REPORT = JsonReportWriter.FILE_NAME;

    private CheckRunner() {
    }

    /**
     * The outcome of a run.
     *
     * @param result      what the check found
     * @param reportLines the text report
     * @param violations  one line per exceeded budget
     * @param summary     the closing one-screen summary
     * @param reports     the files written
     */
    public record Outcome(CheckResult result, List<String> reportLines, List<String> violations, List<String> summary,
            List<Path> reports) {
        public Outcome {
            reportLines = List.copyOf(reportLines);
            violations = List.copyOf(violations);
            summary = List.copyOf(summary);
            reports = List.copyOf(reports);
        }

        public boolean failed() {
            return !violations.isEmpty();
        }
    }

    /**
     * Checks the options as {@link #run} does (sizes, devices and presets, parallelism, engine) without scanning: for a
     * front end that may show an earlier result instead of running the check.
     *
     * @throws CheckException the first invalid option, one line
     */
    public static void validate(CheckOptions options) throws CheckException {
        CheckSetup.validate(options);
    }

    /**
     * @throws CheckException misuse or broken input, one line
     */
    public static Outcome run(CheckOptions options, CheckListener listener) throws CheckException {
        CheckSetup setup = CheckSetup.of(options, listener);
        CheckResult result;
        try {
            result = StackBudgetCheck.run(setup.request(), listener).withLeadingWarnings(setup.warnings());
        } catch (CheckProblem e) {
            // the API's exception, with the cause the stage had (an engine's, a budget's), else the problem itself
            throw new CheckException(e.getMessage(), e.getCause() != null ? e.getCause() : e);
        }
        // the baseline stage (core.baseline, above core.report: it reads the earlier JSON report) goes here, before the
        // model: its GateChecks join the result (CheckResult.withChecks) from options.baseline()
        ReportModel model = ReportModel.of(result);
        List<Path> reports;
        try {
            reports = ReportFiles.write(model, options.outputDirectory(), options.top(), options.frontend());
        } catch (IOException e) {
            throw new CheckException("cannot write the reports to " + options.outputDirectory() + ": " + e.getMessage(), e);
        }
        return new Outcome(result, TextReport.render(model, options.top(), options.verbose(), options.frontend()),
                TextReport.violations(model, options.frontend()), TextReport.summary(model, reports), reports);
    }
}
