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
import io.github.cudastackbudget.core.report.model.Figures;
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
     * @param result           what the check found; null where the check-result cache replayed an identical earlier
     *                         check (see {@link #run(CheckOptions, CheckListener, boolean)})
     * @param reportLines      the text report
     * @param violations       one line per exceeded budget
     * @param summary          the closing one-screen summary
     * @param reports          the files written
     * @param noKernels        no SASS record was found
     * @param grewOverBaseline a baseline check failed (a growth over the baseline)
     */
    public record Outcome(CheckResult result, List<String> reportLines, List<String> violations, List<String> summary,
            List<Path> reports, boolean noKernels, boolean grewOverBaseline) {
        public Outcome {
            reportLines = List.copyOf(reportLines);
            violations = List.copyOf(violations);
            summary = List.copyOf(summary);
            reports = List.copyOf(reports);
        }

        /** The outcome of a check that ran. */
        public Outcome(CheckResult result, List<String> reportLines, List<String> violations, List<String> summary,
                List<Path> reports) {
            this(result, reportLines, violations, summary, reports, result.noKernels(), result.checks().stream()
                    .anyMatch(check -> check.failed() && "baseline".equals(check.category())));
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
        return run(options, listener, true);
    }

    /**
     * Runs the check as {@link #run(CheckOptions, CheckListener)} does; with {@code reuse} (and the cache on), a check
     * whose inputs and options all equal an earlier one's writes that check's reports again from the check-result
     * cache ({@link RunCache}) and returns an outcome without a {@link Outcome#result()}.
     *
     * @param reuse false for a front end that needs the whole {@link CheckResult} (the reactor's aggregate)
     */
    public static Outcome run(CheckOptions options, CheckListener listener, boolean reuse) throws CheckException {
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
            return runChecked(options, listener, formats, stepSummary, reuse);
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
            Path stepSummary, boolean reuse) throws CheckException {
        CheckSetup setup = CheckSetup.of(options, listener);
        // issue 11: the check-result cache: an identical earlier check's reports, else this check, recorded
        RunCache cache = reuse ? RunCache.of(options, listener) : null;
        RunCache.Key key = null;
        if (cache != null) {
            io.github.cudastackbudget.core.check.StageTimes times = new io.github.cudastackbudget.core.check.StageTimes(
                    "Check-result cache");
            try {
                key = cache.key(options, setup.request(), formats, stepSummary != null);
                times.mark("key");
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                listener.warn("Check-result cache: the inputs cannot be hashed (" + e.getMessage() + "): the check "
                        + "runs in full");
            }
            if (key != null) {
                java.util.Optional<RunCache.Entry> hit = cache.load(key);
                times.mark(hit.isPresent() ? "load" : "lookup (a miss)");
                if (hit.isPresent()) {
                    Outcome replayed = replay(hit.get(), key, cache, options, formats, stepSummary, listener);
                    times.mark("reports written");
                    listener.debug(times.line());
                    if (replayed != null) {
                        return replayed;
                    }
                } else {
                    listener.debug(times.line());
                }
            }
        }
        if (key != null) {
            Recording recording = new Recording(listener);
            Outcome outcome = check(options, recording, formats, stepSummary, setup);
            long start = System.nanoTime();
            store(cache, key, outcome, recording, options, formats, stepSummary);
            listener.debug("Check-result cache: stored in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            return outcome;
        }
        return check(options, listener, formats, stepSummary, setup);
    }

    /** Writes the stored reports again and replays the stored warnings; null where the reports cannot be written. */
    private static Outcome replay(RunCache.Entry entry, RunCache.Key key, RunCache cache, CheckOptions options,
            Set<ReportFormat> formats, Path stepSummary, CheckListener listener) throws CheckException {
        java.util.Map<ReportFormat, java.nio.ByteBuffer> files = new java.util.LinkedHashMap<>();
        entry.reports().forEach(report -> files.put(report.format(), report.bytes()));
        List<Path> reports;
        try {
            java.util.Map<ReportFormat, RunCache.Report> stored = new java.util.EnumMap<>(ReportFormat.class);
            entry.reports().forEach(report -> stored.put(report.format(), report));
            reports = ReportFiles.writeBytes(options.outputDirectory(), formats, files, stepSummary,
                    entry.stepSummary(), (format, file) -> cache.holds(file, stored.get(format)));
        } catch (IOException e) {
            throw new CheckException("cannot write the reports to " + options.outputDirectory() + ": " + e.getMessage(),
                    e);
        } catch (IllegalArgumentException e) {
            return null; // an entry of other formats: the key names the formats, so only a foreign entry gets here
        }
        listener.info("Check-result cache: " + key.files() + " input file(s) unchanged (" + Figures.grouped(key.bytes())
                + " bytes hashed" + (key.remembered() == 0 ? "" : " and " + Figures.grouped(key.remembered())
                        + " bytes unchanged since hashed,") + " in " + key.millis() + " ms): the reports of an identical "
                + "earlier check, from "
                + cache.directory() + (entry.warnings().isEmpty() ? "" : "; its " + entry.warnings().size()
                        + " warning(s) follow"));
        entry.warnings().forEach(listener::warn);
        return new Outcome(null, entry.reportLines(), entry.violations(), entry.summary(), reports, entry.noKernels(),
                entry.grewOverBaseline());
    }

    private static void store(RunCache cache, RunCache.Key key, Outcome outcome, Recording recording,
            CheckOptions options, Set<ReportFormat> formats, Path stepSummary) {
        if (outcome.result().engine() != null && outcome.result().engine().contains("cuobjdump")) {
            return; // read by an external tool: its output, not only these bytes, decides
        }
        List<RunCache.Report> stored = new java.util.ArrayList<>();
        for (Path report : outcome.reports()) {
            ReportFormat format = formats.stream().filter(f -> f.fileName().equals(report.getFileName().toString()))
                    .findFirst().orElse(null);
            if (format == null) {
                return;
            }
            try {
                stored.add(new RunCache.Report(format, java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(
                        report))));
            } catch (IOException e) {
                return;
            }
        }
        cache.store(key, new RunCache.Entry(outcome.noKernels(), outcome.grewOverBaseline(), recording.warnings(),
                outcome.reportLines(), outcome.violations(), outcome.summary(), recording.stepSummary, stored));
    }

    /** The listener of a recorded run: passes every line on and keeps the warnings (for the check-result cache). */
    private static final class Recording implements CheckListener {
        private final CheckListener delegate;
        private final List<String> warnings = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        String stepSummary;

        Recording(CheckListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public void info(String line) {
            delegate.info(line);
        }

        @Override
        public void warn(String line) {
            warnings.add(line);
            delegate.warn(line);
        }

        @Override
        public void debug(String line) {
            delegate.debug(line);
        }

        List<String> warnings() {
            synchronized (warnings) {
                return List.copyOf(warnings);
            }
        }
    }

    private static Outcome check(CheckOptions options, CheckListener listener, Set<ReportFormat> formats,
            Path stepSummary, CheckSetup setup) throws CheckException {
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
        long compareStart = System.nanoTime();
        BaselineComparison comparison = baseline == null || result.noKernels() ? null : BaselineCompare.compare(
                baseline, setup.request().devices(), result.devices(), result.displayNames(), options.frontend(),
                listener::info);
        if (comparison != null) {
            result = result.withChecks(comparison.checks());
            listener.debug("Baseline compared in " + (System.nanoTime() - compareStart) / 1_000_000 + " ms");
        }
        io.github.cudastackbudget.core.check.StageTimes times = new io.github.cudastackbudget.core.check.StageTimes(
                "Report stages");
        // out (issue 12): paths relative to the project's base directory where under it
        ReportModel model = ReportPaths.relativeTo(ReportModel.of(result), options.output().baseDirectory());
        if (comparison != null) {
            model = model.withBaseline(comparison.report(model));
        }
        times.mark("model");
        // the log's lines are made while the reports are written (issue 11: made after them, they were the last
        // stage on the critical path of a large library); only the summary needs the written files
        ReportModel logged = model;
        java.util.concurrent.CompletableFuture<List<List<String>>> logLines = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> List.of(TextReport.render(logged, options.top(), options.verbose(),
                        options.frontend()), TextReport.violations(logged, options.frontend())),
                        io.github.cudastackbudget.core.exec.Tasks.daemon("cuda-stack-budget-log-lines"));
        java.util.Map<ReportFormat, Long> writerMillis = new java.util.concurrent.ConcurrentSkipListMap<>();
        List<Path> reports;
        try {
            reports = ReportFiles.write(model, options.outputDirectory(), options.top(), options.frontend(), formats,
                    stepSummary, writerMillis);
            if (listener instanceof Recording recording) {
                recording.stepSummary = ReportFiles.stepSummaryMarkdown(model, options.frontend(), reports);
            }
        } catch (IOException e) {
            throw new CheckException("cannot write the reports to " + options.outputDirectory() + ": " + e.getMessage(), e);
        }
        times.mark("reports written");
        List<List<String>> lines = io.github.cudastackbudget.core.exec.Tasks.join(logLines);
        Outcome outcome = new Outcome(result, lines.get(0), lines.get(1), TextReport.summary(model, reports), reports);
        times.mark("log lines");
        listener.debug(times.line());
        listener.debug(writerMillis.entrySet().stream().map(e -> e.getKey().fileName() + " " + e.getValue() + " ms")
                .collect(java.util.stream.Collectors.joining(", ", "Report writers: ", "")));
        return outcome;
    }
}
