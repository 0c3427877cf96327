package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.device.DeviceDefinition;

/**
 * A target GPU in the POM: either {@code <preset>h200-141gb</preset>} (a catalog id; any other field overrides the
 * catalog's), or {@code <name>}, {@code <computeCapability>} ({@code 9.0}, {@code 90}, {@code sm_90}) and
 * {@code <maxResidentThreads>} (or {@code <multiProcessorCount>} and {@code <maxThreadsPerMultiProcessor>}); optional
 * {@code <memory>} ({@code 141 GiB}) for percentage budgets, its own {@code <maxReservation>}, its own
 * {@code <maxStackPerThread>} (used before the global one) and its own {@code <maxGrowth>} over a baseline.
 */
public class Device {

    /** Catalog id, e.g. {@code h200-141gb}, {@code l4}, {@code rtx-5090}. */
    private String preset;

    /** How reports name the device (defaults to the preset id). */
    private String name;

    /** Compute capability: {@code 9.0}, {@code 90}, {@code sm_90} or {@code sm_9.0}. */
    private String computeCapability;

    /** multiProcessorCount x maxThreadsPerMultiProcessor, e.g. 270336 for an H200. */
    private String maxResidentThreads;

    /** SM count (with maxThreadsPerMultiProcessor instead of maxResidentThreads). */
    private String multiProcessorCount;

    /** Resident threads per SM (2048 on most data-centre GPUs, 1536 or 1024 on others). */
    private String maxThreadsPerMultiProcessor;

    /** Device memory, e.g. {@code 80 GiB}; needed for percentage budgets on devices without a preset. */
    private String memory;

    /** This device's budget: {@code 1.5 GiB}, {@code 512MiB}, bytes, or {@code 2%} of its memory. */
    private String maxReservation;

    /**
     * This device's largest allowed stack frame per thread ({@code 4096}, {@code 8 KiB}), used instead of the global
     * {@code maxStackPerThread} for this device.
     */
    private String maxStackPerThread;

    // issue 12, baselines
    /**
     * This device's allowed growth over the baseline ({@code 64 MiB}, bytes, or {@code 10%} of the baseline's
     * reservation), before the {@code check} goal's {@code maxGrowth}.
     */
    private String maxGrowth;

    DeviceDefinition toDefinition() {
        return new DeviceDefinition(preset, name, computeCapability, maxResidentThreads, multiProcessorCount,
                maxThreadsPerMultiProcessor, memory, maxReservation, maxStackPerThread, maxGrowth);
    }

    public void setMaxGrowth(String maxGrowth) {
        this.maxGrowth = maxGrowth;
    }

    public void setPreset(String preset) {
        this.preset = preset;
    }

    public void setName(String name) {
        this.name = name;
    }

    public void setComputeCapability(String computeCapability) {
        this.computeCapability = computeCapability;
    }

    public void setMaxResidentThreads(String maxResidentThreads) {
        this.maxResidentThreads = maxResidentThreads;
    }

    public void setMultiProcessorCount(String multiProcessorCount) {
        this.multiProcessorCount = multiProcessorCount;
    }

    public void setMaxThreadsPerMultiProcessor(String maxThreadsPerMultiProcessor) {
        this.maxThreadsPerMultiProcessor = maxThreadsPerMultiProcessor;
    }

    public void setMemory(String memory) {
        this.memory = memory;
    }

    public void setMaxReservation(String maxReservation) {
        this.maxReservation = maxReservation;
    }

    public void setMaxStackPerThread(String maxStackPerThread) {
        this.maxStackPerThread = maxStackPerThread;
    }

    // conv (issue 12): the Maven Build Cache Extension compares parameters by their text (reconcile of devices)
    /**
     * Every configured field, in a fixed order: the same configuration gives the same text, so a build cache that
     * compares the {@code devices} parameter by its text (the Build Cache Extension's reconcile) sees a change.
     */
    @Override
    public String toString() {
        return "Device[preset=" + preset + ", name=" + name + ", computeCapability=" + computeCapability
                + ", maxResidentThreads=" + maxResidentThreads + ", multiProcessorCount=" + multiProcessorCount
                + ", maxThreadsPerMultiProcessor=" + maxThreadsPerMultiProcessor + ", memory=" + memory
                + ", maxReservation=" + maxReservation + ", maxStackPerThread=" + maxStackPerThread + ", maxGrowth="
                + maxGrowth + "]";
    }
}
