package io.github.cudastackbudget.core.device;

import java.util.Objects;

/**
 * A device to check and its own budget.
 *
 * @param device         the device
 * @param maxReservation    its budget, or null to use the default budget (if any)
 * @param maxStackPerThread its own per-kernel frame limit in bytes, or null to use the global one (if any)
 * @param maxGrowth         its allowed growth over a baseline, or null to use the default ({@code maxGrowth}, if
 *                          any; issue 12)
 */
public record DeviceTarget(DeviceSpec device, SizeLimit maxReservation, Long maxStackPerThread,
        GrowthLimit maxGrowth) {

    /** A device without its own maxGrowth. */
    public DeviceTarget(DeviceSpec device, SizeLimit maxReservation, Long maxStackPerThread) {
        this(device, maxReservation, maxStackPerThread, null);
    }

    /** A device without its own frame limit. */
    public DeviceTarget(DeviceSpec device, SizeLimit maxReservation) {
        this(device, maxReservation, (Long) null);
    }

    public DeviceTarget {
        Objects.requireNonNull(device, "device");
    }
}
