package io.github.cudastackbudget.core.gate;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.LaunchedImage;
import io.github.cudastackbudget.core.budget.Reservation;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.text.ByteSize;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Judges the verdicts against the rules: one {@link GateCheck} (category {@code rule}) per limit and element judged.
 * A DEVICE rule judges each included device's headline figures; a LIBRARY rule, per included library and device, what
 * that library's kernels alone would reserve (the largest frame among the images the device runs from it); a KERNEL
 * rule each included kernel's image on each device: one check per kernel over the limit, else one passing check per
 * device and limit that names the largest included kernel (so that a rule over thousands of kernels stays readable).
 * Devices that were skipped (nothing runs there) are not judged; suppressed kernels are not judged (they left the
 * verdicts). The kernels judged are those the headline counts: the launched ones with a complete launch log, else
 * every image the device runs.
 */
public final class RuleChecker {

    /** The category of the gate checks. */
    public static final String CATEGORY = "rule";

    private final Rules rules;

    public RuleChecker(Rules rules) {
        this.rules = rules;
    }

    /**
     * @param devices      the verdicts, in configuration order
     * @param libraries    the labels of the judged libraries, in scan order
     * @param displayNames mangled name -> readable name
     * @throws io.github.cudastackbudget.core.text.InvalidValueException a share of memory for a device of unknown
     *                                                                     memory
     */
    public List<GateCheck> check(List<DeviceResult> devices, List<String> libraries, Map<String, String> displayNames) {
        List<GateCheck> checks = new ArrayList<>();
        for (Rules.Rule rule : rules.rules()) {
            int before = checks.size();
            switch (rule.element()) {
                case DEVICE -> devices(rule, devices, displayNames, checks);
                case LIBRARY -> libraries(rule, devices, libraries, displayNames, checks);
                case KERNEL -> kernels(rule, devices, displayNames, checks);
                default -> throw new IllegalStateException(rule.element().toString());
            }
            if (checks.size() == before) {
                checks.add(new GateCheck(CATEGORY, "rule[" + rule.index() + "] " + rule.element() + " includes nothing",
                        GateCheck.Outcome.WARN, null, null, null, null, null, null, "rule[" + rule.index() + "] ("
                                + rule.element() + ", includes " + rule.includes() + ", excludes " + rule.excludes()
                                + ") judges nothing: no " + rule.element().name().toLowerCase(java.util.Locale.ROOT)
                                + " of a judged device matches it; check its patterns"));
            }
        }
        return checks;
    }

    private static void devices(Rules.Rule rule, List<DeviceResult> devices, Map<String, String> displayNames,
            List<GateCheck> checks) {
        for (DeviceResult device : judged(devices)) {
            DeviceSpec spec = device.device();
            if (!rule.includes(spec.name(), spec.presetId())) {
                continue;
            }
            KernelRecord worst = device.headlineWorst();
            for (Rules.Limit limit : rule.limits()) {
                long actual = switch (limit.counter()) {
                    case RESERVATION, MEMORY_SHARE -> device.reservationBytes();
                    case INCREMENT -> device.incrementBytes();
                    case FRAME -> frame(worst);
                };
                checks.add(check(rule, limit, spec, spec.name(), null, worst, actual, "device " + spec.name(),
                        readable(worst, displayNames)));
            }
        }
    }

    private static void libraries(Rules.Rule rule, List<DeviceResult> devices, List<String> libraries,
            Map<String, String> displayNames, List<GateCheck> checks) {
        Set<String> included = new LinkedHashSet<>();
        for (String library : libraries) {
            if (rule.includes(library, Suppression.lastSegment(library))) {
                included.add(library);
            }
        }
        for (DeviceResult device : judged(devices)) {
            DeviceSpec spec = device.device();
            List<KernelRecord> kernels = kernels(device);
            for (String library : included) {
                // the images are largest frame first: the first known one of the library decides
                KernelRecord worst = kernels.stream().filter(k -> k.library().equals(library) && !k.stackUnknown())
                        .findFirst().orElse(null);
                if (worst == null) {
                    continue;
                }
                for (Rules.Limit limit : rule.limits()) {
                    long actual = figure(limit.counter(), spec, worst);
                    checks.add(check(rule, limit, spec, library + " on " + spec.name(), library, worst,
                            actual, "library " + library + " on " + spec.name(), readable(worst, displayNames)));
                }
            }
        }
    }

