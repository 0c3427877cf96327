package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.Tone;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The reservation chart, the one drawing of both pages: a horizontal bar per device, its reservation on a scale shared
 * by all rows, its budget as a dashed mark, and a caption with its share of the budget and of the device's memory.
 * Deterministic: the same devices give the same bytes. What the two pages draw differently is a {@link Style}: the
 * standalone page inlines it, styled by its CSS ({@link Style#PAGE}: scale ticks, a thin bar of the reservation against
 * the whole memory, skipped devices, hover titles); the site page shows it as an image, a {@code data:} URI of a
 * self-contained SVG document with its colours inline ({@link Style#SITE}: checked devices only, the scale's end
 * labelled).
 */
public final class SvgBarChart {

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;
    private static final long[] STEPS = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000};

    private SvgBarChart() {
    }

    /** What an element is, for its paint. */
    public enum Role {
        GRID, TICK, NAME, SUB, TRACK, BAR, BUDGET, MEMORY_TRACK, MEMORY, CAPTION, NOTE
    }

    /** How elements are painted: the attributes written before and after an element's coordinates. */
    public interface Paint {
        String before(Role role, Tone tone);

        String after(Role role, Tone tone);
    }

    /** Class names that the page's style sheet paints ({@code class="bar"}; a row's tone is its group's class). */
    public static final Paint CLASSES = new Paint() {
        @Override
        public String before(Role role, Tone tone) {
            String name = switch (role) {
                case NAME -> "dname";
                case SUB -> "dsub";
                case MEMORY_TRACK -> "memtrack";
                case MEMORY -> "mem";
                default -> role.name().toLowerCase(Locale.ROOT);
            };
            return " class=\"" + name + "\"";
        }

        @Override
        public String after(Role role, Tone tone) {
            return "";
        }
    };

    /** Colours inline, for a document no style sheet reaches. */
    public static final Paint COLOURS = new Paint() {
        @Override
        public String before(Role role, Tone tone) {
            return "";
        }

        @Override
        public String after(Role role, Tone tone) {
            return switch (role) {
                case TICK -> " fill=\"#555\"";
                case TRACK -> " fill=\"#f0f0f0\"";
                case BAR -> " fill=\"" + (tone == Tone.FAIL ? "#c62828" : tone == Tone.NEAR ? "#ef8f00" : "#2e7d32")
                        + "\"";
                case BUDGET -> " stroke=\"#222\" stroke-width=\"2\" stroke-dasharray=\"4 2\"";
                default -> "";
            };
        }
    };

    /**
     * How a page draws the chart.
     *
     * @param root          the opening {@code svg} tag, {@code %1$d} the width and {@code %2$d} the height
     * @param title         the {@code title} element
     * @param separator     written after each element ("" inline, a line break in a document)
     * @param width         the chart's width
     * @param barX          where the bars start
     * @param barWidth      the bars' full width (the scale's end)
     * @param top           the height above the first row (the scale's labels)
     * @param rowHeight     one device's height
     * @param bottom        the height below the last row
     * @param barY          the bar's offset in its row
     * @param barHeight     the bar's height
     * @param corner        the bars' corner radius, 0 for square corners
     * @param budgetBottom  the budget mark's lower end in its row (it starts 1 px below the row's top)
     * @param axisY         the baseline of the scale's labels
     * @param ticks         round ticks with grid lines across the rows, the scale rounded up to the last tick; else
     *                      the scale is the largest figure and only its two ends are labelled
     * @param skippedRows   skipped devices get a row with their reason (else they are left out)
     * @param subLabels     a second line under the device name: compute capability and threads
     * @param memoryBar     a thin bar of the reservation against the whole device memory, on the device's own scale
     * @param tooltips      hover titles: the whole device name, the exact reservation and budget
     * @param nameWidth     device names are cut to this many characters, 0 for whole names
     * @param namesRight    names end right before the bars (else they start at the left edge)
     * @param nameY         the name's baseline in its row
     * @param decimals      coordinates with one decimal and a minimum visible width for a non-zero figure; else
     *                      whole pixels
     * @param captionX      the caption's x
     * @param captionY      the caption's baseline in its row
     * @param caption       the caption of a checked device
     * @param paint         class names or colours
     * @param escape        escapes text for the output
     */
    public record Style(String root, String title, String separator, int width, int barX, int barWidth, int top,
            int rowHeight, int bottom, int barY, int barHeight, int corner, int budgetBottom, int axisY, boolean ticks,
            boolean skippedRows, boolean subLabels, boolean memoryBar, boolean tooltips, int nameWidth,
            boolean namesRight, int nameY, boolean decimals, int captionX, int captionY, Function<DeviceReport, String> caption,
            Paint paint, UnaryOperator<String> escape) {

        /** The standalone page: inline SVG in the page, painted by its style sheet. */
        public static final Style PAGE = new Style("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
                + "viewBox=\"0 0 %1$d %2$d\" width=\"%1$d\" height=\"%2$d\" role=\"img\" aria-labelledby=\"chart-title\">",
                "<title id=\"chart-title\">Stack reservation per device against its budget (dashed line) and its "
                        + "memory (thin bar)</title>", "", 960, 220, 720, 28, 70, 6, 6, 20, 3, 31, 18, true, true,
                true, true, true, 28, false, 18, true, 220, 52, SvgBarChart::pageCaption, CLASSES, Html::escape);

        /** The site page: a self-contained SVG document shown as an image, colours inline. */
        public static final Style SITE = new Style("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1$d\" "
                + "height=\"%2$d\" viewBox=\"0 0 %1$d %2$d\" font-family=\"sans-serif\" font-size=\"12\">",
                "<title>Stack reservation per device against its budget</title>", "\n", 900, 150, 420, 26, 30, 8, 4,
                18, 0, 25, 14, false, false, false, false, false, 0, true, 17, false, 578, 17, SvgBarChart::siteCaption,
                COLOURS, SvgBarChart::escapeXml);
    }

    /** The devices a style draws a row for. */
    public static List<DeviceReport> rows(List<DeviceReport> devices, Style style) {
        return style.skippedRows() ? devices : devices.stream().filter(device -> !device.skipped()).toList();
    }

    /** The chart, or null when the style leaves every device out. */
    public static String render(List<DeviceReport> devices, Style style) {
        List<DeviceReport> rows = rows(devices, style);
        if (rows.isEmpty() && !style.skippedRows()) {
            return null;
        }
        long max = 1;
        for (DeviceReport device : rows) {
            max = Math.max(max, device.reservationBytes());
            if (device.budgetBytes() != null) {
                max = Math.max(max, device.budgetBytes());
            }
        }
        int height = style.top() + style.rowHeight() * rows.size() + style.bottom();
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, style.root(), style.width(), height)).append(style.separator());
        svg.append(style.title()).append(style.separator());
        long scale = style.ticks() ? ticks(svg, style, max, height) : ends(svg, style, max);
        int y = style.top();
        for (DeviceReport device : rows) {
            row(svg, style, device, y, scale);
            y += style.rowHeight();
        }
        svg.append("</svg>").append(style.separator());
        return svg.toString();
    }

    /** The chart as a {@code data:image/svg+xml;base64,...} URI, or null when the style leaves every device out. */
    public static String dataUri(List<DeviceReport> devices, Style style) {
        String svg = render(devices, style);
        return svg == null ? null : "data:image/svg+xml;base64,"
                + Base64.getEncoder().encodeToString(svg.getBytes(StandardCharsets.UTF_8));
    }

    /** Round ticks (1, 2, 5, ... KiB, MiB or GiB) with grid lines; returns the scale: the last tick. */
    private static long ticks(StringBuilder svg, Style style, long max, int height) {
        long unit = max >= 4 * GIB ? GIB : max >= 4 * MIB ? MIB : 1024;
        String unitName = unit == GIB ? "GiB" : unit == MIB ? "MiB" : "KiB";
        long step = unit;
        for (long candidate : STEPS) {
            step = candidate * unit;
            if (max / step <= 6) {
                break;
            }
        }
        long scale = (max + step - 1) / step * step;
        for (long tick = 0; tick <= scale; tick += step) {
            String x = num(style, style.barX() + style.barWidth() * (double) tick / scale);
            svg.append("<line").append(style.paint().before(Role.GRID, null)).append(" x1=\"").append(x)
                    .append("\" y1=\"").append(style.top() - 6).append("\" x2=\"").append(x).append("\" y2=\"")
                    .append(height - 4).append('"').append(style.paint().after(Role.GRID, null)).append("/>")
                    .append(style.separator());
            label(svg, style, x, tick == 0 ? "start" : tick + step > scale ? "end" : "middle",
                    tick / unit + (tick == 0 ? "" : " " + unitName));
        }
        return scale;
    }

    /** The scale is the largest figure: "0" at the bars' start, the figure at their end. */
    private static long ends(StringBuilder svg, Style style, long max) {
        label(svg, style, num(style, style.barX()), null, "0");
        label(svg, style, num(style, style.barX() + style.barWidth()), "end", style.escape().apply(Figures.human(max)));
        return max;
    }

    private static void label(StringBuilder svg, Style style, String x, String anchor, String text) {
        svg.append("<text").append(style.paint().before(Role.TICK, null)).append(" x=\"").append(x).append("\" y=\"")
                .append(style.axisY()).append('"').append(style.paint().after(Role.TICK, null))
                .append(anchor == null ? "" : " text-anchor=\"" + anchor + "\"").append('>').append(text)
                .append("</text>").append(style.separator());
    }

    private static void row(StringBuilder svg, Style style, DeviceReport device, int y, long scale) {
        Tone tone = Tone.of(device);
        Paint paint = style.paint();
        String end = style.separator();
        UnaryOperator<String> escape = style.escape();
        boolean group = paint == CLASSES; // the row's group carries its tone for the style sheet
        if (group) {
            svg.append("<g class=\"device ").append(tone.id()).append("\">").append(end);
        }
        String name = style.nameWidth() > 0 ? abbreviate(device.name(), style.nameWidth()) : device.name();
        svg.append("<text").append(paint.before(Role.NAME, tone)).append(" x=\"")
                .append(style.namesRight() ? style.barX() - 8 : 0).append("\" y=\"").append(y + style.nameY()).append('"').append(paint.after(Role.NAME, tone))
                .append(style.namesRight() ? " text-anchor=\"end\"" : "").append('>').append(escape.apply(name))
                .append(style.tooltips() ? "<title>" + escape.apply(device.name()) + "</title>" : "").append("</text>")
                .append(end);
        if (style.subLabels()) {
            svg.append("<text").append(paint.before(Role.SUB, tone)).append(" x=\"0\" y=\"").append(y + 36).append('"')
                    .append(paint.after(Role.SUB, tone)).append(">CC ").append(escape.apply(device.computeCapability()))
                    .append(" \u00b7 ").append(Figures.grouped(device.maxResidentThreads())).append(" threads</text>")
                    .append(end);
        }
        rect(svg, style, Role.TRACK, tone, y + style.barY(), String.valueOf(style.barWidth()), style.barHeight(),
                null);
        if (device.skipped()) {
            svg.append("<text").append(paint.before(Role.NOTE, tone)).append(" x=\"").append(style.barX() + 8)
                    .append("\" y=\"").append(y + 21).append('"').append(paint.after(Role.NOTE, tone))
                    .append(">skipped: ").append(escape.apply(abbreviate(device.skipReason(), 95))).append("</text>")
                    .append(end);
        } else {
            double width = style.barWidth() * (double) device.reservationBytes() / scale;
            if (style.decimals() && device.reservationBytes() > 0) {
                width = Math.max(width, 2);
            }
            rect(svg, style, Role.BAR, tone, y + style.barY(), num(style, width), style.barHeight(),
                    escape.apply(device.name()) + ": reservation " + Figures.bytes(device.reservationBytes()));
            if (device.budgetBytes() != null) {
                String x = num(style, style.barX() + style.barWidth() * (double) device.budgetBytes() / scale);
                svg.append("<line").append(paint.before(Role.BUDGET, tone)).append(" x1=\"").append(x)
                        .append("\" y1=\"").append(y + 1).append("\" x2=\"").append(x).append("\" y2=\"")
                        .append(y + style.budgetBottom()).append('"').append(paint.after(Role.BUDGET, tone))
                        .append(style.tooltips() ? "><title>budget " + Figures.bytes(device.budgetBytes())
                                + "</title></line>" : "/>").append(end);
            }
            if (style.memoryBar() && device.memoryBytes() != null) {
                memoryBar(svg, style, device, tone, y);
            }
            svg.append("<text").append(paint.before(Role.CAPTION, tone)).append(" x=\"").append(style.captionX())
                    .append("\" y=\"").append(y + style.captionY()).append('"').append(paint.after(Role.CAPTION, tone))
                    .append('>').append(escape.apply(style.caption().apply(device))).append("</text>").append(end);
        }
        if (group) {
            svg.append("</g>").append(end);
        }
    }

    /** The reservation against the whole device memory, on the device's own scale. */
    private static void memoryBar(StringBuilder svg, Style style, DeviceReport device, Tone tone, int y) {
        double width = style.barWidth() * (double) device.reservationBytes() / device.memoryBytes();
        if (device.reservationBytes() > 0) {
            width = Math.max(width, 1.5);
        }
        int memoryY = y + style.barY() + style.barHeight() + 4;
        rect(svg, style, Role.MEMORY_TRACK, tone, memoryY, String.valueOf(style.barWidth()), 5,
                "device memory " + Figures.bytes(device.memoryBytes()));
        rect(svg, style, Role.MEMORY, tone, memoryY, num(style, Math.min(width, style.barWidth())), 5, null);
    }

    private static void rect(StringBuilder svg, Style style, Role role, Tone tone, int y, String width, int height,
            String tooltip) {
        boolean corner = style.corner() > 0 && (role == Role.TRACK || role == Role.BAR);
        svg.append("<rect").append(style.paint().before(role, tone)).append(" x=\"").append(style.barX())
                .append("\" y=\"").append(y).append("\" width=\"").append(width).append("\" height=\"").append(height)
                .append('"').append(corner ? " rx=\"" + style.corner() + "\"" : "").append(style.paint().after(role, tone))
                .append(style.tooltips() && tooltip != null ? "><title>" + tooltip + "</title></rect>" : "/>")
                .append(style.separator());
    }

    /** The standalone page's caption: {@code 2.58 GiB reserved · 64.5% of the 4.00 GiB budget · 1.8% of 141 GiB memory}. */
    static String pageCaption(DeviceReport device) {
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
        return caption.toString();
    }

    /** The site page's caption: {@code 2.58 GiB: 64.5% of budget, 1.8% of memory}. */
    static String siteCaption(DeviceReport device) {
        StringBuilder note = new StringBuilder(Figures.human(device.reservationBytes()));
        if (device.budgetBytes() != null) {
            note.append(": ").append(device.percentOfBudget()).append(" of budget");
        }
        if (device.memoryBytes() != null) {
            note.append(device.budgetBytes() != null ? ", " : ": ").append(device.percentOfMemory()).append(" of memory");
        }
        return note.toString();
    }

    /** XML text escaping for a document that is no HTML: {@code & < > "}. */
    static String escapeXml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String num(Style style, double value) {
        return style.decimals() ? String.format(Locale.ROOT, "%.1f", value) : String.valueOf(Math.round(value));
    }

    static String abbreviate(String text, int width) {
        if (text == null) {
            return "";
        }
        return text.length() <= width ? text : text.substring(0, width - 1) + "\u2026";
    }
}
