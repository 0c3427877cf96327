package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.budget.Reservation;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.LaunchEntry;
import io.github.cudastackbudget.core.report.model.LaunchedDeviceReport;
import io.github.cudastackbudget.core.report.model.LaunchedKernelRow;
import io.github.cudastackbudget.core.report.model.LaunchedRunReport;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.PlatformReport;
import io.github.cudastackbudget.core.report.model.Phrases;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.SuppressedRow;
import io.github.cudastackbudget.core.report.model.Verdict;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The human report, in the origin tool's layout: counts, a block per device (resident threads, reservation =
 * threads x frame, the kernel, its library and arch, shared memory, fallback notes), and with {@code verbose} the
 * kernels with a stack frame sorted by size (capped by {@code top}) and the libraries with their "used by". Also the
 * log's closing summary and violation lines. All formatted from the report model.
 */
public final class TextReport {

    /** Unmatched launched kernels listed without verbose. */
    static final int UNMATCHED_SHOWN = 5;

    /** Kernel names in the closing summary are cut to this many characters (the device blocks show them whole). */
    static final int SUMMARY_NAME_WIDTH = 100;

    private final ReportModel model;
    private final int top;
    private final boolean verbose;
    private final Frontend frontend;
    private final List<String> out = new ArrayList<>();

    private TextReport(ReportModel model, int top, boolean verbose, Frontend frontend) {
        this.model = model;
        this.top = top;
        this.verbose = verbose;
        this.frontend = frontend;
    }

    /** The report as lines (no trailing newlines), naming the options as the parameter ids. */
    public static List<String> render(ReportModel model, int top, boolean verbose) {
        return render(model, top, verbose, Frontend.PARAMETERS);
    }

    /** The report as lines (no trailing newlines). */
    public static List<String> render(ReportModel model, int top, boolean verbose, Frontend frontend) {
        TextReport report = new TextReport(model, top, verbose, frontend);
        report.render();
        return report.out;
    }

    /**
     * One line per exceeded budget (device, figure, limit, kernel, arch, library), then one per failed gate check
     * (a rule, a suppression, a baseline comparison: its message).
     */
    public static List<String> violations(ReportModel model, Frontend frontend) {
        List<String> lines = new ArrayList<>();
        model.violations().forEach(violation -> lines.add(Phrases.violation(violation,
                model.device(violation.device()), Phrases.ViolationWording.LOG, frontend).plain()));
        model.failedChecks().forEach(check -> lines.add(check.message()));
        return List.copyOf(lines);
    }

    /** The closing one-screen summary: the verdict per device and the reports written. */
    public static List<String> summary(ReportModel model, List<Path> reports) {
        List<String> lines = new ArrayList<>();
        if (model.noDeviceCode()) {
            lines.add("No CUDA kernels found in " + model.filesProbed() + " scanned file(s): nothing to check.");
            if (model.launched() != null) {
                lines.add(launchedSummary(model.launched()));
            }
        } else {
            lines.add("CUDA stack budget: " + model.devices().size() + " device(s): " + count(model, Verdict.PASS)
                    + " pass, " + count(model, Verdict.FAIL) + " fail, " + count(model, Verdict.SKIPPED) + " skipped; "
                    + Figures.grouped(model.allFunctionCount()) + " functions in " + model.filesWithDeviceCode()
                    + " file(s)");
            if (model.launched() != null) {
                lines.add(launchedSummary(model.launched()));
            }
            for (DeviceReport device : model.devices()) {
                lines.add("  " + String.format(Locale.ROOT, "%-28s %-7s %s", device.name(), device.status().name(),
                        device.skipped() ? "(" + device.skipReason() + ")" : summaryFigures(device)));
            }
        }
        for (Path report : reports) {
            lines.add("Report: " + report);
        }
        return lines;
    }

