package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.report.html.SvgBarChart;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.BaselineReport;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.FunctionNote;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.LaunchedDeviceReport;
import io.github.cudastackbudget.core.report.model.LaunchedKernelRow;
import io.github.cudastackbudget.core.report.model.LaunchedRunReport;
import io.github.cudastackbudget.core.report.model.LaunchEntry;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.Phrases;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.Sentence;
import io.github.cudastackbudget.core.report.model.Tone;
import io.github.cudastackbudget.core.report.model.Verdict;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import io.github.cudastackbudget.core.text.Frontend;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.doxia.sink.Sink;

/**
 * Renders the report model as the "CUDA Stack Budget" site page through Doxia sink events only (sections, paragraphs,
 * tables, lists, one figure), so that the page takes the look of whatever skin the site uses. The bar chart is the
 * figure: an SVG image given as a {@code data:} URI ({@link SvgBarChart.Style#SITE}), not raw HTML.
 *
 * <p>Order: what the page is and where its data came from; the violations; the device summary table; the chart; per
 * device, its worst kernels and the functions it would JIT or cannot run; the libraries; the warnings. Sizes are shown
 * for people ({@code 2.58 GiB}) with the exact byte count next to them.
 */
final class SiteReportRenderer {

    /** The options as the page names them: the parameter ids, which is how the Maven goals spell them. */
    private static final Frontend WORDS = Frontend.PARAMETERS;

    /** The page title and the report's name. */
    static final String TITLE = "CUDA Stack Budget";

    private final Sink sink;
    private final ReportModel model;
    private final int top;
    private final String source;

    /**
     * @param sink   where the page goes
     * @param model  what it shows
     * @param top    worst kernels listed per device (0 = all with a stack frame)
     * @param source one sentence: where the figures come from (the JSON of check, or the report's own scan)
     */
    SiteReportRenderer(Sink sink, ReportModel model, int top, String source) {
        this.sink = sink;
        this.model = model;
        this.top = top;
        this.source = source;
    }

    void render() {
        sink.head();
        sink.title();
        sink.text(TITLE);
        sink.title_();
        sink.head_();
        sink.body();
        sink.section1();
        sink.sectionTitle1();
        sink.text(TITLE);
        sink.sectionTitle1_();
        paragraph("How much device memory the CUDA driver keeps for thread stacks on each target GPU: the largest "
                + "per-thread stack frame (STACK) of a kernel the GPU would run, rounded up to 16 bytes, times the "
                + "GPU's maximum resident threads. It stays reserved until the process ends.");
        paragraph(summary());
        if (model.launchedMode()) {
            paragraph(launchedMode(model.launched()));
        }
        paragraph(source);
        if (model.noKernels()) {
            paragraph("No CUDA kernels were found in the " + Figures.grouped(model.filesProbed())
                    + " scanned file(s): nothing reserves stack memory beyond the driver's default.");
            warnings();
            sink.section1_();
            sink.body_();
            return;
        }
        violations();
        devices();
        // issue 12, baselines
        baseline();
        chart();
        // gate (issue 12)
        suppressed();
        gateChecks();
        section2("Worst kernels per device");
        for (DeviceReport device : model.devices()) {
            device(device);
        }
        sink.section2_();
        if (model.launchedMode()) {
            launchLog(model.launched());
        }
        libraries();
        warnings();
        sink.section1_();
        sink.body_();
    }

    private String summary() {
        long pass = model.devices().stream().filter(d -> d.status() == Verdict.PASS).count();
        long fail = model.devices().stream().filter(d -> d.status() == Verdict.FAIL).count();
        long skipped = model.devices().stream().filter(DeviceReport::skipped).count();
        return model.devices().size() + " device(s) (" + model.deviceOrigin() + "): " + pass + " pass, " + fail
                + " fail, " + skipped + " skipped. " + Figures.grouped(model.functionCount()) + " kernel function(s), "
                + Figures.grouped(model.recordCount()) + " SASS image record(s) in " + model.libraries().size()
                + " librar" + (model.libraries().size() == 1 ? "y" : "ies") + ". Engine: " + model.engine() + ".";
    }

