package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.launch.DriverFrame;
import io.github.cudastackbudget.core.model.KernelRecord;
import java.util.Objects;

/**
 * A launched kernel whose frame the driver reported differently from the image the static rules chose on a device the
 * run could have used: the driver loaded another image than the rules chose (or the scanned file is not the one the
 * run loaded).
 *
 * @param image  the image the static rules chose (its STACK and arch)
 * @param driver the driver's figures (its local size and the arch of the image it loaded)
 */
public record DriverDifference(KernelRecord image, DriverFrame driver) {

    public DriverDifference {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(driver, "driver");
    }
}