    private static String summaryFigures(DeviceReport device) {
        KernelRow worst = device.worstKernel();
        return Figures.bytes(device.reservationBytes()) + (device.launchedHeadline()
                ? " launched (static " + Figures.bytes(device.staticReservationBytes()) + ")" : "")
                + (device.budgetBytes() == null ? "" : " of " + Figures.bytes(device.budgetBytes()))
                + (worst == null ? "" : "  <- " + abbreviate(worst.displayName(), SUMMARY_NAME_WIDTH) + " ["
                        + worst.archLabel() + "] in " + worst.library());
    }

    private static String launchedSummary(LaunchedRunReport run) {
        return "  launched mode: " + run.kernels() + " kernel(s) launched, " + run.matched() + " matched, "
                + run.unmatched() + " unmatched (" + run.log() + ", status " + run.status() + "); " + (run.headline()
                        ? "the figures below are the launched kernels'"
                        : "the log is incomplete, so the figures below are the static worst case");
    }

    static String abbreviate(String name, int width) {
        return name.length() <= width ? name : name.substring(0, width - 3) + "...";
    }

    private static long count(ReportModel model, Verdict status) {
        return model.devices().stream().filter(device -> device.status() == status).count();
    }

    private void render() {
        out.add("CUDA kernel stack budget");
        out.add(String.format(Locale.ROOT, "  files probed:                %s", Figures.grouped(model.filesProbed())));
        out.add(String.format(Locale.ROOT, "  files with device code:      %s",
                Figures.grouped(model.filesWithDeviceCode())));
        out.add(String.format(Locale.ROOT, "  CUDA libraries:              %s", Figures.grouped(model.libraries().size())));
        out.add(String.format(Locale.ROOT, "  kernels inspected:           %s records of %s functions",
                Figures.grouped(model.recordCount()), Figures.grouped(model.allFunctionCount())));
        if (!model.recordArches().isEmpty()) {
            out.add("  embedded SASS:               " + String.join(", ", model.recordArches()));
        }
        out.add("  engine:                      " + model.engine());
        out.add("  devices:                     " + model.devices().size() + " (" + model.deviceOrigin() + ")");
        LaunchedRunReport launched = model.launched();
        if (launched != null) {
            out.add("  launched kernels:            " + Figures.grouped(launched.kernels()) + " (" + launched.matched()
                    + " matched, " + launched.unmatched() + " in no scanned library) from " + launched.log());
            out.add("  launch log status:           " + launched.status() + (launched.headline()
                    ? " (headline = launched kernels)" : " (incomplete: headline = static worst case)"));
            if (!launched.foundThroughLibraryLog().isEmpty()) {
                out.add("  found through library log:   " + launched.foundThroughLibraryLog().stream()
                        .map(path -> Path.of(path).getFileName().toString()).collect(Collectors.joining(", ")));
            }
        }
        List<LibraryReport> notGated = model.libraries().stream().filter(library -> !library.gated()).toList();
        if (!notGated.isEmpty()) {
            out.add("  not gated:                   " + notGated.size() + " librar" + (notGated.size() == 1 ? "y" : "ies")
                    + " of " + notGated.stream().map(LibraryReport::platform).distinct().sorted()
                            .collect(Collectors.joining(", ")) + " (read, not judged against the budgets)");
        }
        if (model.noDeviceCode()) {
            out.add("");
            out.add("  no CUDA kernels found: reservation is 0 B.");
            checks();
            unmatched();
            return;
        }
        for (DeviceReport device : model.devices()) {
            out.add("");
            device(device);
        }
        // issue 12, baselines
        out.addAll(BaselineText.lines(model.baseline()));
        suppressed();
        if (verbose) {
            out.add("");
            out.add("CUDA libraries:");
            for (LibraryReport library : model.libraries()) {
                out.add("  " + library.library() + "  (" + library.kernels() + " functions; SASS "
                        + String.join(", ", library.sassArches()) + (library.ptxArches().isEmpty() ? ""
                                : "; PTX " + String.join(", ", library.ptxArches())) + ")");
                out.add("    path:    " + library.path());
                out.add("    platform: " + library.platform() + (library.gated() ? "" : " (not gated)"));
                out.add("    used by: " + (library.usedBy().isEmpty() ? "(not attributed)" : library.usedBy()));
            }
        }
        checks();
        unmatched();
    }

