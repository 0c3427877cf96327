package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.arch.InvalidValueException;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.demangle.Demangler;
import io.github.cudastackbudget.core.device.DefaultDevices;
import io.github.cudastackbudget.core.device.DeviceResolver;
import io.github.cudastackbudget.core.device.GpuCatalog;
import io.github.cudastackbudget.core.device.LocalGpuDetector;
import io.github.cudastackbudget.core.engine.AutoEngine;
import io.github.cudastackbudget.core.engine.CuobjdumpEngine;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.launch.LaunchLog;
import io.github.cudastackbudget.core.launch.LaunchLogException;
import io.github.cudastackbudget.core.launch.LaunchLogReader;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.launch.LibraryLog;
import io.github.cudastackbudget.core.report.JsonReportWriter;
import io.github.cudastackbudget.core.report.TextReport;
import io.github.cudastackbudget.core.report.html.HtmlReportWriter;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Validates {@link CheckOptions}, runs {@link StackBudgetCheck}, writes the reports (JSON and text, before any
 * verdict), and phrases the verdict lines. Both the Maven goal and the command line are thin layers over this.
 */
public final class CheckRunner {

    /** The text report's file name. */
    public static final String TEXT_REPORT = "cuda-stack-budget.txt";

    private CheckRunner() {
    }

    /**
     * The outcome of a run.
     *
     * @param result      the model
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
     * @throws CheckException misuse or broken input, one line
     */
    public static Outcome run(CheckOptions options, CheckListener listener) throws CheckException {
        SizeLimit defaultBudget;
        Long maxStack;
        List<DeviceTarget> devices;
        boolean defaults = false;
        String origin = "configured";
        List<String> deviceWarnings = new ArrayList<>();
        GpuCatalog catalog = GpuCatalog.bundled();
        try {
            defaultBudget = blank(options.maxReservation()) ? null
                    : SizeLimit.parse(options.maxReservation(), "maxReservation");
            maxStack = blank(options.maxStackPerThread()) ? null
                    : ByteSize.parse(options.maxStackPerThread(), "maxStackPerThread");
            devices = new DeviceResolver(catalog).resolve(options.devices(), options.devicePresets());
        } catch (InvalidValueException e) {
            throw new CheckException(e.getMessage(), e);
        }
        if (devices.isEmpty()) {
            List<LocalGpuDetector.LocalGpu> local = options.detectLocalDevices()
                    ? LocalGpuDetector.detect(options.environment()) : List.of();
            DefaultDevices.Choice choice = DefaultDevices.choose(catalog, local, deviceWarnings);
            devices = choice.devices();
            origin = choice.origin();
            defaults = true;
            deviceWarnings.forEach(listener::warn);
        }
        if (options.parallelism() < 1) {
            throw new CheckException("parallelism " + options.parallelism() + " must be at least 1");
        }
        StackBudgetCheck.EngineProvider engine = engineProvider(options);
        StackBudgetCheck.Launch launch = readLaunchLogs(options, listener, deviceWarnings);
        Demangler demangler = Demangler.fromEnvironment(options.environment());
        StackBudgetCheck.Request request = new StackBudgetCheck.Request(options.fileSets(), options.libraryFiles(),
                options.usedBy(), engine, options.parallelism(), devices, defaults, origin, defaultBudget, maxStack,
                demangler, options.jarScan(), launch);
        CheckResult result = StackBudgetCheck.run(request, listener).withLeadingWarnings(deviceWarnings);
        List<String> reportLines = TextReport.render(result, options.top(), options.verbose());
        List<Path> reports = new ArrayList<>();
        try {
            Path json = JsonReportWriter.write(result, options.outputDirectory());
            reports.add(json);
            Path text = options.outputDirectory().resolve(TEXT_REPORT);
            Files.write(text, TextReport.render(result, 0, true), StandardCharsets.UTF_8);
            reports.add(text);
            // the page renders the JSON just written, as the site report does
            reports.add(HtmlReportWriter.write(ReportModel.read(json), options.top(), options.outputDirectory()));
        } catch (IOException e) {
            throw new CheckException("cannot write the reports to " + options.outputDirectory() + ": " + e.getMessage(), e);
        }
        List<String> violations = result.violations().stream().map(v -> describe(result, v)).toList();
        return new Outcome(result, reportLines, violations, summary(result, reports), reports);
    }

    /**
     * Reads the launch log and its library log (launched mode); null without a launch log. Problems with the logs'
     * content become warnings in {@code warnings}; a missing or unreadable configured log is an error.
     */
    private static StackBudgetCheck.Launch readLaunchLogs(CheckOptions options, CheckListener listener,
            List<String> warnings) throws CheckException {
        if (options.launchLog() == null) {
            return null;
        }
        try {
            LaunchLog log = LaunchLogReader.readLaunchLog(options.launchLog(), "launchLog");
            Path libraryLogFile = options.effectiveLibraryLog();
            LibraryLog libraryLog = null;
            List<String> found = new ArrayList<>(log.warnings());
            if (Files.exists(libraryLogFile)) {
                libraryLog = LaunchLogReader.readLibraryLog(libraryLogFile, "libraryLog");
                found.addAll(libraryLog.warnings());
            } else {
                found.add("the library log " + libraryLogFile + " (" + (options.libraryLog() != null ? "libraryLog"
                        : "default: the launch log + " + CheckOptions.LIBRARY_LOG_SUFFIX) + ") does not exist: "
                        + "launched kernels of libraries outside the checked ones cannot be found");
            }
            found.forEach(listener::warn);
            warnings.addAll(found);
            return new StackBudgetCheck.Launch(log, libraryLog);
        } catch (LaunchLogException e) {
            throw new CheckException(e.getMessage(), e);
        }
    }

