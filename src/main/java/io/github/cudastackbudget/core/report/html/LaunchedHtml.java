package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.budget.Reservation;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.LaunchedDeviceReport;
import io.github.cudastackbudget.core.report.model.LaunchedKernelRow;
import io.github.cudastackbudget.core.report.model.LaunchedRunReport;
import io.github.cudastackbudget.core.report.model.LaunchEntry;
import java.util.List;

/**
 * The standalone page's launched-mode fragments (HTML): which figure is the headline, the static bound next to it,
 * the per-device table of launched kernels with their dynamic shared memory, and the launch log's own section. Only
 * written when the report has launch data, so a report without it renders exactly as before.
 */
final class LaunchedHtml {

    /** Readable names longer than this are cut in the launch log's table (the mangled name is on hover). */
    static final int NAME_WIDTH = 200;

    private LaunchedHtml() {
    }

    private static String e(String text) {
        return Html.escape(text);
    }

    /** One sentence under the verdict: which figure the devices are judged on. */
    static String modeNote(LaunchedRunReport run) {
        String kernels = Figures.grouped(run.kernels()) + " kernels the launch log names ("
                + Figures.grouped(run.matched()) + " found in the scanned libraries, " + Figures.grouped(run.unmatched())
                + " in none)";
        if (run.headline()) {
            return "<p class=\"launched-mode\"><strong>Launched mode.</strong> Headline figures and verdicts are the "
                    + "reservation of the " + kernels + ". The static bound, over every kernel a device could run, is "
                    + "shown next to each. <a href=\"#launched\">Launch log</a></p>\n";
        }
        return "<p class=\"launched-mode incomplete\"><strong>Launch log incomplete</strong> (status: " + e(run.status())
                + "): headline figures and verdicts stay the static bound over every kernel; the reservation of the "
                + kernels + " is shown for information. <a href=\"#launched\">Launch log</a></p>\n";
    }

    /** The glance lines of a device in launched mode: the static bound (or the launched figure) and its worst kernel. */
    static String glance(DeviceReport device) {
        LaunchedDeviceReport launched = device.launched();
        if (launched.headline()) {
            KernelRow statically = launched.staticWorstKernel();
            return "<div><span class=\"label\">Static bound</span> " + Html.bytesExact(device.staticReservationBytes())
                    + " if every kernel it runs were launched" + (statically == null || statically.stack() == 0 ? ""
                            : "; worst " + kernel(statically, 90) + ", " + Figures.grouped(statically.stack())
                                    + " B per thread") + ".</div>";
        }
        return "<div><span class=\"label\">Launched</span> " + Html.bytesExact(launched.reservationBytes())
                + " for the launched kernels alone (not judged: the launch log is incomplete).</div>";
    }

    private static String kernel(KernelRow row, int width) {
        return Html.kernelName(SvgBarChart.abbreviate(row.displayName(), width), row.name()) + " [" + e(row.archLabel())
                + "] in <span class=\"lib\">" + e(row.library()) + "</span>";
    }

    /** The device-table cell of the other figure: the static bound (launched headline) or the launched figure. */
    static String otherFigureCell(DeviceReport device) {
        if (device.skipped() || device.launched() == null) {
            return "<td class=\"num\" data-sort=\"-1\">\u2013</td>";
        }
        long other = device.launchedHeadline() ? device.staticReservationBytes() : device.launched().reservationBytes();
        return "<td class=\"num\" data-sort=\"" + other + "\">" + Html.bytes(other) + "</td>";
    }