    /**
     * out (issue 12, outputs): the gate's checks (rules, suppressions, baseline), one line each with its outcome, in
     * the order the check made them; nothing when there are none.
     */
    private void checks() {
        List<GateCheck> checks = model.checks();
        if (checks.isEmpty()) {
            return;
        }
        out.add("");
        out.add("Gate checks (" + checks.size() + ": " + outcomes(checks, GateCheck.Outcome.FAIL) + " failed, "
                + outcomes(checks, GateCheck.Outcome.WARN) + " warned, " + outcomes(checks, GateCheck.Outcome.PASS)
                + " passed):");
        for (GateCheck check : checks) {
            out.add(String.format(Locale.ROOT, "  %-4s %s %s: %s", check.outcome().name(), check.category(),
                    check.name(), check.message()));
        }
    }

    private static long outcomes(List<GateCheck> checks, GateCheck.Outcome outcome) {
        return checks.stream().filter(check -> check.outcome() == outcome).count();
    }

    /** out (issue 12): the text report of a check that could not run: the error, no figures. */
    public static List<String> error(String message) {
        return List.of("CUDA kernel stack budget", "  ERROR: the check could not run: " + message,
                "  (no figures: this report replaces the previous run's, which no longer applies)");
    }

    // gate (issue 12)
    /** The kernels suppressions took out of the verdicts, with the reason, when there are some. */
    private void suppressed() {
        if (model.suppressed().isEmpty()) {
            return;
        }
        out.add("");
        out.add("Suppressed kernels (left out of the verdicts; " + model.suppressed().size() + "):");
        for (SuppressedRow row : model.suppressed()) {
            KernelRow kernel = row.kernel();
            out.add("  " + row.device() + ": " + kernel.displayName() + " [" + kernel.archLabel() + "] in "
                    + kernel.library() + ", " + kernel.stackLabel() + " B per thread (alone it would reserve "
                    + Figures.bytes(row.reservationBytes()) + ")");
            out.add("    " + row.because());
        }
    }

    /** Launched kernels found in no scanned library: all with verbose, else the first few. */
    private void unmatched() {
        if (model.launched() == null || model.launched().unmatchedKernels().isEmpty()) {
            return;
        }
        List<LaunchEntry> unmatched = model.launched().unmatchedKernels();
        out.add("");
        long withDriverFrame = unmatched.stream().filter(kernel -> kernel.driver() != null
                && kernel.driver().localBytes() != null).count();
        out.add("Launched kernels in no scanned library (" + unmatched.size() + (withDriverFrame == 0
                ? ", frames not counted):" : ", " + withDriverFrame + " counted with the driver-reported frame, "
                        + (unmatched.size() - withDriverFrame) + " not counted):"));
        List<LaunchEntry> shown = verbose ? unmatched : unmatched.subList(0, Math.min(UNMATCHED_SHOWN, unmatched.size()));
        for (LaunchEntry kernel : shown) {
            out.add("  " + kernel.displayName() + (kernel.attributions().isEmpty() ? ""
                    : "  (under " + String.join(", ", kernel.attributions()) + ")")
                    + (kernel.driver() == null ? "" : kernel.driver().localBytes() == null
                            ? "  [driver frame unknown]"
                            : "  [driver-reported frame " + Figures.grouped(kernel.driver().localBytes()) + " B"
                                    + (kernel.driver().arch() == null ? "" : ", " + kernel.driver().arch()) + "]"));
        }
        if (shown.size() < unmatched.size()) {
            out.add("  (" + (unmatched.size() - shown.size()) + " more; " + Phrases.verboseHint(frontend) + ")");
        }
    }

