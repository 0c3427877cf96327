package io.github.cudastackbudget.core.baseline;

import io.github.cudastackbudget.core.device.GrowthLimit;
import java.util.Objects;

/**
 * The comparison a check makes, parsed and loaded once: the previous report's figures and the default growth limit
 * (each device's own limit lives on its {@code DeviceTarget}).
 *
 * @param previous  the baseline's figures
 * @param maxGrowth the growth allowed for every device without its own limit and for the overall figure, or null
 */
public record BaselineRequest(Baseline previous, GrowthLimit maxGrowth) {
    public BaselineRequest {
        Objects.requireNonNull(previous, "previous");
    }
}
