package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.budget.Reservation;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One device's verdict with everything the pages show about it.
 *
 * @param name                           the configured name (or the preset id)
 * @param preset                         the catalog id, or null
 * @param computeCapability              {@code 9.0}
 * @param targetArch                     {@code sm_90}
 * @param maxResidentThreads             SMs x resident threads per SM
 * @param multiProcessorCount            SM count when known, else null
 * @param memoryBytes                    device memory when known, else null
 * @param figuresSource                  where the device figures come from (may be empty)
 * @param status                         pass, fail or skipped
 * @param skipReason                     why it was skipped, else null
 * @param chosenArch                     the highest embedded SASS arch that runs on it, null when skipped
 * @param fellBack                       the chosen arch's compute capability differs from the device's
 * @param imageCounts                    image arch -> functions that run that image on this device
 * @param reservationBytes               the headline reservation
 * @param staticReservationBytes         the static worst case
 * @param incrementBytes                 the part above the driver's default 1024-B per-thread limit
 * @param budgetBytes                    the budget, or null without one
 * @param worstKernel                    the image with the largest known frame, or null
 * @param worstLocalKernel               the image with the largest LOCAL, or null when none spills
 * @param nextWorstKernel                the next-largest known frame after the worst kernel, or null
 * @param reservationIfWorstShrinksBytes the static reservation if the worst kernel's frame shrank to the next-worst
 *                                       frame (0 when it is the only kernel with a frame); null without a worst kernel
 * @param selectedKernels                the image counted for every function, largest frame first (UNKNOWN first)
 * @param unknownStack                   counted images whose frame is UNKNOWN
 * @param jit                            functions the device would JIT-compile from PTX
 * @param cannotRun                      functions with neither loadable SASS nor usable PTX
 * @param ambiguous                      functions with an undocumented choice between images
 * @param violations                     the budgets exceeded on this device
 * @param launched                       launched-mode figures when the check read a launch log, else null
 * @param maxThreadsPerMultiProcessor    resident threads per SM when known, else null; the JSON does not store it, so
 *                                       a report read from JSON divides the threads by the SMs
 * @param platforms                      per platform, where libraries of more than one platform were read: the
 *                                       device over that platform's libraries alone, in platform order; else empty
 */
