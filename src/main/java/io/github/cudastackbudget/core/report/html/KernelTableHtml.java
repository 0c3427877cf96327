package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.KernelRow;
import java.util.List;

/**
 * A sortable, filterable kernel table: the first rows written here (readable without the script), page.js renders
 * the rest from the compact data ({@link KernelData}) when the user sorts, filters or asks for more.
 */
final class KernelTableHtml {

    /** Rows one click on "Show more" adds (page.js uses the same step). */
    static final int MORE_ROWS = 250;

    private KernelTableHtml() {
    }

    /** A sortable, filterable table: the first rows written here, the script renders the rest from the data. */
    static void render(StringBuilder out, String source, String label, List<KernelRow> kernels, int rows,
            String what) {
        int shown = Math.min(rows, kernels.size());
        String escapedLabel = Html.escape(label);
        append(out, "<div class=\"ktable\" data-source=\"", source, "\" data-rows=\"", String.valueOf(rows), "\">\n",
                "<div class=\"controls\"><input type=\"search\" class=\"filter\" placeholder=\"Filter by kernel, ",
                "library or arch\" aria-label=\"Filter ", escapedLabel, "\"> <span class=\"count\" data-what=\"",
                Html.escape(what), "\">Showing ", Figures.grouped(shown), " of ", Figures.grouped(kernels.size()), " ",
                Html.escape(what), "</span> <button type=\"button\" class=\"more\"",
                shown < kernels.size() ? "" : " hidden", ">Show ",
                Figures.grouped(Math.min(MORE_ROWS, kernels.size() - shown)), " more</button> ",
                "<button type=\"button\" class=\"reset\" hidden>Reset</button></div>\n",
                "<div class=\"scroll\"><table class=\"kernels\"><thead><tr>",
                "<th class=\"num\" data-key=\"rank\">#</th>",
                th("name", "Kernel", ""), th("library", "Library", ""), th("arch", "Arch", ""),
                th("stack", "STACK", "num", "descending"), th("local", "LOCAL", "num"), th("shared", "SHARED", "num"),
                th("reg", "REG", "num"), "</tr></thead>\n<tbody>\n");
        for (int i = 0; i < shown; i++) {
            KernelRow row = kernels.get(i);
            append(out, "<tr><td class=\"num\">", String.valueOf(i + 1), "</td><td class=\"kname\">",
                    Html.escape(row.displayName()), "</td><td class=\"lib\">", Html.escape(row.library()),
                    "</td><td>", Html.escape(row.archLabel()), "</td><td class=\"num", row.stackUnknown() ? " unknown" : "",
                    "\">", row.stackLabel(), "</td><td class=\"num\">", Figures.grouped(row.local()),
                    "</td><td class=\"num\">", Figures.grouped(row.shared()), "</td><td class=\"num\">",
                    String.valueOf(row.registers()), "</td></tr>\n");
        }
        append(out, "</tbody></table></div>\n</div>\n");
    }

    static String th(String key, String label, String type, String... sorted) {
        String aria = sorted.length > 0 ? " aria-sort=\"" + sorted[0] + "\"" : "";
        return "<th" + (type.isEmpty() ? "" : " class=\"" + type + "\"") + " data-key=\"" + key + "\"" + aria
                + "><button type=\"button\" title=\"Sort by " + label + "\">" + label + "</button></th>";
    }

    private static void append(StringBuilder out, String... parts) {
        for (String part : parts) {
            out.append(part);
        }
    }
}
