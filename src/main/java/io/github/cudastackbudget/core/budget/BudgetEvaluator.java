package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.arch.CompatibilityRules;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.engine.KernelRecord;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.ImageSelector;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Turns the scanned kernels and the configured devices and budgets into per-device verdicts. */
public final class BudgetEvaluator {

    /** Largest frame first; ties by library, name, arch so that reports are deterministic. */
    public static final Comparator<KernelRecord> LARGEST_FRAME_FIRST = Comparator
            .comparingLong(KernelRecord::stackForRanking).reversed()
            .thenComparing(KernelRecord::library).thenComparing(KernelRecord::name)
            .thenComparing(KernelRecord::arch);

    private final SizeLimit defaultMaxReservation;
    private final Long maxStackPerThread;

    /**
     * @param defaultMaxReservation the budget of devices without their own, or null
     * @param maxStackPerThread     the per-kernel frame limit in bytes, or null
     */
    public BudgetEvaluator(SizeLimit defaultMaxReservation, Long maxStackPerThread) {
        this.defaultMaxReservation = defaultMaxReservation;
        this.maxStackPerThread = maxStackPerThread;
    }

    public DeviceResult evaluate(KernelIndex index, DeviceTarget target) {
        DeviceSpec device = target.device();
        SizeLimit limit = target.maxReservation() != null ? target.maxReservation() : defaultMaxReservation;
        Long budget = limit == null ? null : limit.resolve(device, "maxReservation of device '" + device.name() + "'");
        ComputeCapability capability = device.capability();

        Optional<GpuArch> chosen = index.sassArches().stream()
                .filter(arch -> CompatibilityRules.sassRunsOn(arch, capability))
                .max(Comparator.naturalOrder());
        List<FunctionChoice> choices = new ArrayList<>(index.functionCount());
        index.imagesByFunction().forEach((function, images) -> choices.add(
                ImageSelector.choose(function, images, index.ptxTargets(function), capability)));
        List<FunctionChoice> jit = filter(choices, FunctionChoice.Outcome.JIT);
        List<FunctionChoice> cannotRun = filter(choices, FunctionChoice.Outcome.CANNOT_RUN);

        if (chosen.isEmpty()) {
            String reason = "no embedded SASS runs on " + capability.smName() + " (compute capability " + capability
                    + "); embedded: " + index.sassArches().stream().map(GpuArch::sassLabel)
                    .collect(Collectors.joining(", "))
                    + (jit.isEmpty() ? "; no usable PTX either, so its kernels cannot launch there"
                            : "; " + jit.size() + " function(s) would be JIT-compiled from PTX, frame unknown at build time");
            return new DeviceResult(device, DeviceResult.Status.SKIPPED, reason, null, false, new TreeMap<>(), List.of(),
                    null, 0, 0, 0, budget, null, List.of(), jit, cannotRun, List.of(), List.of());
        }

        List<KernelRecord> selected = choices.stream().filter(choice -> choice.chosen() != null)
                .map(FunctionChoice::chosen).sorted(LARGEST_FRAME_FIRST).toList();
        SortedMap<String, Integer> imageCounts = new TreeMap<>();
        selected.forEach(record -> imageCounts.merge(record.arch().sassLabel(), 1, Integer::sum));
        List<KernelRecord> unknownStack = selected.stream().filter(KernelRecord::stackUnknown).toList();
        KernelRecord worst = selected.stream().filter(record -> !record.stackUnknown()).findFirst().orElse(null);
        KernelRecord worstLocal = selected.stream().filter(record -> record.local() > 0)
                .max(Comparator.comparingLong(KernelRecord::local).thenComparing(LARGEST_FRAME_FIRST.reversed()))
                .orElse(null);
        long threads = device.maxResidentThreads();
        long frame = worst == null ? 0 : worst.stack();
        long reservation = Reservation.bytesFor(threads, frame);
        long increment = Reservation.incrementFor(threads, frame);

        List<Violation> violations = new ArrayList<>();
        if (budget != null && worst != null && reservation > budget) {
            violations.add(new Violation(device.name(), Violation.Kind.RESERVATION, reservation, budget, worst));
        }
        if (maxStackPerThread != null) {
            selected.stream().filter(record -> !record.stackUnknown() && record.stack() > maxStackPerThread)
                    .forEach(record -> violations.add(new Violation(device.name(), Violation.Kind.STACK, record.stack(),
                            maxStackPerThread, record)));
        }
        GpuArch chosenArch = chosen.get();
        return new DeviceResult(device, violations.isEmpty() ? DeviceResult.Status.PASS : DeviceResult.Status.FAIL, null,
                chosenArch, !chosenArch.capability().equals(capability), imageCounts, selected, worst, reservation,
                reservation, increment, budget, worstLocal, filter(choices, FunctionChoice.Outcome.AMBIGUOUS), jit,
                cannotRun, unknownStack, violations);
    }

    private static List<FunctionChoice> filter(List<FunctionChoice> choices, FunctionChoice.Outcome outcome) {
        return choices.stream().filter(choice -> choice.outcome() == outcome).toList();
    }
}