    private static StackBudgetCheck.EngineProvider engineProvider(CheckOptions options) throws CheckException {
        String engine = options.engine().toLowerCase(Locale.ROOT);
        AutoEngine.FallbackProvider cuobjdump = () -> {
            Path executable;
            if (!blank(options.cuobjdump())) {
                executable = Path.of(options.cuobjdump());
            } else {
                executable = CuobjdumpEngine.locate(options.environment()).orElseThrow(() -> new EngineException(
                        "cuobjdump was not found (looked on PATH, $CUDA_HOME/bin, $CUDA_PATH/bin and "
                                + "/usr/local/cuda/bin), but the scanned files hold CUDA device code: install the "
                                + "CUDA toolkit or set -DcudaStackBudget.cuobjdump=/path/to/cuobjdump"));
            }
            return CuobjdumpEngine.using(executable, options.timeout());
        };
        switch (engine) {
            case "cuobjdump" -> {
                return cuobjdump::get;
            }
            case "native" -> {
                return () -> new NativeEngine(options.parallelism());
            }
            case "auto" -> {
                return () -> new AutoEngine(new NativeEngine(options.parallelism()), cuobjdump);
            }
            default -> throw new CheckException("engine '" + options.engine() + "' is unknown: use auto, cuobjdump or "
                    + "native");
        }
    }

    /** One line for a violation: device, figure, limit, kernel, arch, library. */
    public static String describe(CheckResult result, Violation violation) {
        var kernel = violation.kernel();
        if (violation.kind() == Violation.Kind.RESERVATION) {
            boolean launched = result.devices().stream().filter(device -> device.device().name()
                    .equals(violation.device())).anyMatch(DeviceResult::launchedHeadline);
            return violation.device() + ": " + (launched ? "launched-kernel " : "") + "stack reservation "
                    + ByteSize.format(violation.actual()) + " exceeds maxReservation " + ByteSize.format(violation.limit())
                    + "; worst " + (launched ? "launched " : "") + "kernel "
                    + result.displayName(kernel) + " [" + kernel.arch().sassLabel() + "] in " + kernel.library() + " ("
                    + ByteSize.grouped(kernel.stack()) + " B per thread)";
        }
        return violation.device() + ": kernel " + result.displayName(kernel) + " [" + kernel.arch().sassLabel() + "] in "
                + kernel.library() + " has a stack frame of " + ByteSize.grouped(violation.actual())
                + " B per thread, which exceeds maxStackPerThread " + ByteSize.grouped(violation.limit()) + " B";
    }

    private static List<String> summary(CheckResult result, List<Path> reports) {
        List<String> lines = new ArrayList<>();
        if (result.noKernels()) {
            lines.add("No CUDA kernels found in " + result.filesProbed() + " scanned file(s): nothing to check.");
        } else {
            long pass = count(result, DeviceResult.Status.PASS);
            long fail = count(result, DeviceResult.Status.FAIL);
            long skipped = count(result, DeviceResult.Status.SKIPPED);
            lines.add("CUDA stack budget: " + result.devices().size() + " device(s): " + pass + " pass, " + fail
                    + " fail, " + skipped + " skipped; " + ByteSize.grouped(result.index().functionCount())
                    + " functions in " + result.scans().size() + " file(s)");
            if (result.launched() != null) {
                lines.add(launchedSummary(result.launched()));
            }
            for (DeviceResult device : result.devices()) {
                lines.add("  " + String.format(Locale.ROOT, "%-28s %-7s %s", device.device().name(),
                        device.status().name(), device.skipped() ? "(" + device.skipReason() + ")"
                                : ByteSize.format(device.reservationBytes()) + (device.launchedHeadline()
                                        ? " launched (static " + ByteSize.format(device.staticReservationBytes()) + ")"
                                        : "") + (device.budgetBytes() == null ? ""
                                        : " of " + ByteSize.format(device.budgetBytes()))
                                        + (device.headlineWorst() == null ? "" : "  <- "
                                                + abbreviate(result.displayName(device.headlineWorst()), SUMMARY_NAME_WIDTH)
                                                + " [" + device.headlineWorst().arch().sassLabel() + "] in "
                                                + device.headlineWorst().library())));
            }
        }
        if (result.noKernels() && result.launched() != null) {
            lines.add(launchedSummary(result.launched()));
        }
        for (Path report : reports) {
            lines.add("Report: " + report);
        }
        return lines;
    }

    private static String launchedSummary(LaunchedRun launched) {
        return "  launched mode: " + launched.kernelCount() + " kernel(s) launched, " + launched.match().matched().size()
                + " matched, " + launched.match().unmatched().size() + " unmatched (" + launched.log().file() + ", status "
                + launched.log().statusSummary() + "); " + (launched.headline()
                        ? "the figures below are the launched kernels'"
                        : "the log is incomplete, so the figures below are the static worst case");
    }

    /** Kernel names in the closing summary are cut to this many characters (the device blocks show them whole). */
    static final int SUMMARY_NAME_WIDTH = 100;

    static String abbreviate(String name, int width) {
        return name.length() <= width ? name : name.substring(0, width - 3) + "...";
    }

    private static long count(CheckResult result, DeviceResult.Status status) {
        return result.devices().stream().filter(device -> device.status() == status).count();
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
