package io.github.cudastackbudget.core.device;

/**
 * A device as a user writes it (every field a string, any may be null): either {@code preset}, or {@code name},
 * {@code computeCapability} and {@code maxResidentThreads} (or {@code multiProcessorCount} and
 * {@code maxThreadsPerMultiProcessor}); optional {@code memory}, {@code maxReservation} and
 * {@code maxStackPerThread} (this device's frame limit, before the global one). With a preset, the other fields
 * override the catalog's.
 */
public record DeviceDefinition(String preset, String name, String computeCapability, String maxResidentThreads,
        String multiProcessorCount, String maxThreadsPerMultiProcessor, String memory, String maxReservation,
        String maxStackPerThread,
        // issue 12, baselines: this device's own maxGrowth (a size or a percentage of the baseline's reservation)
        String maxGrowth) {

    /** A device without its own maxGrowth. */
    public DeviceDefinition(String preset, String name, String computeCapability, String maxResidentThreads,
            String multiProcessorCount, String maxThreadsPerMultiProcessor, String memory, String maxReservation,
            String maxStackPerThread) {
        this(preset, name, computeCapability, maxResidentThreads, multiProcessorCount, maxThreadsPerMultiProcessor,
                memory, maxReservation, maxStackPerThread, null);
    }

    /** A device without its own frame limit. */
    public DeviceDefinition(String preset, String name, String computeCapability, String maxResidentThreads,
            String multiProcessorCount, String maxThreadsPerMultiProcessor, String memory, String maxReservation) {
        this(preset, name, computeCapability, maxResidentThreads, multiProcessorCount, maxThreadsPerMultiProcessor,
                memory, maxReservation, (String) null);
    }

    /** A preset with nothing overridden. */
    public static DeviceDefinition preset(String id) {
        return new DeviceDefinition(id, null, null, null, null, null, null, null, null);
    }
}