    /** Facts of a device's section: the other figure with its worst kernel. */
    static String[][] facts(DeviceReport device) {
        LaunchedDeviceReport launched = device.launched();
        if (launched.headline()) {
            KernelRow statically = launched.staticWorstKernel();
            long limit = statically == null ? 0 : Reservation.stackLimitFor(statically.stack());
            return new String[][] {{"Static bound", Html.bytesExact(device.staticReservationBytes()) + " = "
                    + Figures.grouped(device.maxResidentThreads()) + " threads \u00d7 " + Figures.grouped(limit)
                    + " B: every kernel this device runs, launched or not (not judged)" + (statically == null
                            || statically.stack() == 0 ? "" : "<div class=\"sub\">static worst kernel "
                                    + kernel(statically, 120) + " \u00b7 STACK " + Figures.grouped(statically.stack())
                                    + " B</div>")}};
        }
        KernelRow worst = launched.worstKernel();
        return new String[][] {{"Launched reservation", Html.bytesExact(launched.reservationBytes())
                + " for the launched kernels alone (not judged: the launch log is incomplete)" + (worst == null
                        || worst.stack() == 0 ? "" : "<div class=\"sub\">worst launched kernel " + kernel(worst, 120)
                                + " \u00b7 STACK " + Figures.grouped(worst.stack()) + " B</div>")}};
    }

    /** The per-device table of launched kernels: frame, static and dynamic shared memory, attributions. */
    static void kernelTable(StringBuilder out, DeviceReport device) {
        List<LaunchedKernelRow> rows = device.launched().kernels();
        out.append("<h3>Launched kernels: ").append(Figures.grouped(rows.size())).append("</h3>\n");
        if (rows.isEmpty()) {
            out.append("<p class=\"sub\">None of the launched kernels has an image this device runs.</p>\n");
            return;
        }
        out.append("<p class=\"sub\">The image this device runs for each kernel of the launch log. Shared per block = ")
                .append("static SHARED + the largest dynamic shared memory a launch asked for.</p>\n")
                .append("<div class=\"scroll\"><table class=\"launched sortable\"><thead><tr><th>Kernel</th>")
                .append("<th>Library</th><th>Arch</th><th class=\"num\">STACK</th><th class=\"num\">SHARED</th>")
                .append("<th class=\"num\" title=\"largest dynamic shared memory requested at launch\">Max dynamic ")
                .append("shared</th><th class=\"num\">Shared per block</th><th class=\"num\">REG</th>")
                .append("<th>Launched under</th></tr></thead>\n<tbody>\n");
        for (LaunchedKernelRow row : rows) {
            KernelRow k = row.kernel();
            out.append("<tr><td class=\"kname\">").append(Html.kernelName(k.displayName(), k.name()))
                    .append("</td><td class=\"lib\">").append(e(k.library()))
                    .append(row.frameSource() == null ? "" : row.driverReported()
                            ? " <span class=\"tag driver\" title=\"the frame the driver reported for the launched "
                                    + "function (launch log)\">driver-reported</span>"
                            : " <span class=\"tag static\" title=\"the image the static rules chose\">static</span>")
                    .append("</td><td>").append(e(k.archLabel()))
                    .append("</td><td class=\"num").append(k.stackUnknown() ? " unknown" : "").append("\">")
                    .append(k.stackLabel()).append("</td><td class=\"num\">").append(Figures.grouped(k.shared()))
                    .append("</td><td class=\"num\"").append(row.maxDynamicShared() == null ? " data-sort=\"-1\">"
                            + "<span class=\"sub\">not logged</span>" : ">" + Figures.grouped(row.maxDynamicShared()))
                    .append("</td><td class=\"num\">").append(Figures.grouped(row.sharedPerBlock()))
                    .append("</td><td class=\"num\">").append(k.registers()).append("</td><td class=\"attr\">")
                    .append(attributions(row.attributions())).append("</td></tr>\n");
        }
        out.append("</tbody></table></div>\n");
    }

    static String attributions(List<String> attributions) {
        if (attributions.isEmpty()) {
            return "<span class=\"sub\">\u2013</span>";
        }
        StringBuilder text = new StringBuilder();
        for (String attribution : attributions) {
            text.append(text.length() == 0 ? "" : " ").append("<span class=\"tag\">").append(e(attribution))
                    .append("</span>");
        }
        return text.toString();
    }