    private static void kernels(Rules.Rule rule, List<DeviceResult> devices, Map<String, String> displayNames,
            List<GateCheck> checks) {
        for (DeviceResult device : judged(devices)) {
            DeviceSpec spec = device.device();
            List<KernelRecord> included = kernels(device).stream().filter(k -> !k.stackUnknown())
                    .filter(k -> rule.includes(k.name(), displayNames.getOrDefault(k.name(), k.name()))).toList();
            if (included.isEmpty()) {
                continue;
            }
            for (Rules.Limit limit : rule.limits()) {
                boolean breached = false;
                for (KernelRecord kernel : included) {
                    long actual = figure(limit.counter(), spec, kernel);
                    GateCheck check = check(rule, limit, spec, spec.name() + " " + kernel.name() + " ["
                            + kernel.arch().sassLabel() + "] in " + kernel.library(), kernel.library(), kernel, actual,
                            "kernel " + displayNames.getOrDefault(kernel.name(), kernel.name()) + " ["
                                    + kernel.arch().sassLabel() + "] in " + kernel.library() + " on " + spec.name(),
                            null);
                    if (check.outcome() != GateCheck.Outcome.PASS) {
                        checks.add(check);
                        breached = true;
                    }
                }
                if (!breached) {
                    KernelRecord largest = included.get(0);
                    checks.add(check(rule, limit, spec, spec.name(), largest.library(), largest,
                            figure(limit.counter(), spec, largest), "the " + included.size() + " included kernel(s) on "
                                    + spec.name(), "largest: " + readable(largest, displayNames)));
                }
            }
        }
    }

    /** The devices with a verdict (a skipped one runs nothing of the judged libraries). */
    private static List<DeviceResult> judged(List<DeviceResult> devices) {
        return devices.stream().filter(device -> !device.skipped()).toList();
    }

    /** The images the headline counts, largest frame first. */
    private static List<KernelRecord> kernels(DeviceResult device) {
        return device.launchedHeadline() ? device.launched().kernels().stream().map(LaunchedImage::image).toList()
                : device.selected();
    }

    private static long frame(KernelRecord kernel) {
        return kernel == null || kernel.stackUnknown() ? 0 : kernel.stack();
    }

    /** A kernel's figure on a device: its frame, or the reservation (increment) its frame alone causes. */
    private static long figure(Rules.Counter counter, DeviceSpec device, KernelRecord kernel) {
        return switch (counter) {
            case RESERVATION, MEMORY_SHARE -> Reservation.bytesFor(device.maxResidentThreads(), frame(kernel));
            case INCREMENT -> Reservation.incrementFor(device.maxResidentThreads(), frame(kernel));
            case FRAME -> frame(kernel);
        };
    }

    /**
     * One limit on one element.
     *
     * @param scope   what the check's name says after the element ({@code h200-141gb})
     * @param subject what the message says is measured ({@code device h200-141gb})
     * @param named   how the message names {@code kernel} after the figures ({@code kernel demo::f(int)}), or null
     *                where {@code subject} already names it
     */
    private static GateCheck check(Rules.Rule rule, Rules.Limit limit, DeviceSpec device, String scope,
            String library, KernelRecord kernel, long actual, String subject, String named) {
        String where = "rule[" + rule.index() + "] " + rule.element() + " " + scope;
        long maximum = limit.maximum().resolve(device, where + " " + limit.counter() + " maximum");
        boolean breach = actual > maximum;
        GateCheck.Outcome outcome = !breach ? GateCheck.Outcome.PASS
                : limit.level() == Rules.Level.ERROR ? GateCheck.Outcome.FAIL : GateCheck.Outcome.WARN;
        String measured = switch (limit.counter()) {
            case RESERVATION -> "reservation " + ByteSize.format(actual);
            case INCREMENT -> "reservation over the 1 KiB-per-thread default " + ByteSize.format(actual);
            case FRAME -> "stack frame " + ByteSize.grouped(actual) + " B per thread";
            case MEMORY_SHARE -> "reservation " + ByteSize.format(actual) + " = " + share(actual, device)
                    + " of the device's memory";
        };
        String bound = limit.maximum().isPercentage() ? limit.maximum().text() + " of memory ("
                + ByteSize.format(maximum) + ")" : limit.maximum().text() + " (" + ByteSize.grouped(maximum) + " B)";
        String kernelPart = kernel == null || named == null ? "" : "; " + named + " [" + kernel.arch().sassLabel()
                + "] in " + kernel.library();
        String message = where(rule, limit) + ": " + subject + ": " + measured + (breach ? " exceeds" : " is within")
                + " the maximum " + bound + kernelPart + (breach && outcome == GateCheck.Outcome.WARN ? " (level WARN)"
                        : "");
        return new GateCheck(CATEGORY, where + " " + limit.counter() + " <= " + limit.maximum().text(), outcome,
                device.name(), library, kernel == null ? null : kernel.name(),
                kernel == null ? null : kernel.arch().sassLabel(), actual, maximum, message);
    }

    /** {@code kernel demo::f(int)}: the readable name, or null without a kernel. */
    private static String readable(KernelRecord kernel, Map<String, String> displayNames) {
        return kernel == null ? null : "kernel " + displayNames.getOrDefault(kernel.name(), kernel.name());
    }

    private static String where(Rules.Rule rule, Rules.Limit limit) {
        return "rule[" + rule.index() + "] " + rule.element() + " " + limit.counter() + " <= " + limit.maximum().text();
    }

    private static String share(long bytes, DeviceSpec device) {
        if (device.memoryBytes() == null || device.memoryBytes() == 0) {
            return "n/a";
        }
        return BigDecimal.valueOf(bytes).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(device.memoryBytes()), 2, RoundingMode.HALF_UP).toPlainString() + "%";
    }
}