    private static String launchedMode(LaunchedRunReport run) {
        String kernels = Figures.grouped(run.kernels()) + " kernel(s) the launch log names ("
                + Figures.grouped(run.matched()) + " found in the scanned libraries, " + Figures.grouped(run.unmatched())
                + " in none)";
        return run.headline()
                ? "Launched mode: the headline reservations and verdicts are those of the " + kernels
                        + ". The static bound, over every kernel a device could run, is shown next to them."
                : "Launch log incomplete (status: " + run.status() + "): the headline reservations and verdicts stay "
                        + "the static bound over every kernel; the reservation of the " + kernels
                        + " is shown for information.";
    }

    private void violations() {
        if (model.violations().isEmpty()) {
            return;
        }
        section2("Budget violations");
        sink.list();
        for (ViolationReport violation : model.violations()) {
            sink.listItem();
            sentence(Phrases.violation(violation, model.device(violation.device()), Phrases.ViolationWording.SITE,
                    WORDS));
            sink.listItem_();
        }
        sink.list_();
        sink.section2_();
    }

    private void devices() {
        section2("Devices");
        sink.table();
        // eight columns (nine with a launch log): exact bytes and the arch that runs share cells, so the table fits
        // a 1,280-px page in the default skin
        boolean launched = model.launchedMode();
        if (launched) {
            sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT,
                Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT}, false);
            headerRow("Device", "Verdict", model.launched().headline() ? "Reservation (launched)" : "Reservation",
                    model.launched().headline() ? "Static bound" : "Launched kernels only", "Over default", "Budget",
                    "Share of budget", "Worst kernel", "Notes");
        } else {
            sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT,
                Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT}, false);
            headerRow("Device", "Verdict", "Reservation", "Over default", "Budget", "Share of budget", "Worst kernel",
                    "Notes");
        }
        for (DeviceReport device : model.devices()) {
            sink.tableRow();
            sink.tableCell();
            sink.text(device.name());
            sink.lineBreak();
            sink.text(device.targetArch() + ", " + Figures.grouped(device.maxResidentThreads()) + " threads");
            if (device.chosenArch() != null && !device.skipped()) {
                sink.lineBreak();
                sink.text("runs " + device.chosenArch());
            }
            sink.tableCell_();
            verdictCell(device.status());
            if (device.skipped()) {
                cell("");
                if (launched) {
                    cell("");
                }
                cell("");
            } else {
                sink.tableCell();
                sink.text(Figures.human(device.reservationBytes()));
                sink.lineBreak();
                sink.text(Figures.grouped(device.reservationBytes()) + " B");
                sink.tableCell_();
                if (launched) {
                    cell(device.launched() == null ? "" : Figures.bytes(device.launchedHeadline()
                            ? device.staticReservationBytes() : device.launched().reservationBytes()));
                }
                cell(Figures.human(device.incrementBytes()));
            }
            cell(device.budgetBytes() == null ? "none" : Figures.human(device.budgetBytes()));
            cell(device.budgetBytes() == null || device.skipped() ? "" : device.percentOfBudget());
            sink.tableCell();
            KernelRow worst = device.worstKernel();
            if (worst != null && !device.skipped()) {
                code(worst.displayName());
                sink.lineBreak();
                sink.text(worst.archLabel() + ", " + worst.library() + ", " + worst.stackLabel() + " B per thread");
            }
            sink.tableCell_();
            cell(notes(device));
            sink.tableRow_();
        }
        sink.tableRows_();
        sink.table_();
        paragraph("Over default: the part of the reservation above the driver's default of 1,024 B per thread, which "
                + "every CUDA context holds anyway. Exact budgets are in each device's section below. A device is "
                + "skipped when no embedded SASS image or PTX can run on it.");
        sink.section2_();
    }

    private static String notes(DeviceReport device) {
        List<String> notes = new ArrayList<>();
        if (device.skipped()) {
            notes.add("skipped: " + device.skipReason());
        }
        if (device.fellBack() && device.chosenArch() != null) {
            notes.add(Phrases.fallback(device));
        }
        if (device.memoryBytes() != null && !device.skipped()) {
            notes.add(device.percentOfMemory() + " of " + Figures.human(device.memoryBytes()) + " memory");
        }
        return String.join("; ", notes);
    }

    private void chart() {
        String uri = SvgBarChart.dataUri(model.devices(), SvgBarChart.Style.SITE);
        if (uri == null) {
            return;
        }
        section2("Reservation against budget");
        sink.figure();
        sink.figureGraphics(uri);
        sink.figureCaption();
        sink.text("Stack reservation per device (bars, one scale for all devices); dashed mark: the device's budget; "
                + "right: share of the budget and of the device's memory. Red: over budget, orange: at "
                + Tone.NEAR_PERCENT + "% of the "
                + "budget or more.");
        sink.figureCaption_();
        sink.figure_();
        sink.section2_();
    }

    private void device(DeviceReport device) {
        sink.section3();
        sink.sectionTitle3();
        sink.text(device.name() + ": " + device.status().id());
        sink.sectionTitle3_();
        if (device.skipped()) {
            paragraph("Skipped: " + device.skipReason());
            platforms(device);
            figuresSource(device);
            sink.section3_();
            return;
        }
        LaunchedDeviceReport launched = device.launched();
        paragraph((device.launchedHeadline() ? "Launched reservation " : "Reservation ")
                + Figures.bytes(device.reservationBytes()) + " = "
                + Figures.grouped(device.maxResidentThreads()) + " threads x " + Figures.grouped(device.stackLimitBytes())
                + " B" + (device.budgetBytes() == null ? "; no budget (" + Phrases.noBudgetHint(WORDS) + ")"
                        : "; budget " + Figures.bytes(device.budgetBytes()) + " (" + device.percentOfBudget() + " used)")
                + ". Images run: " + Phrases.imagesRun(device) + ".");
        if (launched != null) {
            launchedFigures(device, launched);
        }
        KernelRow staticWorst = launched == null ? device.worstKernel() : launched.staticWorstKernel();
        if (staticWorst != null && device.savingIfWorstShrinksBytes() != null
                && device.savingIfWorstShrinksBytes() > 0) {
            paragraph("If " + staticWorst.displayName() + " shrank to the next-largest frame ("
                    + (device.nextWorstKernel() == null ? "0" : Figures.grouped(device.nextWorstKernel().stack()))
                    + " B), the " + (launched == null ? "reservation" : "static bound") + " would be "
                    + Figures.bytes(device.reservationIfWorstShrinksBytes())
                    + ", " + Figures.human(device.savingIfWorstShrinksBytes()) + " less.");
        }
        if (launched != null) {
            launchedKernels(launched);
        }
        List<KernelRow> worst = device.worstKernels(top);
        int all = device.kernelsWithFrame().size();
        if (worst.isEmpty()) {
            paragraph("No kernel this device runs has a stack frame.");
        } else {
            paragraph((launched == null ? "Kernels" : "Every kernel this device runs, launched or not (the static "
                    + "bound),") + " with a stack frame, largest first" + (worst.size() < all
                    ? " (the " + worst.size() + " largest of " + all + "; " + Phrases.listAllHint(WORDS) + ")" : "")
                    + ":");
            kernelTable(worst);
        }
        notes("Kernels with an UNKNOWN frame (recursion or indirect calls; not in the figure above)",
                device.unknownStack().stream().map(k -> k.displayName() + " [" + k.archLabel() + "] in " + k.library())
                        .toList());
        notes("Functions this device would JIT-compile from PTX (frame unknown at build time)",
                device.jit().stream().map(n -> describe(n) + (n.jitFrom() == null ? "" : ", from " + n.jitFrom()))
                        .toList());
        notes("Functions that cannot run on this device (no usable SASS or PTX)",
                device.cannotRun().stream().map(SiteReportRenderer::describe).toList());
        notes("Functions with an undocumented choice of image (the larger frame is counted)",
                device.ambiguous().stream().map(n -> describe(n) + ": counted " + n.countedArch() + ", also "
                        + String.join(", ", n.otherArches())).toList());
        platforms(device);
        figuresSource(device);
        sink.section3_();
    }

    /** Each platform's worst on the device, where libraries of more than one platform were read. */
    private void platforms(DeviceReport device) {
        notes("Per platform (each platform's libraries alone, static worst case)", device.platforms().stream()
                .map(platform -> {
                    String name = platform.platform() + (platform.gated() ? "" : " (not gated)") + ": ";
                    KernelRow worst = platform.worstKernel();
                    if (platform.status() == Verdict.SKIPPED) {
                        return name + "skipped (none of its SASS runs here)";
                    }
                    return name + Figures.bytes(platform.reservationBytes()) + (worst == null
                            ? " (no kernel with a frame)" : ", " + worst.displayName() + " [" + worst.archLabel() + "] in "
                                    + worst.library() + ", " + worst.stackLabel() + " B per thread")
                            + (platform.status() == Verdict.FAIL ? ", over budget" : "");
                }).toList());
    }

    /** The other figure of a launched-mode device: the static bound (complete log) or the launched one. */
    private void launchedFigures(DeviceReport device, LaunchedDeviceReport launched) {
        if (launched.headline()) {
            KernelRow statically = launched.staticWorstKernel();
            paragraph("Static bound (every kernel this device runs, launched or not; not judged): "
                    + Figures.bytes(device.staticReservationBytes()) + (statically == null || statically.stack() == 0
                            ? "." : "; static worst kernel " + statically.displayName() + " [" + statically.archLabel()
                                    + "] in " + statically.library() + ", " + statically.stackLabel() + " B per thread."));
        } else {
            KernelRow worst = launched.worstKernel();
            paragraph("Launched kernels alone (not judged: the launch log is incomplete): "
                    + Figures.bytes(launched.reservationBytes()) + (worst == null || worst.stack() == 0 ? "."
                            : "; worst launched kernel " + worst.displayName() + " [" + worst.archLabel() + "] in "
                                    + worst.library() + ", " + worst.stackLabel() + " B per thread."));
        }
    }

    /** The launched kernels' images on a device, with static and dynamic shared memory. */
    private void launchedKernels(LaunchedDeviceReport launched) {
        if (launched.kernels().isEmpty()) {
            paragraph("Launched kernels: none of them has an image this device runs.");
        } else {
            paragraph("Launched kernels (" + launched.kernels().size() + "); shared per block = static SHARED + the "
                    + "largest dynamic shared memory a launch asked for:");
            sink.table();
            boolean sources = launched.driverFrames(); // launch log format 2: which frame is static, which the driver's
            int[] justify = {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT,
                Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_LEFT,
                Sink.JUSTIFY_LEFT};
            sink.tableRows(java.util.Arrays.copyOf(justify, sources ? 10 : 9), false);
            if (sources) {
                headerRow("Kernel", "Library", "Arch", "STACK (B)", "SHARED (B)", "Max dynamic shared (B)",
                        "Shared per block (B)", "REG", "Launched under", "Frame");
            } else {
                headerRow("Kernel", "Library", "Arch", "STACK (B)", "SHARED (B)", "Max dynamic shared (B)",
                        "Shared per block (B)", "REG", "Launched under");
            }
            for (LaunchedKernelRow row : launched.kernels()) {
                KernelRow kernel = row.kernel();
                sink.tableRow();
                kernelCells(kernel);
                cell(Figures.grouped(kernel.shared()));
                cell(row.maxDynamicShared() == null ? "not logged" : Figures.grouped(row.maxDynamicShared()));
                cell(Figures.grouped(row.sharedPerBlock()));
                cell(Integer.toString(kernel.registers()));
                cell(String.join(", ", row.attributions()));
                if (sources) {
                    cell(row.driverReported() ? "driver-reported" : "static");
                }
                sink.tableRow_();
            }
            sink.tableRows_();
            sink.table_();
        }
        notes("Launched kernels whose static frame differs from the driver's (the driver loaded another image)",
                launched.driverDifferences().stream().map(d -> d.image().displayName() + ": static "
                        + Figures.grouped(d.image().stack()) + " B (" + d.image().arch() + ", " + d.image().library()
                        + "), driver " + (d.driver().localBytes() == null ? "unknown"
                                : Figures.grouped(d.driver().localBytes()) + " B")
                        + (d.driver().arch() == null ? "" : " (" + d.driver().arch() + ")")).toList());
        notes("Launched kernels in no scanned file whose driver frame is of an image this device cannot run (not "
                + "counted here)", launched.driverOtherArch());
        notes("Launched functions this device would JIT-compile from PTX (frame unknown at build time)",
                launched.jit().stream().map(n -> describe(n) + (n.jitFrom() == null ? "" : ", from " + n.jitFrom()))
                        .toList());
        notes("Launched functions that cannot run on this device (no usable SASS or PTX)",
                launched.cannotRun().stream().map(SiteReportRenderer::describe).toList());
    }

    /** How the kernels in no scanned library count: " (frames not counted)", or how many the driver's frame counts. */
    private static String unmatchedCounting(LaunchedRunReport run) {
        long withDriverFrame = run.unmatchedKernels().stream()
                .filter(kernel -> kernel.driver() != null && kernel.driver().localBytes() != null).count();
        return withDriverFrame == 0 ? " (frames not counted)" : " (" + Figures.grouped(withDriverFrame) + " counted "
                + "with the driver-reported frame, " + Figures.grouped(run.unmatched() - withDriverFrame)
                + " not counted)";
    }

    /** The launch log: where it came from, the kernels in no scanned library, the libraries found through it. */
    private void launchLog(LaunchedRunReport run) {
        section2("Launch log");
        paragraph("Launch log " + run.log() + (run.format().isEmpty() ? "" : " (" + run.format() + ")") + ", status "
                + run.status() + (run.headline() ? " (complete: the launched figures are the headline)"
                        : " (incomplete: the static bound stays the headline)") + ". " + Figures.grouped(run.kernels())
                + " kernel(s) launched: " + Figures.grouped(run.matched()) + " found in the scanned libraries, "
                + Figures.grouped(run.unmatched()) + " in none" + unmatchedCounting(run) + ".");
        paragraph(run.libraryLog() == null ? "No library log."
                : "Library log " + run.libraryLog() + ": " + Figures.grouped(run.librariesLoaded())
                        + " librar" + (run.librariesLoaded() == 1 ? "y" : "ies") + " loaded, "
                        + Figures.grouped(run.notOnThisMachine().size()) + " not on this machine.");
        notes("Libraries found through the library log (outside the configured file sets, scanned because the run "
                + "loaded them)", run.foundThroughLibraryLog());
        if (!run.unmatchedKernels().isEmpty()) {
            paragraph("Launched kernels in no scanned library (" + run.unmatchedKernels().size() + "; add the "
                    + "libraries that hold them to the file sets):");
            sink.table();
            sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_LEFT}, false);
            headerRow("Kernel", "Max dynamic shared (B)", "Launched under");
            for (LaunchEntry kernel : run.unmatchedKernels()) {
                sink.tableRow();
                sink.tableCell();
                code(kernel.displayName());
                sink.tableCell_();
                cell(kernel.maxDynamicShared() == null ? "not logged" : Figures.grouped(kernel.maxDynamicShared()));
                cell(String.join(", ", kernel.attributions()));
                sink.tableRow_();
            }
            sink.tableRows_();
            sink.table_();
        }
        sink.section2_();
    }

    private void figuresSource(DeviceReport device) {
        if (!device.figuresSource().isEmpty()) {
            sink.paragraph();
            sink.italic();
            sink.text("Device figures (" + Figures.grouped(device.maxResidentThreads()) + " resident threads"
                    + (device.memoryBytes() == null ? "" : ", " + Figures.bytes(device.memoryBytes()) + " memory")
                    + "): " + device.figuresSource());
            sink.italic_();
            sink.paragraph_();
        }
    }

    private static String describe(FunctionNote note) {
        return note.displayName() + " in " + note.library();
    }

    private void kernelTable(List<KernelRow> kernels) {
        sink.table();
        sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT,
            Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT}, false);
        headerRow("Kernel", "Library", "Arch", "STACK (B)", "LOCAL (B)", "SHARED (B)", "REG");
        for (KernelRow kernel : kernels) {
            sink.tableRow();
            kernelCells(kernel);
            cell(Figures.grouped(kernel.local()));
            cell(Figures.grouped(kernel.shared()));
            cell(Integer.toString(kernel.registers()));
            sink.tableRow_();
        }
        sink.tableRows_();
        sink.table_();
    }

    /** A kernel row's first cells: its name, library, arch and frame. */
    private void kernelCells(KernelRow kernel) {
        sink.tableCell();
        code(kernel.displayName());
        sink.tableCell_();
        cell(kernel.library());
        cell(kernel.archLabel());
        cell(kernel.stackLabel());
    }

    // gate (issue 12)
    /** The kernels suppressions took out of the verdicts, with their reasons (only when there are some). */
    /** Issue 12: the gate's checks beyond the budgets (rules, suppressions, baseline), as the other reports list them. */
    private void gateChecks() {
        if (model.checks().isEmpty()) {
            return;
        }
        section2("Gate checks");
        long failed = model.checks().stream().filter(c -> c.outcome() == GateCheck.Outcome.FAIL).count();
        long warned = model.checks().stream().filter(c -> c.outcome() == GateCheck.Outcome.WARN).count();
        paragraph(model.checks().size() + " check(s): " + failed + " failed, " + warned + " warned, "
                + (model.checks().size() - failed - warned) + " passed.");
        sink.table();
        sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT}, false);
        headerRow("Outcome", "Category", "Check", "Message");
        for (GateCheck check : model.checks()) {
            sink.tableRow();
            cell(check.outcome().name());
            cell(check.category());
            cell(check.name());
            cell(check.message());
            sink.tableRow_();
        }
        sink.tableRows_();
        sink.table_();
        sink.section2_();
    }

    private void suppressed() {
        if (model.suppressed().isEmpty()) {
            return;
        }
        section2("Suppressed kernels");
        paragraph("Left out of the verdicts by the suppressions file: neither the reservation nor the frame limit "
                + "counts them.");
        sink.table();
        sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT,
            Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT}, false);
        headerRow("Device", "Kernel", "Library", "Frame (B)", "Alone it would reserve", "Suppression", "Reason");
        for (io.github.cudastackbudget.core.report.model.SuppressedRow row : model.suppressed()) {
            sink.tableRow();
            cell(row.device());
            sink.tableCell();
            code(row.kernel().displayName());
            sink.text(" [" + row.kernel().archLabel() + "]");
            sink.tableCell_();
            cell(row.kernel().library());
            cell(row.kernel().stackLabel());
            cell(Figures.bytes(row.reservationBytes()));
            cell("suppression[" + row.entry() + "] " + row.pattern() + (row.until() == null ? ""
                    : " (until " + row.until() + ")"));
            cell(row.reason());
            sink.tableRow_();
        }
        sink.tableRows_();
        sink.table_();
        sink.section2_();
    }

    private void libraries() {
        section2("Libraries");
        sink.table();
        sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT,
            Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT}, false);
        headerRow("Library", "Kernels", "Platform", "SASS arches", "PTX", "Worst frame (B)", "Worst kernel",
                "Used by");
        for (LibraryReport library : model.libraries()) {
            sink.tableRow();
            sink.tableCell();
            sink.bold();
            sink.text(library.library());
            sink.bold_();
            if (library.foundThroughLibraryLog()) {
                sink.text(" (found through the library log)");
            }
            sink.lineBreak();
            sink.italic();
            sink.text(library.path());
            sink.italic_();
            sink.tableCell_();
            cell(Figures.grouped(library.kernels()));
            cell(library.platform() + (library.gated() ? "" : " (not gated)"));
            cell(String.join(", ", library.sassArches()));
            cell(String.join(", ", library.ptxArches()));
            cell(Figures.grouped(library.maxStack()));
            sink.tableCell();
            if (library.worstKernel() != null) {
                code(library.worstKernel().displayName());
                sink.text(" [" + library.worstKernel().archLabel() + "]");
            }
            sink.tableCell_();
            cell(library.usedBy().isEmpty() ? "(not attributed)" : library.usedBy());
            sink.tableRow_();
        }
        sink.tableRows_();
        sink.table_();
        sink.section2_();
    }

    /** Issue 12: old, new and delta per device against the baseline, and the overall figure. */
    private void baseline() {
        BaselineReport baseline = model.baseline();
        if (baseline == null) {
            return;
        }
        section2("Baseline");
        paragraph("Compared with " + baseline.source() + ".");
        sink.table();
        sink.tableRows(new int[] {Sink.JUSTIFY_LEFT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT, Sink.JUSTIFY_RIGHT,
            Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT, Sink.JUSTIFY_LEFT}, false);
        headerRow("Device", "Baseline", "Now", "Change", "maxGrowth", "Verdict", "Kernel");
        for (BaselineReport.Row row : baseline.devices()) {
            baselineRow(row, row.device());
        }
        if (baseline.overall() != null) {
            baselineRow(baseline.overall(), "overall (the largest reservation)");
        }
        sink.tableRows_();
        sink.table_();
        sink.section2_();
    }

    private void baselineRow(BaselineReport.Row row, String device) {
        sink.tableRow();
        cell(device);
        cell(row.previousBytes() == null ? "-" : Figures.bytes(row.previousBytes()));
        cell(row.currentBytes() == null ? "-" : Figures.bytes(row.currentBytes()));
        Long delta = row.deltaBytes();
        cell(delta == null ? (row.note() == null ? "" : row.note())
                : (delta < 0 ? "-" : "+") + Figures.bytes(Math.abs(delta)) + " (" + row.deltaPercent() + ")");
        cell(row.maxGrowth() == null ? "not gated"
                : row.maxGrowth() + " (+" + Figures.bytes(row.allowedGrowthBytes()) + ")");
        if (!row.compared()) {
            cell("-");
        } else {
            verdictCell(row.failed() ? Verdict.FAIL : Verdict.PASS);
        }
        sink.tableCell();
        KernelRow kernel = row.kernel();
        if (kernel != null && delta != null && delta > 0) {
            code(kernel.displayName());
            sink.text(" [" + kernel.archLabel() + "] in " + kernel.library() + ", " + switch (
                    row.kernelChange() == null ? "" : row.kernelChange()) {
                case "new" -> "new since the baseline";
                case "grew" -> "frame " + Figures.grouped(row.previousStack()) + " -> "
                        + Figures.grouped(kernel.stack()) + " B";
                case "unchanged" -> "frame unchanged";
                default -> "frame was " + Figures.grouped(row.previousStack() == null ? 0 : row.previousStack())
                        + " B";
            });
        }
        sink.tableCell_();
        sink.tableRow_();
    }

    private void warnings() {
        if (!model.warnings().isEmpty()) {
            notes("Warnings", model.warnings(), true);
        }
    }

    private void notes(String title, List<String> lines) {
        notes(title, lines, false);
    }

    private void notes(String title, List<String> lines, boolean section) {
        if (lines.isEmpty()) {
            return;
        }
        if (section) {
            section2(title);
        } else {
            paragraph(title + " (" + lines.size() + "):");
        }
        // per-device lists can hold thousands of functions in a large library: cut to top like the kernel tables
        List<String> shown = section || top <= 0 || lines.size() <= top ? lines : lines.subList(0, top);
        sink.list();
        for (String line : shown) {
            sink.listItem();
            sink.text(line);
            sink.listItem_();
        }
        if (shown.size() < lines.size()) {
            sink.listItem();
            sink.italic();
            sink.text("and " + Figures.grouped(lines.size() - shown.size()) + " more (" + Phrases.listAllHint(WORDS)
                    + ")");
            sink.italic_();
            sink.listItem_();
        }
        sink.list_();
        if (section) {
            sink.section2_();
        }
    }

    private void section2(String title) {
        sink.section2();
        sink.sectionTitle2();
        sink.text(title);
        sink.sectionTitle2_();
    }

    private void paragraph(String text) {
        sink.paragraph();
        sink.text(text);
        sink.paragraph_();
    }

    private void headerRow(String... titles) {
        sink.tableRow();
        for (String title : titles) {
            sink.tableHeaderCell();
            sink.text(title);
            sink.tableHeaderCell_();
        }
        sink.tableRow_();
    }

    private void cell(String text) {
        sink.tableCell();
        sink.text(text);
        sink.tableCell_();
    }

    private void verdictCell(Verdict verdict) {
        sink.tableCell();
        if (verdict == Verdict.FAIL) {
            sink.bold();
            sink.text("FAIL");
            sink.bold_();
        } else {
            sink.text(verdict.name());
        }
        sink.tableCell_();
    }

    /** A sentence of the shared wording: devices bold, kernels monospaced, the rest text. */
    private void sentence(Sentence sentence) {
        for (Sentence.Part part : sentence.parts()) {
            switch (part.kind()) {
                case DEVICE -> {
                    sink.bold();
                    sink.text(part.text());
                    sink.bold_();
                }
                case KERNEL -> code(part.text());
                case BYTES -> sink.text(Figures.bytes(part.bytes()));
                default -> sink.text(part.text());
            }
        }
    }

    private void code(String text) {
        sink.monospaced();
        sink.text(text);
        sink.monospaced_();
    }
}
