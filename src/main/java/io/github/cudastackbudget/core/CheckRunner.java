package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.baseline.BaselineCompare;
import io.github.cudastackbudget.core.baseline.BaselineComparison;
import io.github.cudastackbudget.core.baseline.BaselineLoader;
import io.github.cudastackbudget.core.baseline.BaselineRequest;
import io.github.cudastackbudget.core.check.CheckProblem;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.check.StackBudgetCheck;
import io.github.cudastackbudget.core.report.JsonReportWriter;
import io.github.cudastackbudget.core.report.ReportFiles;
import io.github.cudastackbudget.core.report.ReportFormat;
import io.github.cudastackbudget.core.report.ReportPaths;
import io.github.cudastackbudget.core.report.TextReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

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
        try {
            options.output().selected(options.frontend().name(Option.FORMATS));
        } catch (InvalidValueException e) {
            throw new InvalidOptions(e.getMessage(), e);
        }
        // issue 12, baselines
        try {
            BaselineLoader.maxGrowth(options.baseline(), options.frontend());
        } catch (InvalidValueException e) {
            throw new InvalidOptions(e.getMessage(), e);
        }
    }

    /**
     * Runs the check and writes the selected reports. When the check cannot run (misuse, a tool that cannot run,
     * unreadable input), the selected reports are written with the error instead (and appended to
     * {@code $GITHUB_STEP_SUMMARY}), or, where not even that can be written, every report file of the output
     * directory is removed: no report is left from an earlier run.
     *
     * @throws InvalidOptions misuse: an option that cannot be used (one line naming it)
     * @throws CheckException the check could not run (a tool, broken input), one line
     */
    public static Outcome run(CheckOptions options, CheckListener listener) throws CheckException {
        // out (issue 12): the formats first: what to write, also when the check cannot run
        Set<ReportFormat> formats;
        try {
            formats = options.output().selected(options.frontend().name(Option.FORMATS));
        } catch (InvalidValueException e) {
            removeReports(options, null);
            throw new InvalidOptions(e.getMessage(), e);
        }
        Path stepSummary = stepSummary(options);
        try {
            try {
                CheckSetup.validate(options);
            } catch (CheckException e) {
                throw new InvalidOptions(e.getMessage(), e.getCause() != null ? e.getCause() : e);
            }
            return runChecked(options, listener, formats, stepSummary);
        } catch (CheckException e) {
            try {
                ReportFiles.writeError(e.getMessage(), options.outputDirectory(), formats, stepSummary);
            } catch (IOException | RuntimeException writing) {
                e.addSuppressed(writing);
                removeReports(options, e);
            }
            throw e;
        }
    }

    /**
     * An option that cannot be used (a size, a device, a format): the build's configuration is wrong, not a tool or
     * an input, so a front end's "continue on error" switch does not cover it.
     */
    public static final class InvalidOptions extends CheckException {
        private static final long serialVersionUID = 1L;

        public InvalidOptions(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** {@code $GITHUB_STEP_SUMMARY} from the check's environment, or null when it is not set. */
    private static Path stepSummary(CheckOptions options) {
        String value = options.environment().get(STEP_SUMMARY);
        return value == null || value.isBlank() ? null : Path.of(value.strip());
    }

    /** The environment variable GitHub Actions names its step summary file by. */
    public static final String STEP_SUMMARY = "GITHUB_STEP_SUMMARY";

    private static void removeReports(CheckOptions options, Exception failure) {
        try {
            ReportFiles.removeAll(options.outputDirectory());
        } catch (IOException | RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    private static Outcome runChecked(CheckOptions options, CheckListener listener, Set<ReportFormat> formats,
            Path stepSummary) throws CheckException {
        CheckSetup setup = CheckSetup.of(options, listener);
        // issue 12, baselines: read before the scan, so that a missing or broken baseline fails at once
        BaselineRequest baseline;
        try {
            baseline = BaselineLoader.load(options.baseline(), options.frontend(), listener::info);
        } catch (InvalidValueException e) {
            // the build's configuration names a baseline that is not there or no report: failOnError does not cover it
            throw new InvalidOptions(e.getMessage(), e);
        }
        CheckResult result;
        try {
            result = StackBudgetCheck.run(setup.request(), listener).withLeadingWarnings(setup.warnings());
        } catch (CheckProblem e) {
            // the API's exception, with the cause the stage had (an engine's, a budget's), else the problem itself
            throw new CheckException(e.getMessage(), e.getCause() != null ? e.getCause() : e);
        }
        // the baseline stage (core.baseline, above core.report: it reads the earlier JSON report), before the model:
        // its GateChecks join the result, its old/new/delta rows the model
        if (baseline != null && result.noKernels()) {
            listener.info("Baseline " + baseline.previous().source() + ": no CUDA kernels were found, nothing compared");
        }
        BaselineComparison comparison = baseline == null || result.noKernels() ? null : BaselineCompare.compare(
                baseline, setup.request().devices(), result.devices(), result.displayNames(), options.frontend(),
                listener::info);
        if (comparison != null) {
            result = result.withChecks(comparison.checks());
        }
        // out (issue 12): paths relative to the project's base directory where under it
        ReportModel model = ReportPaths.relativeTo(ReportModel.of(result), options.output().baseDirectory());
        if (comparison != null) {
            model = model.withBaseline(comparison.report(model));
        }
        List<Path> reports;
        try {
            reports = ReportFiles.write(model, options.outputDirectory(), options.top(), options.frontend(), formats,
                    stepSummary);
        } catch (IOException e) {
            throw new CheckException("cannot write the reports to " + options.outputDirectory() + ": " + e.getMessage(), e);
        }
        return new Outcome(result, TextReport.render(model, options.top(), options.verbose(), options.frontend()),
                TextReport.violations(model, options.frontend()), TextReport.summary(model, reports), reports);
    }
}
