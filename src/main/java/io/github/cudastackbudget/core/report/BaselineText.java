package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.report.model.BaselineReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.KernelRow;
import java.util.ArrayList;
import java.util.List;

/** Issue 12: the text report's baseline section (old, new and delta per device, and the overall figure). */
final class BaselineText {

    private BaselineText() {
    }

    /** The section's lines, or none without a baseline. */
    static List<String> lines(BaselineReport baseline) {
        if (baseline == null) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("Baseline: " + baseline.source());
        baseline.devices().forEach(row -> lines.add("  " + row(row)));
        if (baseline.overall() != null) {
            lines.add("  " + row(baseline.overall()) + "  (the largest reservation of all devices)");
        }
        return lines;
    }

    /** {@code h200-141gb: 1.00 GiB (...) -> 1.25 GiB (...), +256.00 MiB (...) (+25.0%); maxGrowth 10% ...: FAIL}. */
    static String row(BaselineReport.Row row) {
        StringBuilder line = new StringBuilder(row.device()).append(": ")
                .append(row.previousBytes() == null ? "-" : Figures.bytes(row.previousBytes())).append(" -> ")
                .append(row.currentBytes() == null ? "-" : Figures.bytes(row.currentBytes()));
        if (row.note() != null) {
            return line.append(" (").append(row.note()).append(", not compared)").toString();
        }
        long delta = row.deltaBytes();
        line.append(", ").append(delta < 0 ? "-" : "+").append(Figures.bytes(Math.abs(delta))).append(" (")
                .append(row.deltaPercent()).append(")");
        if (row.maxGrowth() != null) {
            line.append("; maxGrowth ").append(row.maxGrowth()).append(" allows +")
                    .append(Figures.bytes(row.allowedGrowthBytes()));
        }
        line.append(": ").append(row.outcome() == null ? "-" : row.outcome().name());
        KernelRow kernel = row.kernel();
        if (kernel != null && delta > 0) {
            line.append("; kernel ").append(kernel.displayName()).append(" [").append(kernel.archLabel())
                    .append("] in ").append(kernel.library()).append(' ').append(change(row));
        }
        return line.toString();
    }

    /** What happened to the kernel, by the baseline's list. */
    static String change(BaselineReport.Row row) {
        String change = row.kernelChange() == null ? "" : row.kernelChange();
        return switch (change) {
            case "new" -> "is new";
            case "grew" -> "grew (frame " + Figures.grouped(row.previousStack()) + " -> "
                    + Figures.grouped(row.kernel().stack()) + " B)";
            case "unchanged" -> "(frame unchanged, " + Figures.grouped(row.previousStack()) + " B)";
            case "shrank" -> "(frame was " + Figures.grouped(row.previousStack()) + " B)";
            default -> "";
        };
    }
}
