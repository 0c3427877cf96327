package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.arch.CompatibilityRules;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.ImageSelector;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
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
    private final JitFrameLookup jitFrames;
    private final Exclusion exclusion;

    /**
     * @param defaultMaxReservation the budget of devices without their own, or null
     * @param maxStackPerThread     the per-kernel frame limit in bytes of devices without their own, or null
     */
    public BudgetEvaluator(SizeLimit defaultMaxReservation, Long maxStackPerThread) {
        this(defaultMaxReservation, maxStackPerThread, JitFrameLookup.NONE);
    }

    /**
     * @param jitFrames the frames computed for functions a device JIT-compiles (ptxas): such a function counts like
     *                  a SASS image with that frame (its record labelled by its origin); the others stay in the JIT list
     */
    public BudgetEvaluator(SizeLimit defaultMaxReservation, Long maxStackPerThread, JitFrameLookup jitFrames) {
        this(defaultMaxReservation, maxStackPerThread, jitFrames, Exclusion.NONE);
    }

    /**
     * @param exclusion the functions that leave a device's verdict (suppressions): judged as if absent, their images
     *                  listed in {@link DeviceResult#excluded()}
     */
    public BudgetEvaluator(SizeLimit defaultMaxReservation, Long maxStackPerThread, JitFrameLookup jitFrames,
            Exclusion exclusion) {
        this.defaultMaxReservation = defaultMaxReservation;
        this.maxStackPerThread = maxStackPerThread;
        this.jitFrames = jitFrames == null ? JitFrameLookup.NONE : jitFrames;
        this.exclusion = exclusion == null ? Exclusion.NONE : exclusion;
    }

    public DeviceResult evaluate(KernelIndex index, DeviceTarget target) {
        return evaluate(index, target, null);
    }

    /**
     * The verdict for one device.
     *
     * @param launched the functions a recorded run launched (launched mode), or null for the static check. With a
     *                 complete launch log the headline reservation and both budgets judge the launched kernels only:
     *                 {@code maxReservation} the launched figure, {@code maxStackPerThread} the launched kernels'
     *                 frames. With an incomplete one (empty, status not ok) the launched figures are reported and the
     *                 static ones judged.
     */
    public DeviceResult evaluate(KernelIndex index, DeviceTarget target, Launched launched) {
        DeviceSpec device = target.device();
        SizeLimit limit = target.maxReservation() != null ? target.maxReservation() : defaultMaxReservation;
        Long budget = limit == null ? null : limit.resolve(device, "maxReservation of device '" + device.name() + "'");
        ComputeCapability capability = device.capability();

        Optional<GpuArch> chosen = index.sassArches().stream()
                .filter(arch -> CompatibilityRules.sassRunsOn(arch, capability))
                .max(Comparator.naturalOrder());
        List<FunctionChoice> choices = new ArrayList<>(index.functionCount());
        // suppressed functions leave the verdict: the image they would run is only listed apart
        List<FunctionChoice> excludedChoices = new ArrayList<>();
        index.imagesByFunction().forEach((function, images) -> (exclusion.excludes(device, function) ? excludedChoices
                : choices).add(ImageSelector.choose(function, images, index.ptxTargets(function), capability)));
        List<KernelRecord> excluded = excludedChoices.stream().map(choice -> choice.chosen() != null ? choice.chosen()
                : choice.outcome() == FunctionChoice.Outcome.JIT
                        ? jitFrames.frame(choice.function(), choice.jitFrom(), capability).orElse(null) : null)
                .filter(java.util.Objects::nonNull).sorted(LARGEST_FRAME_FIRST).toList();
        // JIT functions whose frame was computed (ptxas) count as images; the others stay "frame unknown"
        Map<KernelRecord.FunctionKey, KernelRecord> jitImages = new java.util.HashMap<>();
        List<FunctionChoice> jit = new ArrayList<>();
        for (FunctionChoice choice : filter(choices, FunctionChoice.Outcome.JIT)) {
            Optional<KernelRecord> frame = jitFrames.frame(choice.function(), choice.jitFrom(), capability);
            if (frame.isPresent()) {
                jitImages.put(choice.function(), frame.get());
            } else {
                jit.add(choice);
            }
        }
        List<FunctionChoice> cannotRun = filter(choices, FunctionChoice.Outcome.CANNOT_RUN);

        if (chosen.isEmpty() && jitImages.isEmpty()) {
            String reason = "no embedded SASS runs on " + capability.smName() + " (compute capability " + capability
                    + "); embedded: " + embedded(index)
                    + (jit.isEmpty() ? "; no usable PTX either, so its kernels cannot launch there"
                            : "; " + jit.size() + " function(s) would be JIT-compiled from PTX, frame unknown at build time");
            LaunchedFigures figures = launched == null ? null
                    : launchedFigures(choices, jitImages, launched, device.maxResidentThreads(), capability);
            return new DeviceResult(device, DeviceResult.Status.SKIPPED, reason, null, false, new TreeMap<>(), List.of(),
                    null, 0, 0, 0, budget, null, List.of(), jit, cannotRun, List.of(), List.of(), figures)
                    .withExcluded(excluded);
        }

        List<KernelRecord> selected = largestFrameFirst(choices, jitImages);
        // counted per arch and origin first, then labelled: one label per arch, not one string per record
        Map<GpuArch, int[]> staticCounts = new java.util.HashMap<>();
        Map<GpuArch, int[]> jitCounts = new java.util.HashMap<>();
        for (KernelRecord record : selected) {
            (record.origin().isStatic() ? staticCounts : jitCounts).computeIfAbsent(record.arch(), arch -> new int[1])[0]++;
        }
        SortedMap<String, Integer> imageCounts = new TreeMap<>();
        staticCounts.forEach((arch, count) -> imageCounts.merge(arch.sassLabel(), count[0], Integer::sum));
        jitCounts.forEach((arch, count) -> imageCounts.merge(arch.sassLabel() + " (JIT)", count[0], Integer::sum));
        List<KernelRecord> unknownStack = selected.stream().filter(KernelRecord::stackUnknown).toList();
        KernelRecord worst = selected.stream().filter(record -> !record.stackUnknown()).findFirst().orElse(null);
        KernelRecord worstLocal = selected.stream().filter(record -> record.local() > 0)
                .max(Comparator.comparingLong(KernelRecord::local).thenComparing(LARGEST_FRAME_FIRST.reversed()))
                .orElse(null);
        long threads = device.maxResidentThreads();
        long frame = worst == null ? 0 : worst.stack();
        long staticReservation = Reservation.bytesFor(threads, frame);
        LaunchedFigures figures = launched == null ? null
                : launchedFigures(choices, jitImages, launched, threads, capability);
        boolean launchedHeadline = figures != null && figures.headline();
        long reservation = launchedHeadline ? figures.reservationBytes() : staticReservation;
        long increment = launchedHeadline ? figures.incrementBytes() : Reservation.incrementFor(threads, frame);
        KernelRecord headlineWorst = launchedHeadline ? figures.worst() : worst;
        List<KernelRecord> judged = launchedHeadline
                ? figures.kernels().stream().map(LaunchedImage::image).toList() : selected;

        List<Violation> violations = new ArrayList<>();
        if (budget != null && headlineWorst != null && reservation > budget) {
            violations.add(new Violation(device.name(), Violation.Kind.RESERVATION, reservation, budget, headlineWorst));
        }
        // the device's own frame limit, else the global one
        Long frameLimit = target.maxStackPerThread() != null ? target.maxStackPerThread() : maxStackPerThread;
        if (frameLimit != null) {
            judged.stream().filter(record -> !record.stackUnknown() && record.stack() > frameLimit)
                    .forEach(record -> violations.add(new Violation(device.name(), Violation.Kind.STACK, record.stack(),
                            frameLimit, record)));
        }
        // a device that runs only JIT-compiled code: the arch its frames were computed for
        GpuArch chosenArch = chosen.orElseGet(() -> jitImages.values().stream().map(KernelRecord::arch)
                .max(Comparator.naturalOrder()).orElseThrow());
        return new DeviceResult(device, violations.isEmpty() ? DeviceResult.Status.PASS : DeviceResult.Status.FAIL, null,
                chosenArch, !chosenArch.capability().equals(capability), imageCounts, selected, worst, reservation,
                staticReservation, increment, budget, worstLocal, filter(choices, FunctionChoice.Outcome.AMBIGUOUS), jit,
                cannotRun, unknownStack, violations, figures).withExcluded(excluded);
    }

    /**
     * The device code the scanned libraries embed, for messages: their SASS ({@code sm_80, sm_90}), or when there is
     * none, their PTX ({@code no SASS; PTX compute_80}).
     */
    public static String embedded(KernelIndex index) {
        if (!index.sassArches().isEmpty()) {
            return index.sassArches().stream().map(GpuArch::sassLabel).collect(Collectors.joining(", "));
        }
        SortedSet<GpuArch> ptx = index.allPtxArches();
        return ptx.isEmpty() ? "no SASS or PTX"
                : "no SASS; PTX " + ptx.stream().map(GpuArch::ptxLabel).collect(Collectors.joining(", "));
    }

    /**
     * The functions a recorded run launched.
     *
     * @param functions counted function (library label + mangled name) -> the log's data about it
     * @param headline  whether the launched figures are the headline (the log is complete)
     * @param unmatched launched kernels in no scanned file: those with the driver's frame (launch log format 2) count
     *                  with it on every device that runs the image the driver loaded ({@link FrameSource#DRIVER})
     */
    public record Launched(Map<KernelRecord.FunctionKey, LaunchedKernel> functions, boolean headline,
            List<LaunchedKernel> unmatched) {
        public Launched {
            functions = Map.copyOf(functions);
            unmatched = List.copyOf(unmatched);
        }

        /** Without unmatched kernels. */
        public Launched(Map<KernelRecord.FunctionKey, LaunchedKernel> functions, boolean headline) {
            this(functions, headline, List.of());
        }
    }

    /**
     * Whether a driver figure describes this device's kind: the image the driver loaded (its arch) runs on the device,
     * or the log does not say which image it was.
     */
    static boolean driverArchRunsOn(io.github.cudastackbudget.core.launch.DriverFrame frame,
            ComputeCapability capability) {
        return frame.arch() == null || CompatibilityRules.sassRunsOn(frame.arch(), capability);
    }

    /**
     * The record of a driver-reported kernel on a device: the driver's figures as an image of {@code library}
     * ({@link LaunchedImage#DRIVER_LIBRARY} for a kernel in no scanned file).
     */
    static KernelRecord driverRecord(LaunchedKernel kernel, ComputeCapability capability, String library) {
        var frame = kernel.driver();
        GpuArch arch = frame.arch() != null ? frame.arch()
                : new GpuArch(capability, io.github.cudastackbudget.core.arch.ArchVariant.BASE);
        return new KernelRecord(library, arch, kernel.name(),
                frame.registers() == null ? 0 : frame.registers(), frame.localBytes(), false,
                frame.sharedBytes() == null ? 0 : frame.sharedBytes(), 0);
    }

    private static LaunchedFigures launchedFigures(List<FunctionChoice> choices,
            Map<KernelRecord.FunctionKey, KernelRecord> jitImages, Launched launched, long threads,
            ComputeCapability capability) {
        List<DriverDifference> differences = new ArrayList<>();
        List<LaunchedKernel> otherArch = new ArrayList<>();
        List<LaunchedImage> kernels = new ArrayList<>();
        List<FunctionChoice> jit = new ArrayList<>();
        List<FunctionChoice> cannotRun = new ArrayList<>();
        for (FunctionChoice choice : choices) {
            LaunchedKernel launch = launched.functions().get(choice.function());
            if (launch == null) {
                continue;
            }
            switch (choice.outcome()) {
                case SASS, AMBIGUOUS -> {
                    kernels.add(new LaunchedImage(choice.chosen(), launch));
                    KernelRecord image = choice.chosen();
                    if (launch.driverFrameKnown() && driverArchRunsOn(launch.driver(), capability)
                            && (image.stackUnknown() || image.stack() != launch.driver().localBytes())) {
                        differences.add(new DriverDifference(image, launch.driver()));
                    }
                }
                case JIT -> {
                    // a PTX-only kernel the run launched: the driver's JIT frame, where the log has it for this device
                    if (launch.driverFrameKnown() && launch.driver().arch() != null
                            && CompatibilityRules.sassRunsOn(launch.driver().arch(), capability)) {
                        kernels.add(new LaunchedImage(driverRecord(launch, capability, choice.function().library()),
                                launch, FrameSource.DRIVER));
                    } else if (jitImages.get(choice.function()) != null) {
                        // no driver figure for this device: the frame ptxas computed for the PTX it would JIT
                        kernels.add(new LaunchedImage(jitImages.get(choice.function()), launch));
                    } else {
                        jit.add(choice);
                    }
                }
                case CANNOT_RUN -> cannotRun.add(choice);
                default -> throw new IllegalStateException(choice.outcome().toString());
            }
        }
        for (LaunchedKernel kernel : launched.unmatched()) {
            if (!kernel.driverFrameKnown()) {
                continue;
            }
            if (driverArchRunsOn(kernel.driver(), capability)) {
                kernels.add(new LaunchedImage(driverRecord(kernel, capability, LaunchedImage.DRIVER_LIBRARY), kernel,
                        FrameSource.DRIVER));
            } else {
                otherArch.add(kernel);
            }
        }
        differences.sort(Comparator.comparing(difference -> difference.image().name()));
        kernels.sort(Comparator.comparing(LaunchedImage::image, LARGEST_FRAME_FIRST));
        List<KernelRecord> unknown = kernels.stream().map(LaunchedImage::image).filter(KernelRecord::stackUnknown)
                .toList();
        KernelRecord worst = kernels.stream().map(LaunchedImage::image).filter(record -> !record.stackUnknown())
                .findFirst().orElse(null);
        long frame = worst == null ? 0 : worst.stack();
        return new LaunchedFigures(launched.headline(), Reservation.bytesFor(threads, frame),
                Reservation.incrementFor(threads, frame), worst, kernels, jit, cannotRun, unknown, differences,
                otherArch);
    }

    /**
     * The chosen images and the computed (JIT) ones in {@link #LARGEST_FRAME_FIRST} order. Without computed ones the
     * choices come in function order (library, then name: the index's), one image per function, so a stable sort by
     * frame alone gives that order without comparing tens of thousands of long mangled names (issue 11).
     */
    private static List<KernelRecord> largestFrameFirst(List<FunctionChoice> choices,
            Map<KernelRecord.FunctionKey, KernelRecord> jitImages) {
        List<KernelRecord> selected = new ArrayList<>(choices.size() + jitImages.size());
        for (FunctionChoice choice : choices) {
            if (choice.chosen() != null) {
                selected.add(choice.chosen());
            }
        }
        if (jitImages.isEmpty()) {
            selected.sort(Comparator.comparingLong(KernelRecord::stackForRanking).reversed());
        } else {
            selected.addAll(jitImages.values());
            selected.sort(LARGEST_FRAME_FIRST);
        }
        return java.util.Collections.unmodifiableList(selected);
    }

    private static List<FunctionChoice> filter(List<FunctionChoice> choices, FunctionChoice.Outcome outcome) {
        return choices.stream().filter(choice -> choice.outcome() == outcome).toList();
    }
}
