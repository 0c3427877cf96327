package io.github.cudastackbudget.core.gate;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.Exclusion;
import io.github.cudastackbudget.core.budget.Reservation;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The entries of a suppressions file, applied: which functions leave which device's verdict ({@link Exclusion}),
 * the kernels listed apart, and one {@link GateCheck} per entry (category {@code suppression}): PASS for an entry in
 * use, FAIL for an expired one (it suppresses nothing: its kernels are judged again), WARN for one that matched
 * nothing (FAIL with {@code failOnUnusedSuppressions}).
 */
public final class Suppressions implements Exclusion {

    /** The category of the gate checks. */
    public static final String CATEGORY = "suppression";

    private final Path file;
    private final List<Suppression> entries;
    private final LocalDate today;
    private final boolean failOnUnused;
    private final String failOnUnusedHint;
    /** device name -> function -> the entry that suppresses it there */
    private final Map<String, Map<KernelRecord.FunctionKey, Suppression>> byDevice = new HashMap<>();
    /** entry index -> the devices it matched on */
    private final Map<Integer, Set<String>> used = new TreeMap<>();

    /**
     * @param file             the file, for messages
     * @param entries          its entries, in file order
     * @param today            the date {@code until} is compared with
     * @param failOnUnused     an entry that matches nothing fails the check
     * @param failOnUnusedHint how to make an unused entry fail, for the warning ({@code set ... to true})
     */
    public Suppressions(Path file, List<Suppression> entries, LocalDate today, boolean failOnUnused,
            String failOnUnusedHint) {
        this.file = file;
        this.entries = List.copyOf(entries);
        this.today = today;
        this.failOnUnused = failOnUnused;
        this.failOnUnusedHint = failOnUnusedHint;
    }

    /** The entries, in file order. */
    public List<Suppression> entries() {
        return entries;
    }

    /**
     * Matches the active entries against every function of every device (the first matching entry of the file owns
     * a function); call once, before the verdicts.
     *
     * @param displayNames mangled name -> readable name (the patterns match either)
     */
    public Suppressions apply(KernelIndex index, List<DeviceTarget> devices, Map<String, String> displayNames) {
        List<Suppression> active = entries.stream().filter(entry -> !entry.expired(today)).toList();
        if (active.isEmpty()) {
            return this;
        }
        for (KernelRecord.FunctionKey function : index.imagesByFunction().keySet()) {
            String display = displayNames.getOrDefault(function.name(), function.name());
            List<Suppression> matching = active.stream()
                    .filter(entry -> entry.matchesKernel(function.library(), function.name(), display)).toList();
            if (matching.isEmpty()) {
                continue;
            }
            for (DeviceTarget target : devices) {
                DeviceSpec device = target.device();
                for (Suppression entry : matching) {
                    if (entry.matchesDevice(device.name(), device.presetId())) {
                        byDevice.computeIfAbsent(device.name(), name -> new HashMap<>()).put(function, entry);
                        used.computeIfAbsent(entry.index(), key -> new LinkedHashSet<>()).add(device.name());
                        break;
                    }
                }
            }
        }
        return this;
    }

    @Override
    public boolean excludes(DeviceSpec device, KernelRecord.FunctionKey function) {
        Map<KernelRecord.FunctionKey, Suppression> functions = byDevice.get(device.name());
        return functions != null && functions.containsKey(function);
    }

    /** The kernels that left each device's verdict, device by device in configuration order, largest frame first. */
    public List<SuppressedKernel> suppressed(List<DeviceResult> devices) {
        List<SuppressedKernel> kernels = new ArrayList<>();
        for (DeviceResult device : devices) {
            Map<KernelRecord.FunctionKey, Suppression> functions = byDevice.getOrDefault(device.device().name(), Map.of());
            for (KernelRecord image : device.excluded()) {
                Suppression entry = functions.get(image.functionKey());
                if (entry != null) {
                    kernels.add(new SuppressedKernel(device.device().name(), image,
                            Reservation.bytesFor(device.device().maxResidentThreads(),
                                    image.stackUnknown() ? 0 : image.stack()), entry));
                }
            }
        }
        return kernels;
    }

    /** One check per entry, in file order. */
    public List<GateCheck> checks(List<SuppressedKernel> suppressed) {
        List<GateCheck> checks = new ArrayList<>();
        for (Suppression entry : entries) {
            String name = "suppression[" + entry.index() + "] " + entry.kernel();
            String device = entry.device() == null ? null : entry.device().text();
            String library = entry.library() == null ? null : entry.library().text();
            if (entry.expired(today)) {
                checks.add(new GateCheck(CATEGORY, name, GateCheck.Outcome.FAIL, device, library, null, null, null, null,
                        file + ": " + entry.label() + " expired on " + entry.until() + " (today is " + today
                                + "): it suppresses nothing, its kernels are judged again; renew its <until> with a "
                                + "reason, or remove the entry"));
                continue;
            }
            Set<String> devices = used.get(entry.index());
            if (devices == null) {
                checks.add(new GateCheck(CATEGORY, name, failOnUnused ? GateCheck.Outcome.FAIL : GateCheck.Outcome.WARN,
                        device, library, null, null, null, null, file + ": " + entry.label()
                                + " matches no kernel on any device: remove it" + (failOnUnused ? ""
                                        : " (" + failOnUnusedHint + " fails the build on it)")));
                continue;
            }
            long images = suppressed.stream().filter(kernel -> kernel.entry().index() == entry.index()).count();
            checks.add(new GateCheck(CATEGORY, name, GateCheck.Outcome.PASS, device, library, null, null, null, null,
                    entry.label() + " suppresses " + images + " kernel image(s) on " + String.join(", ", devices)
                            + ": " + entry.reason() + (entry.until() == null ? "" : " (until " + entry.until() + ")")));
        }
        return checks;
    }
}
