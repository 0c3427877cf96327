package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.gate.GateCheck;
import java.util.List;
import java.util.Objects;

/**
 * The comparison with a baseline (issue 12) as every output shows it: old, new and delta per device, and the overall
 * figure (JSON {@code baseline}, written only when the check had a baseline). The verdicts themselves are the
 * {@code baseline} entries of {@link ReportModel#checks()}.
 *
 * @param source  how the check named the baseline (its file, or an artifact's coordinates)
 * @param devices one row per device: the check's devices in their order, then the baseline's devices it lacks
 * @param overall the largest reservation over all devices, old and new; null when either side has none
 */
public record BaselineReport(String source, List<Row> devices, Row overall) {

    public BaselineReport {
        Objects.requireNonNull(source, "source");
        devices = List.copyOf(devices);
    }

    /**
     * One row.
     *
     * @param device             the device's name, or {@code overall}
     * @param previousBytes      the baseline's reservation, or null (not in the baseline, or skipped there)
     * @param currentBytes       this check's reservation, or null (not in this check, or skipped)
     * @param maxGrowth          the growth limit that applied as written ({@code 10%}), or null (not gated)
     * @param allowedGrowthBytes the growth it allows over {@code previousBytes}, or null
     * @param outcome            pass or fail where both figures exist, else null
     * @param kernel             the kernel behind this check's figure, or null
     * @param kernelChange       {@code new}, {@code grew}, {@code unchanged} or {@code shrank} by the baseline's
     *                           kernel list, or null
     * @param previousStack      that kernel's frame in the baseline, or null
     * @param note               why the row is not compared, or null
     */
    public record Row(String device, Long previousBytes, Long currentBytes, String maxGrowth, Long allowedGrowthBytes,
            GateCheck.Outcome outcome, KernelRow kernel, String kernelChange, Long previousStack, String note) {

        public Row {
            Objects.requireNonNull(device, "device");
        }

        /** True where both figures exist and were compared (pass or fail). */
        public boolean compared() {
            return outcome != null;
        }

        /** True when the growth is over the limit. */
        public boolean failed() {
            return outcome == GateCheck.Outcome.FAIL;
        }

        /** New minus old, or null when either is missing. */
        public Long deltaBytes() {
            return previousBytes == null || currentBytes == null ? null : currentBytes - previousBytes;
        }

        /** {@code +12.5%} of the baseline's figure, {@code n/a} over 0 B, null when either is missing. */
        public String deltaPercent() {
            Long delta = deltaBytes();
            if (delta == null) {
                return null;
            }
            String percent = Figures.percent(delta, previousBytes);
            return delta >= 0 && !percent.equals("n/a") ? "+" + percent : percent;
        }
    }
}
