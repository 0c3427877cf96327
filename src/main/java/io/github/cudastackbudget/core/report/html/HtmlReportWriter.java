package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.FunctionNote;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.PlatformReport;
import io.github.cudastackbudget.core.report.model.Phrases;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.SuppressedRow;
import io.github.cudastackbudget.core.report.model.Tone;
import io.github.cudastackbudget.core.report.model.Verdict;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes {@code cuda-stack-budget.html}: one self-contained page (inline CSS, inline SVG, one small inline script,
 * a Content-Security-Policy that forbids every network request) that answers which devices are over or near their
 * budget, by how much, because of which kernel in which library, and what shrinking that kernel's frame would change.
 * The same model gives a byte-identical page; nothing time-dependent is written.
 */
public final class HtmlReportWriter {

    /** The file name inside the output directory. */
    public static final String FILE_NAME = "cuda-stack-budget.html";

    /** Kernel rows shown before the user asks for more, when {@code top} is 0. */
    public static final int DEFAULT_ROWS = 25;

    /** A device at or above this percentage of its budget is "near budget". */
    public static final int NEAR_PERCENT = Tone.NEAR_PERCENT;

    /** Entries of a JIT / cannot-run / unknown / ambiguous list written into the page; the JSON has all. */
    static final int NOTE_LIMIT = 200;

    private static final String RESOURCES = "/io/github/cudastackbudget/core/report/html/";

    private final ReportModel model;
    private final int rows;
    private final Frontend frontend;
    private final StringBuilder out = new StringBuilder(1 << 16);

    private HtmlReportWriter(ReportModel model, int top, Frontend frontend) {
        this.model = model;
        this.rows = top <= 0 ? DEFAULT_ROWS : top;
        this.frontend = frontend;
    }

    /** Writes the page into {@code directory} (created if needed) and returns the file. */
    public static Path write(ReportModel model, int top, Path directory) throws IOException {
        return write(model, top, Frontend.PARAMETERS, directory);
    }

    /**
     * Writes the page into {@code directory} (created if needed) and returns the file.
     *
     * @param frontend spells the options the page names
     */
    public static Path write(ReportModel model, int top, Frontend frontend, Path directory) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(FILE_NAME);
        Path temporary = directory.resolve(FILE_NAME + ".tmp");
        try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            render(model, top, frontend, writer);
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /**
     * Renders the page, naming the options as the parameter ids.
     *
     * @param top kernel rows shown at first in each table (the user can expand); 0 = {@value #DEFAULT_ROWS}
     */
    public static void render(ReportModel model, int top, Writer writer) throws IOException {
        render(model, top, Frontend.PARAMETERS, writer);
    }

    /**
     * Renders the page.
     *
     * @param top      kernel rows shown at first in each table (the user can expand); 0 = {@value #DEFAULT_ROWS}
     * @param frontend spells the options the page names
     */
    public static void render(ReportModel model, int top, Frontend frontend, Writer writer) throws IOException {
        // the data block (every record, the names front-coded: most of a large page's time) is built while the rest
        // of the page is written (issue 11)
        java.util.concurrent.FutureTask<String> data = new java.util.concurrent.FutureTask<>(() -> KernelData.json(model));
        Thread builder = new Thread(data, "cuda-stack-budget-page-data");
        builder.setDaemon(true);
        builder.start();
        HtmlReportWriter page = new HtmlReportWriter(model, top, frontend);
        page.head();
        page.summary();
        page.deviceTable();
        page.chart();
        for (int i = 0; i < model.devices().size(); i++) {
            page.device(i, model.devices().get(i));
        }
        // gate (issue 12)
        page.suppressed();
        if (model.launchedMode()) {
            LaunchedHtml.section(page.out, model.launched());
        }
        // issue 12, baselines
        BaselineHtml.section(page.out, model.baseline());
        // out (issue 12): every gate check with its outcome
        GateChecksHtml.section(page.out, model.checks());
        page.allKernels();
        page.libraries();
        page.warnings();
        page.foot();
        writer.write(page.out.toString());
        writer.write("<script type=\"application/json\" id=\"csb-data\">");
        writer.write(dataBlock(data));
        writer.write("</script>\n<script>\n");
        writer.write(resource("page.js"));
        writer.write("</script>\n</body>\n</html>\n");
    }

