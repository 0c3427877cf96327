package io.github.cudastackbudget.core.device;

/**
 * A device as a user writes it (every field a string, any may be null): either {@code preset}, or {@code name},
 * {@code computeCapability} and {@code maxResidentThreads} (or {@code multiProcessorCount} and
 * {@code maxThreadsPerMultiProcessor}); optional {@code memory} and {@code maxReservation}. With a preset, the other
 * fields override the catalog's.
 */
public record DeviceDefinition(String preset, String name, String computeCapability, String maxResidentThreads,
        String multiProcessorCount, String maxThreadsPerMultiProcessor, String memory, String maxReservation) {

    /** A preset with nothing overridden. */
    public static DeviceDefinition preset(String id) {
        return new DeviceDefinition(id, null, null, null, null, null, null, null);
    }
}
