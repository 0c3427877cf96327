package io.github.cudastackbudget.core.report.model;

import java.util.Objects;

/**
 * A launched kernel whose static image's frame differs from the driver's on a device of the driver's arch.
 *
 * @param image  the image the static rules chose
 * @param driver the driver's figures
 */
public record DriverDifferenceRow(KernelRow image, DriverFrameRow driver) {

    public DriverDifferenceRow {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(driver, "driver");
    }
}
