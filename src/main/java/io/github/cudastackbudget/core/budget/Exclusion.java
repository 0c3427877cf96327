package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.model.KernelRecord;

/**
 * Which functions leave a device's verdict (the suppressions of {@code core.gate}): an excluded function counts for
 * neither the device's reservation nor its frame limit, and its image is listed apart
 * ({@link DeviceResult#excluded()}).
 */
@FunctionalInterface
public interface Exclusion {

    /** Nothing is excluded. */
    Exclusion NONE = (device, function) -> false;

    /** True when {@code function} leaves the verdict of {@code device}. */
    boolean excludes(DeviceSpec device, KernelRecord.FunctionKey function);
}