    private void launched(DeviceReport device) {
        LaunchedDeviceReport launched = device.launched();
        String role = launched.headline() ? "" : " (not judged: the launch log is incomplete)";
        KernelRow worst = launched.worstKernel();
        if (launched.kernels().isEmpty()) {
            out.add("  launched reservation: 0 B" + role + " (none of the launched kernels runs on this device)");
        } else if (worst == null || worst.stack() == 0) {
            out.add("  launched reservation: 0 B" + role + " (" + launched.kernels().size() + " launched kernel(s) run "
                    + "here, none with a stack frame)");
        } else {
            out.add("  launched reservation: " + Figures.bytes(launched.reservationBytes()) + " = "
                    + Figures.grouped(device.maxResidentThreads()) + " threads x "
                    + Figures.grouped(launched.stackLimitBytes()) + " B" + role);
            out.add("      over the default " + Reservation.DEFAULT_STACK_LIMIT + " B limit: "
                    + Figures.bytes(launched.incrementBytes()));
            boolean worstFromDriver = launched.kernels().stream()
                    .anyMatch(row -> row.kernel().equals(worst) && row.driverReported());
            out.add("      largest launched frame " + Figures.grouped(worst.stack()) + " B in " + worst.library() + " ["
                    + worst.archLabel() + "]" + (worstFromDriver ? " (driver-reported)" : launched.driverFrames()
                            ? " (static)" : ""));
            out.add("      kernel: " + worst.displayName());
            launched.kernels().stream().filter(row -> row.kernel().equals(worst)).findFirst().ifPresent(row ->
                    out.add("      shared memory per block: " + Figures.grouped(worst.shared()) + " B static + "
                            + dynamic(row) + " B dynamic = " + Figures.grouped(row.sharedPerBlock()) + " B"));
        }
        if (launched.driverReportedCount() > 0) {
            out.add("  " + launched.driverReportedCount() + " launched kernel(s) counted with the driver-reported frame "
                    + "(the others: static figures of the scanned images)");
        }
        if (!launched.driverDifferences().isEmpty()) {
            out.add("  " + launched.driverDifferences().size() + " launched kernel(s) whose static frame differs from "
                    + "the driver's (see the warnings)");
        }
        if (!launched.driverOtherArch().isEmpty()) {
            out.add("  " + launched.driverOtherArch().size() + " launched kernel(s) in no scanned file with a driver "
                    + "frame of an image this device cannot run (not counted here)");
        }
        if (!launched.jit().isEmpty()) {
            out.add("  " + launched.jit().size() + " launched function(s) would JIT from PTX here (frame unknown)");
        }
        if (!launched.cannotRun().isEmpty()) {
            out.add("  " + launched.cannotRun().size() + " launched function(s) have no image for this device");
        }
        long unknown = launched.kernels().stream().filter(row -> row.kernel().stackUnknown()).count();
        if (unknown > 0) {
            out.add("  " + unknown + " launched kernel(s) with UNKNOWN stack (not in the figure)");
        }
    }

    private void launchedListing(DeviceReport device) {
        List<LaunchedKernelRow> kernels = device.launched().kernels();
        if (kernels.isEmpty()) {
            out.add("  launched kernels: none runs on this device");
            return;
        }
        out.add("  launched kernels (" + kernels.size() + "; SHARED + DYN = shared memory per block):");
        List<LaunchedKernelRow> shown = top <= 0 ? kernels : kernels.subList(0, Math.min(top, kernels.size()));
        for (LaunchedKernelRow row : shown) {
            KernelRow kernel = row.kernel();
            out.add(String.format(Locale.ROOT,
                    "    STACK %8s B  LOCAL %6d B  SHARED %6d B  DYN %6s B  REG %3d  %-8s %s  (%s)", stack(kernel),
                    kernel.local(), kernel.shared(), dynamic(row), kernel.registers(), kernel.archLabel(),
                    kernel.displayName(), kernel.library()) + (row.frameSource() == null ? "" : " [" + row.frameSource()
                            + "]"));
        }
        if (shown.size() < kernels.size()) {
            out.add("    (" + (kernels.size() - shown.size()) + " more launched kernels not shown; "
                    + Phrases.listAllHint(frontend) + ")");
        }
    }

    private static String dynamic(LaunchedKernelRow row) {
        return row.maxDynamicShared() == null ? "?" : Figures.grouped(row.maxDynamicShared());
    }

