package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import java.util.Objects;

/**
 * A launched kernel on one device: the image the device runs and what the launch log says.
 *
 * @param image  the image the device runs (its STACK, SHARED, LOCAL, REG); for a driver-reported kernel a record of
 *               the driver's figures (library {@link #DRIVER_LIBRARY}, arch the driver's, STACK its local size)
 * @param launch the log's data: attributions, largest dynamic shared memory, the driver's figures
 * @param source where the frame comes from: a scanned image, or the driver (a kernel in no scanned file)
 */
public record LaunchedImage(KernelRecord image, LaunchedKernel launch, FrameSource source) {

    /** The library label of a driver-reported kernel's record. */
    public static final String DRIVER_LIBRARY = "no scanned file";

    public LaunchedImage {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(launch, "launch");
        Objects.requireNonNull(source, "source");
    }

    /** A launched kernel whose image the static rules chose. */
    public LaunchedImage(KernelRecord image, LaunchedKernel launch) {
        this(image, launch, FrameSource.STATIC);
    }

    /** Shared memory per block: static SHARED of the image plus the largest dynamic request. */
    public long sharedPerBlock() {
        return image.shared() + launch.dynamicSharedOrZero();
    }
}
