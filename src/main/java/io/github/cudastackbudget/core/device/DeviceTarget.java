package io.github.cudastackbudget.core.device;

import java.util.Objects;

/**
 * A device to check and its own budget.
 *
 * @param device         the device
 * @param maxReservation its budget, or null to use the default budget (if any)
 */
public record DeviceTarget(DeviceSpec device, SizeLimit maxReservation) {
    public DeviceTarget {
        Objects.requireNonNull(device, "device");
    }
}