    /** Each platform's worst on the device, where libraries of more than one platform were read. */
    private void platforms(DeviceReport device) {
        if (device.platforms().isEmpty()) {
            return;
        }
        out.add("  per platform (static worst case):");
        for (PlatformReport platform : device.platforms()) {
            String name = platform.platform() + (platform.gated() ? "" : " (not gated)") + ": ";
            KernelRow worst = platform.worstKernel();
            if (platform.status() == Verdict.SKIPPED) {
                out.add("    " + name + "skipped (none of its SASS runs here)");
            } else if (worst == null) {
                out.add("    " + name + Figures.bytes(platform.reservationBytes()) + " (no kernel with a frame)");
            } else {
                out.add("    " + name + Figures.bytes(platform.reservationBytes()) + " (" + worst.displayName() + " ["
                        + worst.archLabel() + "] in " + worst.library() + ", " + Figures.grouped(worst.stack()) + " B/thread)"
                        + (platform.status() == Verdict.FAIL ? (platform.gated() ? " over budget"
                                : " over budget, not gated") : ""));
            }
        }
    }

    private void device(DeviceReport device) {
        out.add(device.name() + " (compute capability " + device.computeCapability() + ", " + device.targetArch() + "): "
                + device.status().name());
        String perSm = device.multiProcessorCount() != null && device.maxThreadsPerMultiProcessor() != null
                ? " = " + device.multiProcessorCount() + " SMs x " + device.maxThreadsPerMultiProcessor() : "";
        out.add("  max resident threads: " + Figures.grouped(device.maxResidentThreads()) + perSm);
        if (verbose && !device.figuresSource().isEmpty()) {
            out.add("  figures from: " + device.figuresSource());
        }
        if (device.skipped()) {
            out.add("  SKIPPED: " + device.skipReason());
            if (device.launched() != null && !device.launched().jit().isEmpty()) {
                out.add("  " + device.launched().jit().size() + " launched function(s) would JIT from PTX here (frame "
                        + "unknown)");
            }
            platforms(device);
            return;
        }
        if (device.fellBack()) {
            // a fact of the report, not a second copy of the warning the check logs about it
            out.add("  note: " + device.targetArch() + " not embedded; using compatible arch " + device.chosenArch()
                    + ".");
        }
        out.add("  images run: " + Phrases.imagesRun(device));
        if (device.launched() != null) {
            launched(device);
        }
        staticFigures(device);
        if (device.budgetBytes() != null) {
            out.add("  budget: " + Figures.bytes(device.budgetBytes()) + " (" + percent(device.reservationBytes(),
                    device.budgetBytes()) + " used" + (device.launchedHeadline() ? " by the launched kernels" : "")
                    + ")" + (device.status() == Verdict.FAIL ? " EXCEEDED" : ""));
        } else {
            out.add("  budget: none (" + Phrases.noBudgetHint(frontend) + ")");
        }
        for (ViolationReport violation : device.violations()) {
            if (!violation.reservation()) {
                out.add("  stack limit exceeded: " + violation.displayName() + " [" + violation.arch() + "] in "
                        + violation.library() + ": " + Figures.grouped(violation.actual()) + " B > "
                        + Figures.grouped(violation.limit()) + " B");
            }
        }
        if (device.worstLocalKernel() != null) {
            out.add("  (largest local-memory/spill per thread: " + Figures.grouped(device.worstLocalKernel().local())
                    + " B in " + device.worstLocalKernel().library() + ")");
        }
        if (!device.unknownStack().isEmpty()) {
            out.add("  " + device.unknownStack().size() + " kernel(s) with UNKNOWN stack (not in the figure above)");
        }
        if (!device.jit().isEmpty()) {
            out.add("  " + device.jit().size() + " function(s) would JIT from PTX (frame unknown at build time)");
        }
        if (!device.cannotRun().isEmpty()) {
            out.add("  " + device.cannotRun().size() + " function(s) cannot launch (no usable SASS or PTX)");
        }
        if (!device.ambiguous().isEmpty()) {
            out.add("  " + device.ambiguous().size() + " function(s) with an undocumented choice of image (larger "
                    + "frame counted)");
        }
        platforms(device);
        if (verbose) {
            kernelListing(device);
            if (device.launched() != null) {
                launchedListing(device);
            }
        }
    }