public record DeviceReport(String name, String preset, String computeCapability, String targetArch,
        long maxResidentThreads, Long multiProcessorCount, Long memoryBytes, String figuresSource, Verdict status,
        String skipReason, String chosenArch, boolean fellBack, SortedMap<String, Integer> imageCounts,
        long reservationBytes, long staticReservationBytes, long incrementBytes, Long budgetBytes,
        KernelRow worstKernel, KernelRow worstLocalKernel, KernelRow nextWorstKernel,
        Long reservationIfWorstShrinksBytes, List<KernelRow> selectedKernels, List<KernelRow> unknownStack,
        List<FunctionNote> jit, List<FunctionNote> cannotRun, List<FunctionNote> ambiguous,
        List<ViolationReport> violations, LaunchedDeviceReport launched, Long maxThreadsPerMultiProcessor,
        List<PlatformReport> platforms) {

    /** A device without a per-platform breakdown. */
    public DeviceReport(String name, String preset, String computeCapability, String targetArch,
            long maxResidentThreads, Long multiProcessorCount, Long memoryBytes, String figuresSource, Verdict status,
            String skipReason, String chosenArch, boolean fellBack, SortedMap<String, Integer> imageCounts,
            long reservationBytes, long staticReservationBytes, long incrementBytes, Long budgetBytes,
            KernelRow worstKernel, KernelRow worstLocalKernel, KernelRow nextWorstKernel,
            Long reservationIfWorstShrinksBytes, List<KernelRow> selectedKernels, List<KernelRow> unknownStack,
            List<FunctionNote> jit, List<FunctionNote> cannotRun, List<FunctionNote> ambiguous,
            List<ViolationReport> violations, LaunchedDeviceReport launched, Long maxThreadsPerMultiProcessor) {
        this(name, preset, computeCapability, targetArch, maxResidentThreads, multiProcessorCount, memoryBytes,
                figuresSource, status, skipReason, chosenArch, fellBack, imageCounts, reservationBytes,
                staticReservationBytes, incrementBytes, budgetBytes, worstKernel, worstLocalKernel, nextWorstKernel,
                reservationIfWorstShrinksBytes, selectedKernels, unknownStack, jit, cannotRun, ambiguous, violations,
                launched, maxThreadsPerMultiProcessor, List.of());
    }

    /** The same device with a per-platform breakdown. */
    public DeviceReport withPlatforms(List<PlatformReport> breakdown) {
        return new DeviceReport(name, preset, computeCapability, targetArch, maxResidentThreads, multiProcessorCount,
                memoryBytes, figuresSource, status, skipReason, chosenArch, fellBack, imageCounts, reservationBytes,
                staticReservationBytes, incrementBytes, budgetBytes, worstKernel, worstLocalKernel, nextWorstKernel,
                reservationIfWorstShrinksBytes, selectedKernels, unknownStack, jit, cannotRun, ambiguous, violations,
                launched, maxThreadsPerMultiProcessor, breakdown);
    }

    public DeviceReport {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        figuresSource = figuresSource == null ? "" : figuresSource;
        imageCounts = Collections.unmodifiableSortedMap(new TreeMap<>(imageCounts));
        selectedKernels = List.copyOf(selectedKernels);
        unknownStack = List.copyOf(unknownStack);
        jit = List.copyOf(jit);
        cannotRun = List.copyOf(cannotRun);
        ambiguous = List.copyOf(ambiguous);
        violations = List.copyOf(violations);
        platforms = platforms == null ? List.of() : List.copyOf(platforms);
    }

    /** A device whose threads per SM are its threads divided by its SMs (when they divide). */
    public DeviceReport(String name, String preset, String computeCapability, String targetArch,
            long maxResidentThreads, Long multiProcessorCount, Long memoryBytes, String figuresSource, Verdict status,
            String skipReason, String chosenArch, boolean fellBack, SortedMap<String, Integer> imageCounts,
            long reservationBytes, long staticReservationBytes, long incrementBytes, Long budgetBytes,
            KernelRow worstKernel, KernelRow worstLocalKernel, KernelRow nextWorstKernel,
            Long reservationIfWorstShrinksBytes, List<KernelRow> selectedKernels, List<KernelRow> unknownStack,
            List<FunctionNote> jit, List<FunctionNote> cannotRun, List<FunctionNote> ambiguous,
            List<ViolationReport> violations, LaunchedDeviceReport launched) {
        this(name, preset, computeCapability, targetArch, maxResidentThreads, multiProcessorCount, memoryBytes,
                figuresSource, status, skipReason, chosenArch, fellBack, imageCounts, reservationBytes,
                staticReservationBytes, incrementBytes, budgetBytes, worstKernel, worstLocalKernel, nextWorstKernel,
                reservationIfWorstShrinksBytes, selectedKernels, unknownStack, jit, cannotRun, ambiguous, violations,
                launched, multiProcessorCount == null || multiProcessorCount == 0
                        || maxResidentThreads % multiProcessorCount != 0 ? null
                        : maxResidentThreads / multiProcessorCount);
    }

    /** True when the headline is the launched kernels' figure (launched mode with a complete log). */
    public boolean launchedHeadline() {
        return launched != null && launched.headline();
    }

    public boolean skipped() {
        return status == Verdict.SKIPPED;
    }

    /** Budget minus reservation (negative when over), or null without a budget. */
    public Long headroomBytes() {
        return budgetBytes == null ? null : budgetBytes - reservationBytes;
    }

    /** The reservation as a percentage of the budget ({@code 87.5%}), or null without a budget. */
    public String percentOfBudget() {
        return budgetBytes == null ? null : Figures.percent(reservationBytes, budgetBytes);
    }

    /** The reservation as a percentage of device memory, or null when the memory is unknown. */
    public String percentOfMemory() {
        return memoryBytes == null ? null : Figures.percent(reservationBytes, memoryBytes);
    }

    /** The per-thread stack limit the driver sets for the headline's worst kernel, 0 without one. */
    public long stackLimitBytes() {
        return worstKernel == null ? 0 : Reservation.stackLimitFor(worstKernel.stack());
    }

    /** The image with the largest known frame among every kernel the device runs (the static bound's worst). */
    public KernelRow staticWorstKernel() {
        return launched != null ? launched.staticWorstKernel() : worstKernel;
    }

    /** The static worst case's part above the driver's default per-thread limit. */
    public long staticIncrementBytes() {
        KernelRow worst = staticWorstKernel();
        return Reservation.incrementFor(maxResidentThreads, worst == null ? 0 : worst.stack());
    }

    /** What the driver's default per-thread limit already holds on this device. */
    public long defaultReservationBytes() {
        return Reservation.bytesFor(maxResidentThreads, Reservation.DEFAULT_STACK_LIMIT);
    }

    /** What shrinking the worst kernel's frame to the next-worst would save on the static reservation, or null. */
    public Long savingIfWorstShrinksBytes() {
        return reservationIfWorstShrinksBytes == null ? null : staticReservationBytes - reservationIfWorstShrinksBytes;
    }

    /** The counted images with a frame (known and larger than 0, or UNKNOWN), largest first. */
    public List<KernelRow> kernelsWithFrame() {
        int end = 0;
        while (end < selectedKernels.size() && selectedKernels.get(end).hasFrame()) {
            end++;
        }
        return selectedKernels.subList(0, end);
    }

    /** The first {@code top} of {@link #kernelsWithFrame()} ({@code top <= 0}: all). */
    public List<KernelRow> worstKernels(int top) {
        List<KernelRow> framed = kernelsWithFrame();
        return top <= 0 || top >= framed.size() ? framed : framed.subList(0, top);
    }

    /** True when the reservation is within {@code percent} of the budget or over it (e.g. 80 = "near budget"). */
    public boolean nearOrOverBudget(int percent) {
        return budgetBytes != null && reservationBytes * 100 >= budgetBytes * percent;
    }
}