    /** The launch log's section: where the log came from, unmatched kernels, libraries found through it. */
    static void section(StringBuilder out, LaunchedRunReport run) {
        out.append("<section id=\"launched\">\n<h2>Launch log</h2>\n<dl class=\"facts\">\n");
        fact(out, "Log", "<span class=\"lib path\">" + e(run.log()) + "</span>" + (run.format().isEmpty() ? ""
                : " <span class=\"sub\">(" + e(run.format()) + ")</span>"));
        fact(out, "Status", run.headline() ? e(run.status()) + ": complete, the launched figures are the headline"
                : "<span class=\"warn\">" + e(run.status()) + ": incomplete, the static bound stays the headline</span>");
        long withDriverFrame = run.unmatchedKernels().stream().filter(kernel -> kernel.driver() != null
                && kernel.driver().localBytes() != null).count();
        fact(out, "Kernels", Figures.grouped(run.kernels()) + " launched: " + Figures.grouped(run.matched())
                + " found in the scanned libraries, " + Figures.grouped(run.unmatched()) + " in none" + (withDriverFrame == 0
                        ? " (frames not counted)" : " (" + Figures.grouped(withDriverFrame) + " counted with the "
                                + "driver-reported frame, " + Figures.grouped(run.unmatched() - withDriverFrame)
                                + " not counted)"));
        fact(out, "Library log", run.libraryLog() == null ? "none"
                : "<span class=\"lib path\">" + e(run.libraryLog()) + "</span> <span class=\"sub\">("
                        + Figures.grouped(run.librariesLoaded()) + " libraries loaded, "
                        + Figures.grouped(run.notOnThisMachine().size()) + " not on this machine)</span>");
        if (!run.foundThroughLibraryLog().isEmpty()) {
            StringBuilder list = new StringBuilder();
            run.foundThroughLibraryLog().forEach(path -> list.append("<div class=\"lib path\">").append(e(path))
                    .append("</div>"));
            fact(out, "Found through the library log", list + "<div class=\"sub\">outside the configured file sets; "
                    + "scanned because the run loaded them</div>");
        }
        out.append("</dl>\n");
        if (!run.unmatchedKernels().isEmpty()) {
            out.append("<h3>Launched kernels in no scanned library: ").append(Figures.grouped(
                    run.unmatchedKernels().size())).append("</h3>\n<p class=\"sub\">")
                    .append(withDriverFrame == 0 ? "Their frames are not in any figure of this page: add the libraries "
                            + "that hold them to the file sets." : "Those with a driver-reported frame are counted with "
                            + "it on the devices that run the image the driver loaded; the others are in no figure: add "
                            + "the libraries that hold them to the file sets.")
                    .append("</p>\n")
                    .append("<div class=\"scroll\"><table class=\"launched unmatched sortable\"><thead><tr>")
                    .append("<th>Kernel</th><th class=\"num\">Max dynamic shared</th>")
                    .append(withDriverFrame == 0 ? "" : "<th class=\"num\">Driver-reported frame</th>")
                    .append("<th>Launched under</th></tr>")
                    .append("</thead>\n<tbody>\n");
            for (LaunchEntry kernel : run.unmatchedKernels()) {
                out.append("<tr><td class=\"kname\">").append(Html.kernelName(SvgBarChart.abbreviate(
                        kernel.displayName(), NAME_WIDTH), kernel.name()))
                        .append("</td><td class=\"num\"").append(kernel.maxDynamicShared() == null
                                ? " data-sort=\"-1\"><span class=\"sub\">not logged</span>"
                                : ">" + Figures.grouped(kernel.maxDynamicShared()))
                        .append(withDriverFrame == 0 ? "" : "</td><td class=\"num\">" + (kernel.driver() == null
                                || kernel.driver().localBytes() == null ? "<span class=\"sub\">unknown</span>"
                                : Figures.grouped(kernel.driver().localBytes()) + (kernel.driver().arch() == null ? ""
                                        : " <span class=\"sub\">" + e(kernel.driver().arch()) + "</span>")))
                        .append("</td><td class=\"attr\">").append(attributions(kernel.attributions()))
                        .append("</td></tr>\n");
            }
            out.append("</tbody></table></div>\n");
        }
        out.append("</section>\n");
    }

    private static void fact(StringBuilder out, String term, String html) {
        out.append("<dt>").append(e(term)).append("</dt><dd>").append(html).append("</dd>\n");
    }
}