    /** The static worst case: every kernel the device runs. */
    private void staticFigures(DeviceReport device) {
        KernelRow worst = device.staticWorstKernel();
        if (worst == null || worst.stack() == 0) {
            out.add("  worst-case reservation: 0 B (no kernel has a stack frame; the driver's default "
                    + Reservation.DEFAULT_STACK_LIMIT + " B per thread = " + Figures.bytes(device.defaultReservationBytes())
                    + " is held anyway)");
            return;
        }
        long limit = Reservation.stackLimitFor(worst.stack());
        out.add("  worst-case reservation" + (device.launched() != null ? " (static, every kernel)" : "") + ": "
                + Figures.bytes(device.staticReservationBytes()) + " = " + Figures.grouped(device.maxResidentThreads())
                + " threads x " + Figures.grouped(limit) + " B" + (limit != worst.stack() ? " (frame "
                        + Figures.grouped(worst.stack()) + " B rounded up to 16)" : ""));
        out.add("      over the default " + Reservation.DEFAULT_STACK_LIMIT + " B limit: "
                + Figures.bytes(device.staticIncrementBytes()));
        out.add("      largest stack frame " + Figures.grouped(worst.stack()) + " B in " + worst.library() + " ["
                + worst.archLabel() + "]");
        out.add("      kernel: " + worst.displayName());
        out.add("      shared memory: " + Figures.grouped(worst.shared()) + " B static");
    }

    private void kernelListing(DeviceReport device) {
        List<KernelRow> framed = device.kernelsWithFrame();
        out.add("  kernels with a stack frame (" + framed.size() + "):");
        List<KernelRow> shown = device.worstKernels(top);
        for (KernelRow kernel : shown) {
            // "    STACK %8s B  LOCAL %6d B  SHARED %6d B  REG %3d  %-8s %s  (%s)", built by hand: String.format was
            // most of the text report's time in a cold check (issue 11: 66 ms of libonnxruntime_providers_cuda.so's)
            String name = kernel.displayName();
            StringBuilder line = new StringBuilder(80 + name.length() + kernel.library().length());
            line.append("    STACK ");
            padded(line, stack(kernel), 8);
            line.append(" B  LOCAL ");
            padded(line, String.valueOf(kernel.local()), 6);
            line.append(" B  SHARED ");
            padded(line, String.valueOf(kernel.shared()), 6);
            line.append(" B  REG ");
            padded(line, String.valueOf(kernel.registers()), 3);
            line.append("  ").append(kernel.archLabel());
            for (int i = kernel.archLabel().length(); i < 8; i++) {
                line.append(' ');
            }
            line.append(' ').append(name).append("  (").append(kernel.library()).append(')');
            out.add(line.toString());
        }
        List<KernelRow> hidden = framed.subList(shown.size(), framed.size());
        if (!hidden.isEmpty()) {
            out.add("    (" + hidden.size() + " more kernels with STACK " + stack(hidden.get(hidden.size() - 1)) + "-"
                    + stack(hidden.get(0)) + " B not shown; " + Phrases.listAllHint(frontend) + ")");
        }
    }

    /** Appends {@code text} right-aligned in {@code width} characters (never cut), as {@code %Ns} does. */
    private static void padded(StringBuilder line, String text, int width) {
        for (int i = text.length(); i < width; i++) {
            line.append(' ');
        }
        line.append(text);
    }

    private static String stack(KernelRow kernel) {
        return kernel.stackUnknown() ? "UNKNOWN" : Long.toString(kernel.stack());
    }

    private static String percent(long part, long whole) {
        if (whole == 0) {
            return part == 0 ? "0%" : "inf%";
        }
        return Figures.percent(part, whole);
    }
}
