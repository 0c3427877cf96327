package io.github.cudastackbudget.core.gate;

import io.github.cudastackbudget.core.model.KernelRecord;
import java.util.Objects;

/**
 * A kernel image that left a device's verdict because a suppression covers it.
 *
 * @param device           the device's name
 * @param image            the image the device would run (its frame, arch and library)
 * @param reservationBytes what that frame alone would reserve on the device (threads x roundup16(frame))
 * @param entry            the suppression that covers it (the first active entry of the file that matches)
 */
public record SuppressedKernel(String device, KernelRecord image, long reservationBytes, Suppression entry) {

    public SuppressedKernel {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(entry, "entry");
    }
}
