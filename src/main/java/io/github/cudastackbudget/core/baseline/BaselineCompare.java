package io.github.cudastackbudget.core.baseline;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.GrowthLimit;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Compares a check's device verdicts with a baseline's (issue 12): per device (matched by name) the headline
 * reservation old against new, and the overall figure (the largest reservation over all devices). A growth over the
 * device's {@code maxGrowth} (else the default one) is a FAIL naming the device, both reservations and the kernel
 * behind the new figure (new since the baseline, or its frame grew); without a limit every comparison is a PASS that
 * only reports. A device on one side only is an INFO line and a row without a verdict.
 */
public final class BaselineCompare {

    private final BaselineRequest request;
    private final Map<String, String> displayNames;
    private final Frontend frontend;

    private BaselineCompare(BaselineRequest request, Map<String, String> displayNames, Frontend frontend) {
        this.request = request;
        this.displayNames = displayNames;
        this.frontend = frontend;
    }

    /**
     * @param request      the baseline and the default limit
     * @param targets      the devices as configured (their own limits), matched to {@code devices} by name
     * @param devices      this check's verdicts
     * @param displayNames mangled name to readable name
     * @param frontend     spells {@code maxGrowth} in messages
     * @param info         receives one line per device found on one side only
     */
    public static BaselineComparison compare(BaselineRequest request, List<DeviceTarget> targets,
            List<DeviceResult> devices, Map<String, String> displayNames, Frontend frontend, Consumer<String> info) {
        return new BaselineCompare(request, displayNames, frontend).compare(targets, devices, info);
    }

    private BaselineComparison compare(List<DeviceTarget> targets, List<DeviceResult> devices, Consumer<String> info) {
        Baseline previous = request.previous();
        List<BaselineComparison.Row> rows = new ArrayList<>();
        List<GateCheck> checks = new ArrayList<>();
        Set<String> current = new HashSet<>();
        DeviceResult largest = null;
        for (DeviceResult device : devices) {
            String name = device.device().name();
            current.add(name);
            Baseline.Device old = previous.device(name);
            if (!device.skipped() && (largest == null || device.reservationBytes() > largest.reservationBytes())) {
                largest = device;
            }
            if (old == null) {
                info.accept("Baseline: device '" + name + "' is not in the baseline " + previous.source()
                        + ": its reservation " + ByteSize.format(device.reservationBytes()) + " is not compared");
                rows.add(new BaselineComparison.Row(name, null, device.skipped() ? null : device.reservationBytes(),
                        null, null, null, device.headlineWorst(), null, null, "not in the baseline"));
                continue;
            }
            if (device.skipped() || old.skipped()) {
                String note = device.skipped() ? "skipped in this check" : "skipped in the baseline";
                info.accept("Baseline: device '" + name + "' is " + note + ": not compared");
                rows.add(new BaselineComparison.Row(name, old.skipped() ? null : old.reservationBytes(),
                        device.skipped() ? null : device.reservationBytes(), null, null, null, device.headlineWorst(),
                        null, null, note));
                continue;
            }
            GrowthLimit limit = limitOf(targets, name);
            BaselineComparison.Row row = row(name, old.reservationBytes(), device.reservationBytes(), limit,
                    device.headlineWorst());
            rows.add(row);
            checks.add(check(row, limit != request.maxGrowth()));
        }
        Baseline.Device oldLargest = null;
        for (Baseline.Device old : previous.devices()) {
            if (!current.contains(old.name())) {
                info.accept("Baseline: device '" + old.name() + "' of the baseline " + previous.source()
                        + " is not checked now: not compared");
                rows.add(new BaselineComparison.Row(old.name(), old.skipped() ? null : old.reservationBytes(), null,
                        null, null, null, null, null, null, "not in this check"));
            }
            if (!old.skipped() && (oldLargest == null || old.reservationBytes() > oldLargest.reservationBytes())) {
                oldLargest = old;
            }
        }
        BaselineComparison.Row overall = null;
        if (largest != null && oldLargest != null) {
            overall = row(BaselineComparison.OVERALL, oldLargest.reservationBytes(), largest.reservationBytes(),
                    request.maxGrowth(), largest.headlineWorst());
            checks.add(check(overall, false));
        }
        return new BaselineComparison(previous.source(), rows, overall, checks);
    }

    /** The device's own limit, else the default one (null: none). */
    private GrowthLimit limitOf(List<DeviceTarget> targets, String name) {
        for (DeviceTarget target : targets) {
            if (target.device().name().equals(name) && target.maxGrowth() != null) {
                return target.maxGrowth();
            }
        }
        return request.maxGrowth();
    }

    private BaselineComparison.Row row(String device, long previousBytes, long currentBytes, GrowthLimit limit,
            KernelRecord kernel) {
        Long allowed = limit == null ? null : limit.allowedGrowth(previousBytes);
        GateCheck.Outcome outcome = allowed != null && currentBytes - previousBytes > allowed ? GateCheck.Outcome.FAIL
                : GateCheck.Outcome.PASS;
        BaselineComparison.Change change = null;
        Long previousStack = null;
        if (kernel != null) {
            Baseline.Image image = previousImage(kernel);
            if (image == null) {
                change = BaselineComparison.Change.NEW;
            } else {
                previousStack = image.stack();
                long now = kernel.stackUnknown() ? 0 : kernel.stack();
                change = now > image.stack() ? BaselineComparison.Change.GREW : now == image.stack()
                        ? BaselineComparison.Change.UNCHANGED : BaselineComparison.Change.SHRANK;
            }
        }
        return new BaselineComparison.Row(device, previousBytes, currentBytes, limit, allowed, outcome, kernel, change,
                previousStack, null);
    }

