package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.Verdict;
import java.util.List;
import java.util.Locale;

/**
 * A horizontal bar per device: its reservation on a scale shared by all devices, with its budget marked, and under it
 * a thin bar of the reservation against the device's whole memory. Inline SVG, no script, fixed coordinates (so the
 * output is deterministic).
 */
final class SvgBarChart {

    static final int WIDTH = 960;
    private static final int LABEL_WIDTH = 210;
    private static final int BAR_X = LABEL_WIDTH + 10;
    private static final int BAR_WIDTH = WIDTH - BAR_X - 20;
    private static final int AXIS_HEIGHT = 28;
    private static final int ROW_HEIGHT = 70;
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;
    private static final long[] STEPS = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000};

    private SvgBarChart() {
    }

    /** How a device's bar is coloured. */
    static String tone(DeviceReport device, int nearPercent) {
        if (device.skipped()) {
            return "skipped";
        }
        if (device.status() == Verdict.FAIL) {
            return "fail";
        }
        return device.nearOrOverBudget(nearPercent) ? "near" : "pass";
    }

    static String render(List<DeviceReport> devices, int nearPercent) {
        long max = 1;
        for (DeviceReport device : devices) {
            max = Math.max(max, device.reservationBytes());
            if (device.budgetBytes() != null) {
                max = Math.max(max, device.budgetBytes());
            }
        }
        long unit = max >= 4 * GIB ? GIB : max >= 4 * MIB ? MIB : 1024;
        String unitName = unit == GIB ? "GiB" : unit == MIB ? "MiB" : "KiB";
        long step = unit;
        for (long candidate : STEPS) {
            step = candidate * unit;
            if (max / step <= 6) {
                break;
            }
        }
        long scaleMax = (max + step - 1) / step * step;
        int height = AXIS_HEIGHT + ROW_HEIGHT * devices.size() + 6;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(height).append("\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" role=\"img\" aria-labelledby=\"chart-title\">");
        svg.append("<title id=\"chart-title\">Stack reservation per device against its budget (dashed line) and its "
                + "memory (thin bar)</title>");
        for (long tick = 0; tick <= scaleMax; tick += step) {
            double x = BAR_X + BAR_WIDTH * (double) tick / scaleMax;
            svg.append("<line class=\"grid\" x1=\"").append(num(x)).append("\" y1=\"").append(AXIS_HEIGHT - 6)
                    .append("\" x2=\"").append(num(x)).append("\" y2=\"").append(height - 4).append("\"/>");
            svg.append("<text class=\"tick\" x=\"").append(num(x)).append("\" y=\"").append(AXIS_HEIGHT - 10)
                    .append("\" text-anchor=\"").append(tick == 0 ? "start" : tick + step > scaleMax ? "end" : "middle")
                    .append("\">").append(tick / unit).append(tick == 0 ? "" : " " + unitName)
                    .append("</text>");
        }
        int y = AXIS_HEIGHT;
        for (DeviceReport device : devices) {
            row(svg, device, y, scaleMax, nearPercent);
            y += ROW_HEIGHT;
        }
        svg.append("</svg>");
        return svg.toString();
    }

    private static void row(StringBuilder svg, DeviceReport device, int y, long scaleMax, int nearPercent) {
        String tone = tone(device, nearPercent);
        svg.append("<g class=\"device ").append(tone).append("\">");
        svg.append("<text class=\"dname\" x=\"0\" y=\"").append(y + 18).append("\">")
                .append(Html.escape(abbreviate(device.name(), 28))).append("<title>").append(Html.escape(device.name()))
                .append("</title></text>");
        svg.append("<text class=\"dsub\" x=\"0\" y=\"").append(y + 36).append("\">CC ")
                .append(Html.escape(device.computeCapability())).append(" \u00b7 ")
                .append(Figures.grouped(device.maxResidentThreads())).append(" threads</text>");
        svg.append("<rect class=\"track\" x=\"").append(BAR_X).append("\" y=\"").append(y + 6).append("\" width=\"")
                .append(BAR_WIDTH).append("\" height=\"20\" rx=\"3\"/>");
        if (device.skipped()) {
            svg.append("<text class=\"note\" x=\"").append(BAR_X + 8).append("\" y=\"").append(y + 21)
                    .append("\">skipped: ").append(Html.escape(abbreviate(device.skipReason(), 95))).append("</text>");
            svg.append("</g>");
            return;
        }
        double width = BAR_WIDTH * (double) device.reservationBytes() / scaleMax;
        if (device.reservationBytes() > 0) {
            width = Math.max(width, 2);
        }
        svg.append("<rect class=\"bar\" x=\"").append(BAR_X).append("\" y=\"").append(y + 6).append("\" width=\"")
                .append(num(width)).append("\" height=\"20\" rx=\"3\"><title>").append(Html.escape(device.name()))
                .append(": reservation ").append(Figures.bytes(device.reservationBytes())).append("</title></rect>");
        if (device.budgetBytes() != null) {
            double x = BAR_X + BAR_WIDTH * (double) device.budgetBytes() / scaleMax;
            svg.append("<line class=\"budget\" x1=\"").append(num(x)).append("\" y1=\"").append(y + 1)
                    .append("\" x2=\"").append(num(x)).append("\" y2=\"").append(y + 31).append("\"><title>budget ")
                    .append(Figures.bytes(device.budgetBytes())).append("</title></line>");
        }
        // the reservation against the whole device memory, on the device's own scale
        if (device.memoryBytes() != null) {
            double memoryWidth = BAR_WIDTH * (double) device.reservationBytes() / device.memoryBytes();
            if (device.reservationBytes() > 0) {
                memoryWidth = Math.max(memoryWidth, 1.5);
            }
            svg.append("<rect class=\"memtrack\" x=\"").append(BAR_X).append("\" y=\"").append(y + 30)
                    .append("\" width=\"").append(BAR_WIDTH).append("\" height=\"5\"><title>device memory ")
                    .append(Figures.bytes(device.memoryBytes())).append("</title></rect>");
            svg.append("<rect class=\"mem\" x=\"").append(BAR_X).append("\" y=\"").append(y + 30).append("\" width=\"")
                    .append(num(Math.min(memoryWidth, BAR_WIDTH))).append("\" height=\"5\"/>");
        }
        StringBuilder caption = new StringBuilder(Figures.human(device.reservationBytes())).append(" reserved");
        if (device.budgetBytes() != null) {
            caption.append(" \u00b7 ").append(device.percentOfBudget()).append(" of the ")
                    .append(Figures.human(device.budgetBytes())).append(" budget");
            if (device.headroomBytes() < 0) {
                caption.append(" (over by ").append(Figures.human(-device.headroomBytes())).append(')');
            }
        } else {
            caption.append(" \u00b7 no budget");
        }
        if (device.memoryBytes() != null) {
            caption.append(" \u00b7 ").append(device.percentOfMemory()).append(" of ")
                    .append(Figures.human(device.memoryBytes())).append(" memory");
        }
        svg.append("<text class=\"caption\" x=\"").append(BAR_X).append("\" y=\"").append(y + 52).append("\">")
                .append(Html.escape(caption.toString())).append("</text>");
        svg.append("</g>");
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    static String abbreviate(String text, int width) {
        if (text == null) {
            return "";
        }
        return text.length() <= width ? text : text.substring(0, width - 1) + "\u2026";
    }
}
