package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The verdict for one device.
 *
 * @param device                 the device
 * @param status                 pass, fail or skipped
 * @param skipReason             why it was skipped (null otherwise)
 * @param chosenArch             the highest embedded SASS arch that runs on it (null when skipped)
 * @param fellBack               the chosen arch's CC differs from the device's
 * @param imageCounts            image arch label -> number of functions that run that image on this device
 * @param selected               the image counted for every function that has loadable SASS, largest frame first
 * @param worst                  the kernel with the largest known frame among all selected images (the static worst;
 *                               null when none); {@link #headlineWorst()} is the kernel behind the headline
 * @param reservationBytes       the headline reservation: maxResidentThreads x roundup16(frame of the headline's worst
 *                               kernel): the launched kernels' figure when a complete launch log was given, else the
 *                               static worst case
 * @param staticReservationBytes the static worst case (equal to the headline without a launch log)
 * @param incrementBytes         the headline's part above the driver's default 1024-B limit
 * @param budgetBytes            the resolved budget, or null without one
 * @param worstLocal             the kernel with the largest LOCAL (spill) per thread, or null when none spills
 * @param ambiguous              functions where NVIDIA documents no choice between loadable images
 * @param jit                    functions the device would JIT-compile from PTX
 * @param cannotRun              functions with neither loadable SASS nor usable PTX (while the device runs others)
 * @param unknownStack           selected images whose frame the tool reports as UNKNOWN
 * @param violations             the budgets exceeded on this device
 * @param launched               the figures over the launched kernels (launched mode), or null without a launch log
 * @param platforms              per platform, where libraries of more than one platform were read: the device over
 *                               that platform's libraries alone, in platform order; empty otherwise
 * @param excluded               the images of functions that left this device's verdict (suppressed), largest frame
 *                               first: counted neither in the reservation nor against the frame limit
 */
public record DeviceResult(DeviceSpec device, Status status, String skipReason, GpuArch chosenArch, boolean fellBack,
        SortedMap<String, Integer> imageCounts, List<KernelRecord> selected, KernelRecord worst, long reservationBytes,
        long staticReservationBytes, long incrementBytes, Long budgetBytes, KernelRecord worstLocal,
        List<FunctionChoice> ambiguous, List<FunctionChoice> jit, List<FunctionChoice> cannotRun,
        List<KernelRecord> unknownStack, List<Violation> violations, LaunchedFigures launched,
        List<PlatformWorst> platforms, List<KernelRecord> excluded) {

    /** A verdict from which no function was excluded. */
    public DeviceResult(DeviceSpec device, Status status, String skipReason, GpuArch chosenArch, boolean fellBack,
            SortedMap<String, Integer> imageCounts, List<KernelRecord> selected, KernelRecord worst,
            long reservationBytes, long staticReservationBytes, long incrementBytes, Long budgetBytes,
            KernelRecord worstLocal, List<FunctionChoice> ambiguous, List<FunctionChoice> jit,
            List<FunctionChoice> cannotRun, List<KernelRecord> unknownStack, List<Violation> violations,
            LaunchedFigures launched, List<PlatformWorst> platforms) {
        this(device, status, skipReason, chosenArch, fellBack, imageCounts, selected, worst, reservationBytes,
                staticReservationBytes, incrementBytes, budgetBytes, worstLocal, ambiguous, jit, cannotRun,
                unknownStack, violations, launched, platforms, List.of());
    }

    /** The same verdict listing the images of the functions that left it (suppressed). */
    public DeviceResult withExcluded(List<KernelRecord> images) {
        return new DeviceResult(device, status, skipReason, chosenArch, fellBack, imageCounts, selected, worst,
                reservationBytes, staticReservationBytes, incrementBytes, budgetBytes, worstLocal, ambiguous, jit,
                cannotRun, unknownStack, violations, launched, platforms, images);
    }

    /** A verdict without a per-platform breakdown. */
    public DeviceResult(DeviceSpec device, Status status, String skipReason, GpuArch chosenArch, boolean fellBack,
            SortedMap<String, Integer> imageCounts, List<KernelRecord> selected, KernelRecord worst,
            long reservationBytes, long staticReservationBytes, long incrementBytes, Long budgetBytes,
            KernelRecord worstLocal, List<FunctionChoice> ambiguous, List<FunctionChoice> jit,
            List<FunctionChoice> cannotRun, List<KernelRecord> unknownStack, List<Violation> violations,
            LaunchedFigures launched) {
        this(device, status, skipReason, chosenArch, fellBack, imageCounts, selected, worst, reservationBytes,
                staticReservationBytes, incrementBytes, budgetBytes, worstLocal, ambiguous, jit, cannotRun,
                unknownStack, violations, launched, List.of());
    }

    /** The same verdict with a per-platform breakdown. */
    public DeviceResult withPlatforms(List<PlatformWorst> breakdown) {
        return new DeviceResult(device, status, skipReason, chosenArch, fellBack, imageCounts, selected, worst,
                reservationBytes, staticReservationBytes, incrementBytes, budgetBytes, worstLocal, ambiguous, jit,
                cannotRun, unknownStack, violations, launched, breakdown, excluded);
    }

    /** The same verdict, skipped for {@code reason} (nothing judged). */
    public DeviceResult withSkipReason(String reason) {
        return new DeviceResult(device, Status.SKIPPED, reason, chosenArch, fellBack, imageCounts, selected, worst,
                reservationBytes, staticReservationBytes, incrementBytes, budgetBytes, worstLocal, ambiguous, jit,
                cannotRun, unknownStack, violations, launched, platforms, excluded);
    }

    public DeviceResult {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(status, "status");
        imageCounts = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(imageCounts));
        selected = List.copyOf(selected);
        ambiguous = List.copyOf(ambiguous);
        jit = List.copyOf(jit);
        cannotRun = List.copyOf(cannotRun);
        unknownStack = List.copyOf(unknownStack);
        violations = List.copyOf(violations);
        platforms = platforms == null ? List.of() : List.copyOf(platforms);
        excluded = excluded == null ? List.of() : List.copyOf(excluded);
    }

    /** The verdict. */
    public enum Status {
        PASS, FAIL, SKIPPED;

        /** The JSON spelling. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public boolean skipped() {
        return status == Status.SKIPPED;
    }

    /** True when the headline is the launched kernels' figure. */
    public boolean launchedHeadline() {
        return launched != null && launched.headline();
    }

    /**
     * What if the static worst kernel's frame shrank: the next-largest known frame among the images this device runs,
     * and the reservation that frame alone would cause (0 B when no other image has a known frame); null without a
     * worst kernel.
     */
    public WhatIf whatIf() {
        if (worst == null) {
            return null;
        }
        KernelRecord next = selected.stream().filter(record -> !record.stackUnknown() && !record.equals(worst))
                .findFirst().orElse(null);
        return new WhatIf(next, Reservation.bytesFor(device.maxResidentThreads(), next == null ? 0 : next.stack()));
    }

    /**
     * The static reservation if the worst kernel's frame shrank to the next-largest one.
     *
     * @param nextWorst        the image with the next-largest known frame, or null when there is none
     * @param reservationBytes the static reservation that frame would cause
     */
    public record WhatIf(KernelRecord nextWorst, long reservationBytes) {
    }

    /** The kernel behind the headline reservation: the launched worst in launched mode, else the static worst. */
    public KernelRecord headlineWorst() {
        return launchedHeadline() ? launched.worst() : worst;
    }
}