    private static String dataBlock(java.util.concurrent.FutureTask<String> data) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return data.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the block is finished anyway: a page is never written without it
                }
            }
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The page as a string (tests, small reports). */
    public static String render(ReportModel model, int top) {
        java.io.StringWriter writer = new java.io.StringWriter();
        try {
            render(model, top, writer);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toString();
    }

    private HtmlReportWriter add(String... parts) {
        for (String part : parts) {
            out.append(part);
        }
        return this;
    }

    private static String e(String text) {
        return Html.escape(text);
    }

    private void head() {
        long failing = count(Verdict.FAIL);
        add("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
                // nothing may leave the page: no fetch, no image, no font, no frame
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
                        + "script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n",
                "<meta name=\"generator\" content=\"cuda-stack-budget-maven-plugin\">\n",
                "<title>CUDA Stack Budget: ", model.noKernels() ? "no CUDA kernels"
                        : failing > 0 ? failing + " of " + model.devices().size() + " devices over budget"
                        : "all devices within budget", "</title>\n<style>\n", resource("page.css"),
                model.launchedMode() ? resource("launched.css") : "", "</style>\n</head>\n<body>\n<header>\n<h1>CUDA Stack Budget</h1>\n");
        add("<p class=\"meta\">", Figures.grouped(model.filesProbed()), " files probed \u00b7 ",
                Figures.grouped(model.libraries().size()), " CUDA libraries \u00b7 ",
                Figures.grouped(model.functionCount()), " functions in ", Figures.grouped(model.recordCount()),
                " kernel records", model.sassArches().isEmpty() ? ""
                        : " \u00b7 SASS " + e(String.join(", ", model.sassArches())),
                " \u00b7 ", Figures.grouped(model.devices().size()), " devices (", e(model.deviceOrigin()), ")",
                " \u00b7 engine: ", e(model.engine()), model.launchedMode() ? " \u00b7 launched mode: "
                        + Figures.grouped(model.launched().kernels()) + " kernels in the launch log" : "",
                "</p>\n</header>\n<main>\n");
    }

    private long count(Verdict verdict) {
        return model.devices().stream().filter(d -> d.status() == verdict).count();
    }

    /** One sentence per device that needs attention: over or near budget, skipped. */
    private void summary() {
        add("<section id=\"glance\">\n<h2>At a glance</h2>\n");
        if (model.noKernels()) {
            add("<p class=\"verdict pass\">No CUDA kernels were found in ", Figures.grouped(model.filesProbed()),
                    " scanned files: nothing reserves stack memory.</p>\n</section>\n");
            return;
        }
        long pass = count(Verdict.PASS);
        long fail = count(Verdict.FAIL);
        long skipped = count(Verdict.SKIPPED);
        String tone = fail > 0 ? "fail" : "pass";
        add("<p class=\"verdict ", tone, "\">", String.valueOf(model.devices().size()), " devices: ",
                String.valueOf(pass), " pass, ", String.valueOf(fail), " fail, ", String.valueOf(skipped),
                " skipped.</p>\n", model.launchedMode() ? LaunchedHtml.modeNote(model.launched()) : "",
                "<ul class=\"glance\">\n");
        for (int i = 0; i < model.devices().size(); i++) {
            DeviceReport device = model.devices().get(i);
            String deviceTone = Tone.of(device).id();
            add("<li class=\"", deviceTone, "\"><div class=\"headline\"><a href=\"#device-", String.valueOf(i),
                    "\">", e(device.name()), "</a> <span class=\"badge ", deviceTone, "\">",
                    DevicePhrases.badge(device),
                    "</span> ");
            if (device.skipped()) {
                add("</div><div>Skipped: ", e(device.skipReason()), ".</div></li>\n");
                continue;
            }
            add(DevicePhrases.verdictPhrase(device), "</div>");
            KernelRow worst = device.worstKernel();
            if (worst != null && worst.stack() > 0) {
                add("<div><span class=\"label\">", device.launchedHeadline() ? "Worst launched" : "Worst kernel",
                        "</span> ",
                        Html.kernelName(worst.displayName(), worst.name()),
                        " [", e(worst.archLabel()), "] in <span class=\"lib\">", e(worst.library()), "</span>, ",
                        Figures.grouped(worst.stack()), " B per thread.</div>");
            }
            if (device.launched() != null) {
                add(LaunchedHtml.glance(device));
            }
            if (worst != null && worst.stack() > 0 || device.launched() != null
                    && !DevicePhrases.whatIf(device).isEmpty()) {
                add("<div><span class=\"label\">What if</span> ", DevicePhrases.whatIf(device), "</div>");
            }
            add("</li>\n");
        }
        add("</ul>\n");
        if (!model.violations().isEmpty()) {
            add("<h3>Violations</h3>\n<ul class=\"violations\">\n");
            for (ViolationReport violation : model.violations()) {
                add("<li>", DevicePhrases.violation(violation, model.device(violation.device()), frontend),
                        "</li>\n");
            }
            add("</ul>\n");
        }
        add("</section>\n");
    }

    private void deviceTable() {
        add("<section id=\"devices\">\n<h2>Devices</h2>\n<div class=\"scroll\"><table class=\"summary sortable\">\n",
                "<thead><tr><th>Device</th><th>Verdict</th><th class=\"num\">",
                model.launchedMode() && model.launched().headline() ? "Reservation (launched)" : "Reservation",
                "</th>",
                !model.launchedMode() ? "" : model.launched().headline()
                        ? "<th class=\"num\" title=\"every kernel the device runs, launched or not\">Static bound</th>"
                        : "<th class=\"num\" title=\"the launched kernels alone (incomplete log)\">Launched</th>",
                "<th class=\"num\">Budget</th><th class=\"num\">Used</th><th class=\"num\">Headroom</th>",
                "<th class=\"num\" title=\"reservation above what the driver's default 1,024 B per thread already ",
                "holds\">Over default</th><th>Worst kernel</th><th>Notes</th></tr></thead>\n",
                "<tbody>\n");
        for (int i = 0; i < model.devices().size(); i++) {
            DeviceReport device = model.devices().get(i);
            String tone = Tone.of(device).id();
            add("<tr class=\"", tone, "\"><td class=\"dname\"><a href=\"#device-", String.valueOf(i), "\">",
                    e(device.name()),
                    "</a><div class=\"sub\">CC ", e(device.computeCapability()), " \u00b7 ",
                    device.chosenArch() == null ? e(device.targetArch()) : "runs " + e(device.chosenArch()),
                    "</div></td><td><span class=\"badge ", tone, "\">", DevicePhrases.badge(device), "</span></td>");
            if (device.skipped()) {
                add("<td class=\"num\" data-sort=\"-1\">\u2013</td>",
                        model.launchedMode() ? LaunchedHtml.otherFigureCell(device) : "", budgetCell(device),
                        "<td class=\"num\" data-sort=\"-1\">\u2013</td><td class=\"num\" data-sort=\"-1\">\u2013</td>",
                        "<td class=\"num\" data-sort=\"-1\">\u2013</td><td class=\"worst\">skipped: ",
                        e(device.skipReason()), "</td><td class=\"notes\">",
                        e(String.join("; ", DevicePhrases.notes(device, frontend))), "</td></tr>\n");
                continue;
            }
            Long headroom = device.headroomBytes();
            KernelRow worst = device.worstKernel();
            add("<td class=\"num\" data-sort=\"", String.valueOf(device.reservationBytes()), "\">",
                    Html.bytes(device.reservationBytes()), "</td>",
                    model.launchedMode() ? LaunchedHtml.otherFigureCell(device) : "", budgetCell(device),
                    "<td class=\"num\" data-sort=\"", percentKey(device), "\">",
                    device.percentOfBudget() == null ? "\u2013" : device.percentOfBudget(), "</td>",
                    "<td class=\"num\" data-sort=\"", headroom == null ? "" : String.valueOf(headroom), "\">",
                    headroom == null ? "\u2013" : headroom < 0 ? "<span class=\"over\">\u2212" + Html.bytes(-headroom)
                            + "</span>" : Html.bytes(headroom), "</td>",
                    "<td class=\"num\" data-sort=\"", String.valueOf(device.incrementBytes()), "\">",
                    Html.bytes(device.incrementBytes()), "</td><td class=\"worst\">");
            if (worst != null && worst.stack() > 0) {
                add(Html.kernelName(SvgBarChart.abbreviate(worst.displayName(), 80), worst.name()),
                        "<div class=\"sub\">", Figures.grouped(worst.stack()), " B \u00b7 ", e(worst.archLabel()),
                        " \u00b7 <span class=\"lib\">", e(worst.library()), "</span></div>");
            } else {
                add("no stack frame");
            }
            add("</td><td class=\"notes\">", e(String.join("; ", DevicePhrases.notes(device, frontend))), "</td></tr>\n");
        }
        add("</tbody></table></div>\n</section>\n");
    }

    private static String percentKey(DeviceReport device) {
        if (device.budgetBytes() == null || device.budgetBytes() == 0) {
            return "";
        }
        return String.valueOf(device.reservationBytes() * 1000 / device.budgetBytes());
    }

    private static String budgetCell(DeviceReport device) {
        return device.budgetBytes() == null ? "<td class=\"num\" data-sort=\"\">none</td>"
                : "<td class=\"num\" data-sort=\"" + device.budgetBytes() + "\">" + Html.bytes(device.budgetBytes())
                        + "</td>";
    }

    private void chart() {
        if (model.devices().isEmpty()) {
            return;
        }
        add("<section id=\"chart\">\n<h2>Reservation, budget and memory</h2>\n",
                "<p class=\"legend\"><span class=\"key pass\"></span>within budget <span class=\"key near\"></span>",
                "at least ", String.valueOf(NEAR_PERCENT), "% of budget <span class=\"key fail\"></span>over budget ",
                "<span class=\"key budget\"></span>budget <span class=\"key mem\"></span>share of device memory ",
                "(thin bar, whole width = the device's memory)</p>\n<div class=\"scroll\">",
                SvgBarChart.render(model.devices(), SvgBarChart.Style.PAGE), "</div>\n</section>\n");
    }

    private void device(int index, DeviceReport device) {
        String tone = Tone.of(device).id();
        add("<section class=\"device\" id=\"device-", String.valueOf(index), "\">\n<h2>", e(device.name()),
                " <span class=\"badge ", tone, "\">", DevicePhrases.badge(device),
                "</span></h2>\n<dl class=\"facts\">\n");
        String perSm = device.multiProcessorCount() == null ? ""
                : " (" + Figures.grouped(device.multiProcessorCount()) + " SMs)";
        fact("Device", "compute capability " + e(device.computeCapability()) + " (" + e(device.targetArch()) + "), "
                + Figures.grouped(device.maxResidentThreads()) + " resident threads" + perSm
                + (device.memoryBytes() == null ? "" : ", " + Html.bytesExact(device.memoryBytes()) + " memory")
                + (device.figuresSource().isEmpty() ? "" : "<div class=\"sub\">figures: " + e(device.figuresSource())
                        + "</div>"));
        if (device.skipped()) {
            fact("Skipped", e(device.skipReason()));
        } else {
            figures(device);
        }
        if (!device.platforms().isEmpty()) {
            fact("Per platform", platforms(device));
        }
        add("</dl>\n");
        lists(device);
        if (!device.selectedKernels().isEmpty()) {
            add(device.launched() == null ? "<h3>Kernels this device runs</h3>\n"
                    : "<h3>Every kernel this device runs, launched or not (the static bound)</h3>\n");
            KernelTableHtml.render(out, "d" + index, device.name(), device.selectedKernels(), rows,
                    "functions this device runs ("
                    + Figures.grouped(device.kernelsWithFrame().size()) + " with a stack frame)");
        }
        add("</section>\n");
    }

    /** The facts of a checked device: its reservation, budget, worst kernel, what-if and images. */
    private void figures(DeviceReport device) {
        KernelRow worst = device.worstKernel();
        if (worst == null || worst.stack() == 0) {
            fact(device.launchedHeadline() ? "Launched reservation" : "Reservation", device.launchedHeadline()
                    ? "0 B: no launched kernel this device runs has a stack frame"
                    : "0 B: no kernel this device runs has a stack frame");
        } else {
            long limit = device.stackLimitBytes();
            fact(device.launchedHeadline() ? "Launched reservation" : "Reservation", Html.bytesExact(device.reservationBytes()) + " = "
                    + Figures.grouped(device.maxResidentThreads()) + " threads \u00d7 " + Figures.grouped(limit)
                    + " B" + (limit != worst.stack() ? " (frame " + Figures.grouped(worst.stack())
                            + " B rounded up to 16)" : ""));
            fact("Over the default", Html.bytesExact(device.incrementBytes())
                    + " more than the driver's default 1,024 B per thread holds");
        }
        if (device.launched() != null) {
            for (String[] fact : LaunchedHtml.facts(device)) {
                fact(fact[0], fact[1]);
            }
        } else if (device.staticReservationBytes() != device.reservationBytes()) {
            fact("Static worst case", Html.bytesExact(device.staticReservationBytes()));
        }
        fact("Budget", device.budgetBytes() == null ? "none (" + e(Phrases.noBudgetHint(frontend)) + ")"
                : Html.bytesExact(device.budgetBytes()) + ": " + device.percentOfBudget() + " used, "
                        + (device.headroomBytes() < 0 ? "<span class=\"over\">over by "
                                + Html.bytesExact(-device.headroomBytes()) + "</span>"
                                : Html.bytesExact(device.headroomBytes()) + " headroom"));
        if (device.memoryBytes() != null) {
            fact("Share of memory", device.percentOfMemory() + " of " + Html.bytes(device.memoryBytes()));
        }
        if (worst != null && worst.stack() > 0) {
            fact(device.launchedHeadline() ? "Worst launched kernel" : "Worst kernel",
                    Html.kernelName(worst.displayName(), worst.name()) + "<div class=\"sub\">"
                    + e(worst.archLabel()) + " in <span class=\"lib\">" + e(worst.library()) + "</span> \u00b7 STACK "
                    + Figures.grouped(worst.stack()) + " B \u00b7 LOCAL " + Figures.grouped(worst.local())
                    + " B \u00b7 SHARED " + Figures.grouped(worst.shared()) + " B \u00b7 REG " + worst.registers()
                    + "</div>");
        }
        if (worst != null && worst.stack() > 0 || device.launched() != null
                && !DevicePhrases.whatIf(device).isEmpty()) {
            fact("What if", DevicePhrases.whatIf(device));
        }
        fact("Images run", "chosen arch " + e(device.chosenArch()) + (device.fellBack()
                ? " <span class=\"warn\">(no " + e(device.targetArch()) + " SASS embedded: a compatible older "
                        + "image runs)</span>" : "") + "<div class=\"sub\">" + e(device.imageCounts().entrySet()
                .stream().map(entry -> entry.getKey() + ": " + Figures.grouped(entry.getValue()) + " functions")
                .collect(Collectors.joining(", "))) + "</div>");
        if (device.worstLocalKernel() != null) {
            KernelRow local = device.worstLocalKernel();
            fact("Most spill", Figures.grouped(local.local()) + " B LOCAL per thread in "
                    + Html.kernelName(SvgBarChart.abbreviate(local.displayName(), 90), local.name()) + " ("
                    + e(local.library()) + ")");
        }
    }

    /** A device's exceeded frame limits and its lists: UNKNOWN frames, JIT, cannot run, ambiguous, launched kernels. */
    private void lists(DeviceReport device) {
        List<ViolationReport> stackViolations = device.violations().stream().filter(v -> !v.reservation()).toList();
        if (!stackViolations.isEmpty()) {
            add("<ul class=\"violations\">\n");
            stackViolations.forEach(v -> add("<li>", DevicePhrases.violation(v, device, frontend), "</li>\n"));
            add("</ul>\n");
        }
        kernelNotes("Kernels with an UNKNOWN stack frame (recursion or indirect calls; not in the figure above)",
                device.unknownStack(), k -> Html.kernelName(k.displayName(), k.name()) + " [" + e(k.archLabel())
                        + "] <span class=\"lib\">" + e(k.library()) + "</span>");
        kernelNotes("Functions this device would JIT-compile from PTX (frame unknown at build time)",
                device.jit(), n -> note(n, n.jitFrom() == null ? "" : "from " + n.jitFrom()));
        kernelNotes("Functions that cannot run on this device (neither loadable SASS nor usable PTX)",
                device.cannotRun(), n -> note(n, ""));
        kernelNotes("Functions with an undocumented choice between SASS images (the larger frame is counted)",
                device.ambiguous(), n -> note(n, "counted " + n.countedArch() + ", also "
                        + String.join(", ", n.otherArches())));
        if (device.launched() != null && !device.skipped()) {
            LaunchedHtml.kernelTable(out, device);
        }
        if (device.launched() != null) {
            kernelNotes("Launched functions this device would JIT-compile from PTX (frame unknown at build time)",
                    device.launched().jit(), n -> note(n, n.jitFrom() == null ? "" : "from " + n.jitFrom()));
            kernelNotes("Launched functions that cannot run on this device (neither loadable SASS nor usable PTX)",
                    device.launched().cannotRun(), n -> note(n, ""));
        }
    }

    private void fact(String term, String html) {
        add("<dt>", e(term), "</dt><dd>", html, "</dd>\n");
    }

    private static String note(FunctionNote note, String detail) {
        return Html.kernelName(note.displayName(), note.name()) + " <span class=\"lib\">" + Html.escape(note.library())
                + "</span>" + (detail.isEmpty() ? "" : " <span class=\"sub\">" + Html.escape(detail) + "</span>");
    }

    /**
     * One list of a device's notes: the first {@link #NOTE_LIMIT} rendered, the rest counted (issue 11: every note was
     * rendered and escaped before the list was cut, 7,726 per device for one real library on a device that
     * JIT-compiles it all).
     */
    private <T> void kernelNotes(String title, List<T> items, java.util.function.Function<T, String> render) {
        if (items.isEmpty()) {
            return;
        }
        add("<details class=\"notes\"><summary>", e(title), ": ", Figures.grouped(items.size()), "</summary>\n<ul>\n");
        items.stream().limit(NOTE_LIMIT).forEach(item -> add("<li>", render.apply(item), "</li>\n"));
        if (items.size() > NOTE_LIMIT) {
            add("<li class=\"sub\">\u2026 and ", Figures.grouped(items.size() - NOTE_LIMIT),
                    " more in cuda-stack-budget.json</li>\n");
        }
        add("</ul></details>\n");
    }

    private void allKernels() {
        if (model.kernels().isEmpty()) {
            return;
        }
        add("<section id=\"kernels\">\n<h2>All kernel records</h2>\n<p class=\"sub\">Every function in every embedded ",
                "SASS image, whether or not a device runs it.</p>\n");
        KernelTableHtml.render(out, "all", "all kernel records", KernelData.largestFrameFirst(model.kernels()), rows,
                "kernel records");
        add("</section>\n");
    }

    /** Each platform's worst on a device (static worst case), one line each. */
    private static String platforms(DeviceReport device) {
        StringBuilder html = new StringBuilder("<ul class=\"platforms\">");
        for (PlatformReport platform : device.platforms()) {
            KernelRow worst = platform.worstKernel();
            html.append("<li><span class=\"platform\">").append(e(platform.platform())).append("</span>")
                    .append(platform.gated() ? "" : " <span class=\"tag\">not gated</span>").append(": ");
            if (platform.status() == Verdict.SKIPPED) {
                html.append("skipped (none of its SASS runs here)");
            } else if (worst == null) {
                html.append(Html.bytes(platform.reservationBytes())).append(" (no kernel with a frame)");
            } else {
                html.append(Html.bytes(platform.reservationBytes())).append(" \u00b7 ")
                        .append(Html.kernelName(SvgBarChart.abbreviate(worst.displayName(), 80), worst.name()))
                        .append(" <span class=\"sub\">[").append(e(worst.archLabel())).append("] ")
                        .append(Figures.grouped(worst.stack())).append(" B in <span class=\"lib\">")
                        .append(e(worst.library())).append("</span></span>")
                        .append(platform.status() == Verdict.FAIL ? " <span class=\"over\">over budget</span>" : "");
            }
            html.append("</li>");
        }
        return html.append("</ul>").toString();
    }

    private void libraries() {
        add("<section id=\"libraries\">\n<h2>CUDA libraries</h2>\n");
        if (model.libraries().isEmpty()) {
            add("<p>No file held CUDA device code.</p>\n</section>\n");
            return;
        }
        add("<div class=\"scroll\"><table class=\"libs sortable\"><thead><tr><th>Library</th>",
                "<th class=\"num\">Functions</th><th class=\"num\">Records</th><th>Platform</th><th>SASS</th><th>PTX</th>",
                "<th class=\"num\">Worst frame</th><th>Worst kernel</th><th>Used by</th></tr></thead>\n<tbody>\n");
        for (LibraryReport library : model.libraries()) {
            KernelRow worst = library.worstKernel();
            add("<tr><td><span class=\"lib\" title=\"", e(library.path()), "\">", e(library.library()),
                    "</span>", library.foundThroughLibraryLog() ? "<span class=\"tag\" title=\"outside the configured "
                            + "file sets; the launch's library log named it\">library log</span>" : "",
                    "<div class=\"sub path\">", e(library.path()), "</div></td><td class=\"num\">",
                    Figures.grouped(library.kernels()), "</td><td class=\"num\">", Figures.grouped(library.records()),
                    "</td><td class=\"platform\">", e(library.platform()), library.gated() ? ""
                            : " <span class=\"tag\" title=\"not one of the platforms judged against the budgets\">"
                                    + "not gated</span>",
                    "</td><td>", e(String.join(", ", library.sassArches())), "</td><td>",
                    library.ptxArches().isEmpty() ? "\u2013" : e(String.join(", ", library.ptxArches())),
                    "</td><td class=\"num\" data-sort=\"", String.valueOf(library.maxStack()), "\">",
                    Figures.grouped(library.maxStack()), " B</td><td class=\"worst\">", worst == null ? "\u2013"
                            : Html.kernelName(SvgBarChart.abbreviate(worst.displayName(), 80), worst.name())
                                    + " <span class=\"sub\">[" + e(worst.archLabel()) + "]</span>",
                    "</td><td class=\"usedby\">", library.usedBy().isEmpty()
                            ? "<span class=\"sub\">not attributed</span>"
                            : e(library.usedBy()), "</td></tr>\n");
        }
        add("</tbody></table></div>\n</section>\n");
    }

    // gate (issue 12)
    /** The kernels suppressions took out of the verdicts, with their reasons (only when there are some). */
    private void suppressed() {
        if (model.suppressed().isEmpty()) {
            return;
        }
        add("<section id=\"suppressed\">\n<h2>Suppressed kernels</h2>\n<p class=\"sub\">Left out of the verdicts by ",
                "the suppressions file: neither the reservation nor the frame limit counts them.</p>\n",
                "<div class=\"scroll\"><table class=\"sortable\"><thead><tr><th>Device</th><th>Kernel</th>",
                "<th>Library</th><th class=\"num\">Frame</th><th class=\"num\">Alone it would reserve</th>",
                "<th>Suppression</th><th>Until</th><th>Reason</th></tr></thead>\n<tbody>\n");
        for (SuppressedRow row : model.suppressed()) {
            KernelRow kernel = row.kernel();
            add("<tr><td>", e(row.device()), "</td><td><span class=\"kernel\" title=\"", e(kernel.name()), "\">",
                    e(kernel.displayName()), "</span> <span class=\"sub\">[", e(kernel.archLabel()), "]</span></td><td>",
                    e(kernel.library()), "</td><td class=\"num\" data-sort=\"", String.valueOf(kernel.stack()), "\">",
                    e(kernel.stackLabel()), " B</td><td class=\"num\" data-sort=\"",
                    String.valueOf(row.reservationBytes()), "\">", e(Figures.bytes(row.reservationBytes())),
                    "</td><td>suppression[", String.valueOf(row.entry()), "] <code>", e(row.pattern()),
                    "</code></td><td>", row.until() == null ? "\u2013" : e(row.until()), "</td><td>", e(row.reason()),
                    "</td></tr>\n");
        }
        add("</tbody></table></div>\n</section>\n");
    }

    private void warnings() {
        if (model.warnings().isEmpty()) {
            return;
        }
        add("<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul class=\"warnings\">\n");
        model.warnings().forEach(w -> add("<li>", e(w), "</li>\n"));
        add("</ul>\n</section>\n");
    }

    private void foot() {
        add("</main>\n<footer>Written by cuda-stack-budget-maven-plugin from cuda-stack-budget.json (schema ",
                String.valueOf(model.schemaVersion()), "). Reservation = max resident threads \u00d7 the largest ",
                "stack frame rounded up to 16 B. Sizes: KiB/MiB/GiB are powers of 1024; hover a size for the exact ",
                "bytes.</footer>\n");
    }

    static String resource(String name) {
        try (InputStream in = HtmlReportWriter.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the plugin jar lacks " + RESOURCES + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * out (issue 12): the page of a check that could not run: the error, no figures (it replaces the previous run's
     * page, which no longer applies).
     */
    public static void renderError(String message, Writer writer) throws IOException {
        writer.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<title>CUDA stack budget: error</title>\n</head>\n<body>\n<h1>CUDA stack budget: error</h1>\n"
                + "<p>The check could not run: " + Html.escape(message) + "</p>\n"
                + "<p>No figures: the reports of this run hold only this error.</p>\n</body>\n</html>\n");
    }
}
