package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.BaselineReport;
import io.github.cudastackbudget.core.report.model.KernelRow;

/**
 * Issue 12: the standalone page's baseline section: per device the baseline's reservation, this check's, the change
 * (bytes and percent of the baseline's), the growth limit and its verdict, and the kernel behind the new figure (new
 * since the baseline, or its frame grew); the overall figure last. Written only when the check had a baseline.
 */
final class BaselineHtml {

    private BaselineHtml() {
    }

    static void section(StringBuilder out, BaselineReport baseline) {
        if (baseline == null) {
            return;
        }
        out.append("<section id=\"baseline\">\n<h2>Baseline</h2>\n<p class=\"meta\">Compared with ")
                .append(Html.escape(baseline.source())).append(".</p>\n")
                .append("<div class=\"scroll\"><table class=\"baseline\"><thead><tr><th>Device</th>")
                .append("<th class=\"num\">Baseline</th><th class=\"num\">Now</th><th class=\"num\">Change</th>")
                .append("<th>maxGrowth</th><th>Verdict</th><th>Kernel</th></tr></thead>\n<tbody>\n");
        baseline.devices().forEach(row -> row(out, row, false));
        if (baseline.overall() != null) {
            row(out, baseline.overall(), true);
        }
        out.append("</tbody></table></div>\n</section>\n");
    }

    private static void row(StringBuilder out, BaselineReport.Row row, boolean overall) {
        boolean failed = row.outcome() == GateCheck.Outcome.FAIL;
        out.append("<tr").append(failed ? " class=\"fail\"" : "").append("><td>")
                .append(overall ? "<b>overall</b> <span class=\"sub\">(the largest reservation)</span>"
                        : Html.escape(row.device()))
                .append("</td><td class=\"num\">").append(row.previousBytes() == null ? "\u2013"
                        : Html.bytes(row.previousBytes()))
                .append("</td><td class=\"num\">").append(row.currentBytes() == null ? "\u2013"
                        : Html.bytes(row.currentBytes()))
                .append("</td><td class=\"num\">");
        Long delta = row.deltaBytes();
        if (delta == null) {
            out.append("<span class=\"sub\">").append(Html.escape(row.note() == null ? "" : row.note()))
                    .append("</span>");
        } else {
            out.append(delta < 0 ? "\u2212" : "+").append(Html.bytes(Math.abs(delta))).append(" <span class=\"sub\">")
                    .append(Html.escape(row.deltaPercent())).append("</span>");
        }
        out.append("</td><td>").append(row.maxGrowth() == null ? "<span class=\"sub\">not gated</span>"
                : Html.escape(row.maxGrowth()) + " <span class=\"sub\">(+"
                        + Html.bytes(row.allowedGrowthBytes()) + ")</span>")
                .append("</td><td>").append(row.outcome() == null ? "\u2013" : "<span class=\"badge "
                        + (failed ? "fail" : "pass") + "\">" + row.outcome().name() + "</span>")
                .append("</td><td>");
        KernelRow kernel = row.kernel();
        if (kernel != null && delta != null && delta > 0) {
            out.append(Html.kernelName(SvgBarChart.abbreviate(kernel.displayName(), 80), kernel.name()))
                    .append(" <span class=\"sub\">[").append(Html.escape(kernel.archLabel())).append("] in ")
                    .append(Html.escape(kernel.library())).append(", ").append(Html.escape(change(row)))
                    .append("</span>");
        }
        out.append("</td></tr>\n");
    }

    /** What happened to the kernel by the baseline's kernel list. */
    static String change(BaselineReport.Row row) {
        String change = row.kernelChange() == null ? "" : row.kernelChange();
        return switch (change) {
            case "new" -> "new since the baseline";
            case "grew" -> "frame " + String.format(java.util.Locale.ROOT, "%,d", row.previousStack()) + " \u2192 "
                    + String.format(java.util.Locale.ROOT, "%,d", row.kernel().stack()) + " B";
            case "unchanged" -> "frame unchanged";
            case "shrank" -> "frame was " + String.format(java.util.Locale.ROOT, "%,d", row.previousStack()) + " B";
            default -> "";
        };
    }
}
