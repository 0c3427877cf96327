package io.github.cudastackbudget.core.device;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.Objects;

/**
 * A target GPU: what the stack reservation depends on.
 *
 * @param name                        how reports name it (the configured name verbatim, or the preset id)
 * @param presetId                    the catalog id when it came from the catalog, else null
 * @param capability                  its compute capability
 * @param maxResidentThreads          multiProcessorCount x maxThreadsPerMultiProcessor
 * @param multiProcessorCount         SM count when known, else null
 * @param maxThreadsPerMultiProcessor resident threads per SM when known, else null
 * @param memoryBytes                 device memory when known (for percentage budgets), else null
 * @param source                      where the figures come from (catalog source, "configured", "detected")
 */
public record DeviceSpec(String name, String presetId, ComputeCapability capability, long maxResidentThreads,
        Integer multiProcessorCount, Integer maxThreadsPerMultiProcessor, Long memoryBytes, String source) {

    public DeviceSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(capability, "capability");
        if (maxResidentThreads <= 0) {
            throw new InvalidValueException("device '" + name + "': maxResidentThreads must be positive, got "
                    + maxResidentThreads);
        }
        if (memoryBytes != null && memoryBytes <= 0) {
            throw new InvalidValueException("device '" + name + "': memory must be positive, got " + memoryBytes);
        }
        source = source == null ? "" : source;
    }

    /** The same device under another name. */
    public DeviceSpec named(String newName) {
        return new DeviceSpec(newName, presetId, capability, maxResidentThreads, multiProcessorCount,
                maxThreadsPerMultiProcessor, memoryBytes, source);
    }

    /** The same device with a known memory size. */
    public DeviceSpec withMemory(Long bytes) {
        return new DeviceSpec(name, presetId, capability, maxResidentThreads, multiProcessorCount,
                maxThreadsPerMultiProcessor, bytes, source);
    }
}
