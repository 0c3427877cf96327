package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The site report's horizontal bar chart as a self-contained SVG document: one row per device that was checked, its
 * reservation as a bar on a scale shared by all rows, its budget as a dashed mark, and on the right the reservation as
 * a share of the budget and of the device's memory (device memory is 20 to 100 times the reservation, so it is given
 * as a figure rather than drawn on the same scale).
 *
 * <p>The site page shows it through Doxia's figure events as an {@code <img>} with a {@code data:} URI
 * ({@link #dataUri}): no raw HTML in the sink, no extra file next to the page, no network request, and any skin can
 * place it. Deterministic: the same devices give the same bytes.
 */
final class ReservationChartSvg {

    private static final int LABEL_WIDTH = 150;
    private static final int BAR_WIDTH = 420;
    private static final int NOTE_WIDTH = 330;
    private static final int ROW_HEIGHT = 30;
    private static final int TOP = 26;

    private ReservationChartSvg() {
    }

    /** The devices the chart draws: those that were checked (skipped devices have no figure). */
    static List<DeviceReport> charted(List<DeviceReport> devices) {
        return devices.stream().filter(device -> !device.skipped()).toList();
    }

    /** The SVG document, or null when no device was checked. */
    static String svg(List<DeviceReport> devices) {
        List<DeviceReport> rows = charted(devices);
        if (rows.isEmpty()) {
            return null;
        }
        long scale = 1;
        for (DeviceReport device : rows) {
            scale = Math.max(scale, device.reservationBytes());
            if (device.budgetBytes() != null) {
                scale = Math.max(scale, device.budgetBytes());
            }
        }
        int width = LABEL_WIDTH + BAR_WIDTH + NOTE_WIDTH;
        int height = TOP + rows.size() * ROW_HEIGHT + 8;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.append("<title>Stack reservation per device against its budget</title>\n");
        svg.append("<text x=\"").append(LABEL_WIDTH).append("\" y=\"14\" fill=\"#555\">0</text>\n");
        svg.append("<text x=\"").append(LABEL_WIDTH + BAR_WIDTH).append("\" y=\"14\" fill=\"#555\" text-anchor=\"end\">")
                .append(escape(Figures.human(scale))).append("</text>\n");
        int y = TOP;
        for (DeviceReport device : rows) {
            int barWidth = scaled(device.reservationBytes(), scale);
            svg.append("<text x=\"").append(LABEL_WIDTH - 8).append("\" y=\"").append(y + 17)
                    .append("\" text-anchor=\"end\">").append(escape(device.name())).append("</text>\n");
            svg.append("<rect x=\"").append(LABEL_WIDTH).append("\" y=\"").append(y + 4).append("\" width=\"")
                    .append(BAR_WIDTH).append("\" height=\"18\" fill=\"#f0f0f0\"/>\n");
            svg.append("<rect x=\"").append(LABEL_WIDTH).append("\" y=\"").append(y + 4).append("\" width=\"")
                    .append(barWidth).append("\" height=\"18\" fill=\"").append(color(device)).append("\"/>\n");
            if (device.budgetBytes() != null) {
                int mark = LABEL_WIDTH + scaled(device.budgetBytes(), scale);
                svg.append("<line x1=\"").append(mark).append("\" y1=\"").append(y + 1).append("\" x2=\"").append(mark)
                        .append("\" y2=\"").append(y + 25)
                        .append("\" stroke=\"#222\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n");
            }
            svg.append("<text x=\"").append(LABEL_WIDTH + BAR_WIDTH + 8).append("\" y=\"").append(y + 17).append("\">")
                    .append(escape(note(device))).append("</text>\n");
            y += ROW_HEIGHT;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** The SVG as a {@code data:image/svg+xml;base64,...} URI, or null when no device was checked. */
    static String dataUri(List<DeviceReport> devices) {
        String svg = svg(devices);
        return svg == null ? null : "data:image/svg+xml;base64,"
                + Base64.getEncoder().encodeToString(svg.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code 2.58 GiB: 64.5% of budget, 1.8% of memory}. */
    static String note(DeviceReport device) {
        StringBuilder note = new StringBuilder(Figures.human(device.reservationBytes()));
        if (device.budgetBytes() != null) {
            note.append(": ").append(device.percentOfBudget()).append(" of budget");
        }
        if (device.memoryBytes() != null) {
            note.append(device.budgetBytes() != null ? ", " : ": ").append(device.percentOfMemory()).append(" of memory");
        }
        return note.toString();
    }

    private static int scaled(long bytes, long scale) {
        return (int) Math.round((double) bytes * BAR_WIDTH / scale);
    }

    private static String color(DeviceReport device) {
        if (device.status() == Verdict.FAIL) {
            return "#c62828";
        }
        return device.nearOrOverBudget(80) ? "#ef8f00" : "#2e7d32";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