    /**
     * The baseline's image of the kernel: the same library, name and arch; else the same name and arch in another
     * library (a renamed file); else null (a new kernel for this arch).
     */
    private Baseline.Image previousImage(KernelRecord kernel) {
        String arch = kernel.arch().sassLabel();
        Baseline.Image sameName = null;
        for (Baseline.Image image : request.previous().images()) {
            if (image.name().equals(kernel.name()) && image.arch().equals(arch)) {
                if (image.library().equals(kernel.library())) {
                    return image;
                }
                sameName = sameName == null ? image : sameName;
            }
        }
        return sameName;
    }

    private GateCheck check(BaselineComparison.Row row, boolean ownLimit) {
        KernelRecord kernel = row.kernel();
        String arch = kernel == null ? null : archLabel(kernel);
        Long limit = row.allowedGrowthBytes() == null ? null : saturatedSum(row.previousBytes(), row.allowedGrowthBytes());
        return new GateCheck(BaselineComparison.CATEGORY, BaselineComparison.CATEGORY + " " + row.device(),
                row.outcome(), BaselineComparison.OVERALL.equals(row.device()) ? null : row.device(),
                kernel == null ? null : kernel.library(), kernel == null ? null : kernel.name(), arch,
                row.currentBytes(), limit, message(row, ownLimit));
    }

    /** The one line of a comparison: the failure names device, both reservations and the kernel that grew. */
    String message(BaselineComparison.Row row, boolean ownLimit) {
        boolean overall = BaselineComparison.OVERALL.equals(row.device());
        String subject = overall ? "overall (the largest reservation of all devices)" : row.device();
        long delta = row.deltaBytes();
        String limitName = (ownLimit ? "its own " : "") + frontend.name(Option.MAX_GROWTH);
        StringBuilder line = new StringBuilder(subject);
        if (row.outcome() == GateCheck.Outcome.FAIL) {
            line.append(": the reservation grew from ").append(ByteSize.format(row.previousBytes())).append(" to ")
                    .append(ByteSize.format(row.currentBytes())).append(" (").append(signed(delta)).append(", ")
                    .append(percent(delta, row.previousBytes())).append(") over the baseline ")
                    .append(request.previous().source()).append(", more than ").append(limitName).append(' ')
                    .append(row.maxGrowth().text()).append(" allows (").append(signed(row.allowedGrowthBytes()))
                    .append(')');
        } else {
            line.append(": reservation ").append(ByteSize.format(row.currentBytes())).append(", baseline ")
                    .append(ByteSize.format(row.previousBytes())).append(" (").append(signed(delta)).append(", ")
                    .append(percent(delta, row.previousBytes())).append(')');
            if (row.maxGrowth() != null) {
                line.append(", within ").append(limitName).append(' ').append(row.maxGrowth().text()).append(" (")
                        .append(signed(row.allowedGrowthBytes())).append(')');
            } else {
                line.append(", not gated (no ").append(frontend.name(Option.MAX_GROWTH)).append(')');
            }
        }
        KernelRecord kernel = row.kernel();
        if (kernel != null && (row.outcome() == GateCheck.Outcome.FAIL || delta > 0)) {
            line.append(": kernel ").append(displayNames.getOrDefault(kernel.name(), kernel.name())).append(" [")
                    .append(archLabel(kernel)).append("] in ").append(kernel.library()).append(' ')
                    .append(changePhrase(row));
        }
        return line.toString();
    }

    private static String changePhrase(BaselineComparison.Row row) {
        return switch (row.change()) {
            case NEW -> "is new since the baseline";
            case GREW -> "grew: its frame was " + ByteSize.grouped(row.previousStack()) + " B, now "
                    + ByteSize.grouped(row.kernel().stack()) + " B";
            case UNCHANGED -> "has the same frame as in the baseline (" + ByteSize.grouped(row.previousStack())
                    + " B)";
            case SHRANK -> "had a larger frame in the baseline (" + ByteSize.grouped(row.previousStack()) + " B)";
        };
    }

    private static String archLabel(KernelRecord kernel) {
        return kernel.arch().sassLabel() + (kernel.origin().isStatic() ? "" : " " + kernel.origin().label());
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /** {@code +64.00 MiB (67,108,864 B)}, {@code -512 B}, {@code +0 B}. */
    static String signed(long bytes) {
        return (bytes < 0 ? "-" : "+") + ByteSize.format(Math.abs(bytes));
    }

    /** {@code +12.5%}; {@code n/a} over a baseline of 0 B that grew. */
    static String percent(long delta, long previous) {
        if (previous == 0) {
            return delta == 0 ? "+0.0%" : "n/a";
        }
        BigDecimal value = BigDecimal.valueOf(delta).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(previous), 1, RoundingMode.HALF_UP);
        return (value.signum() < 0 ? "" : "+") + value.toPlainString() + "%";
    }
}
