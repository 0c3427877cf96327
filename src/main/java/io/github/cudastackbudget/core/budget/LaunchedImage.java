package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import java.util.Objects;

/**
 * A launched kernel on one device: the image the device runs and what the launch log says.
 *
 * @param image  the image the device runs (its STACK, SHARED, LOCAL, REG)
 * @param launch the log's data: attributions, largest dynamic shared memory
 */
public record LaunchedImage(KernelRecord image, LaunchedKernel launch) {

    public LaunchedImage {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(launch, "launch");
    }

    /** Shared memory per block: static SHARED of the image plus the largest dynamic request. */
    public long sharedPerBlock() {
        return image.shared() + launch.dynamicSharedOrZero();
    }
}
