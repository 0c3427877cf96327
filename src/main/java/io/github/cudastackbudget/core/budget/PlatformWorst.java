package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.model.KernelRecord;
import java.util.Objects;

/**
 * One platform's part of a device's verdict, where libraries of more than one platform were read: the device judged
 * over that platform's libraries alone (the static worst case).
 *
 * @param platform         the platform ({@code linux-x86_64}, {@code windows-x86_64}, {@code unknown})
 * @param gated            whether that platform's libraries are judged against the budgets (the {@code platforms}
 *                         option)
 * @param status           the verdict over that platform's libraries alone (skipped when none of its SASS runs on
 *                         the device); a platform that is not gated never fails the check, whatever it says
 * @param reservationBytes the static reservation its worst kernel causes (0 when skipped or without a frame)
 * @param worst            the kernel with the largest known frame among the images the device runs from that
 *                         platform's libraries (its library label names the library), or null
 */
public record PlatformWorst(String platform, boolean gated, DeviceResult.Status status, long reservationBytes,
        KernelRecord worst) {

    public PlatformWorst {
        Objects.requireNonNull(platform, "platform");
        Objects.requireNonNull(status, "status");
    }
}
