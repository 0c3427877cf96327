package io.github.cudastackbudget.core.baseline;

import io.github.cudastackbudget.core.device.GrowthLimit;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.report.model.BaselineReport;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What the comparison with a baseline found: one row per device (of this check or of the baseline), one for the
 * overall figure (the largest reservation over all devices), and the gate checks ({@code baseline} category) that
 * every output shows.
 *
 * @param source  how the reports name the baseline
 * @param devices one row per device: this check's devices in their order, then the baseline's devices this check
 *                lacks
 * @param overall the largest reservation over all devices, old and new; null when either side has no figure
 * @param checks  one {@link GateCheck} per compared row (PASS or FAIL), in row order, the overall one last
 */
public record BaselineComparison(String source, List<Row> devices, Row overall, List<GateCheck> checks) {

    /** The {@link GateCheck#category()} of the comparisons. */
    public static final String CATEGORY = "baseline";

    /** The name of the overall row. */
    public static final String OVERALL = "overall";

    public BaselineComparison {
        Objects.requireNonNull(source, "source");
        devices = List.copyOf(devices);
        checks = List.copyOf(checks);
    }

    /** What happened to the kernel behind the new headline, by the baseline's kernel list. */
    public enum Change {
        /** the baseline lists no image of it. */
        NEW,
        /** its image (same library, name and arch) had a smaller frame. */
        GREW,
        /** its image had the same frame (the device now counts it: another image, other figures). */
        UNCHANGED,
        /** its image had a larger frame. */
        SHRANK;

        /** The JSON spelling: {@code new}, {@code grew}, {@code unchanged}, {@code shrank}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One compared (or only listed) figure.
     *
     * @param device             the device's name, or {@value #OVERALL}
     * @param previousBytes      the baseline's reservation, or null when the baseline lacks the device (or skipped it)
     * @param currentBytes       this check's reservation, or null when this check lacks the device (or skipped it)
     * @param maxGrowth          the limit that applied, or null (reported, not gated)
     * @param allowedGrowthBytes the growth the limit allows over {@code previousBytes}, or null
     * @param outcome            PASS or FAIL where both figures exist; null where the row is only listed
     * @param kernel             the kernel behind this check's figure, or null
     * @param change             what happened to that kernel by the baseline's kernel list, or null
     * @param previousStack      that kernel's frame in the baseline (GREW, UNCHANGED, SHRANK), else null
     * @param note               why the row is not compared (e.g. "not in the baseline"), else null
     */
    public record Row(String device, Long previousBytes, Long currentBytes, GrowthLimit maxGrowth,
            Long allowedGrowthBytes, GateCheck.Outcome outcome, KernelRecord kernel, Change change, Long previousStack,
            String note) {

        public Row {
            Objects.requireNonNull(device, "device");
        }

        /** New minus old, or null when either is missing. */
        public Long deltaBytes() {
            return previousBytes == null || currentBytes == null ? null : currentBytes - previousBytes;
        }
    }

    /**
     * The comparison as the report model shows it; each row's kernel is the model's row of that kernel (the headline
     * worst kernel of a device of {@code model}).
     */
    public BaselineReport report(ReportModel model) {
        return new BaselineReport(source, devices.stream().map(row -> row(row, model)).toList(),
                overall == null ? null : row(overall, model));
    }

    private static BaselineReport.Row row(Row row, ReportModel model) {
        return new BaselineReport.Row(row.device(), row.previousBytes(), row.currentBytes(),
                row.maxGrowth() == null ? null : row.maxGrowth().text(), row.allowedGrowthBytes(), row.outcome(),
                kernelRow(row.kernel(), model), row.change() == null ? null : row.change().id(), row.previousStack(),
                row.note());
    }

    /** The model's row of a device's headline kernel. */
    private static KernelRow kernelRow(KernelRecord kernel, ReportModel model) {
        if (kernel == null) {
            return null;
        }
        String arch = kernel.arch().sassLabel();
        for (DeviceReport device : model.devices()) {
            KernelRow worst = device.worstKernel();
            if (worst != null && worst.name().equals(kernel.name()) && worst.library().equals(kernel.library())
                    && worst.arch().equals(arch) && worst.frameSource().equals(kernel.origin().source().id())) {
                return worst;
            }
        }
        return null;
    }

    /** True when a comparison failed. */
    public boolean failed() {
        return checks.stream().anyMatch(GateCheck::failed);
    }
}
