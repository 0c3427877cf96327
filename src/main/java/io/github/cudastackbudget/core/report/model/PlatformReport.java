package io.github.cudastackbudget.core.report.model;

import java.util.Objects;

/**
 * One platform's part of a device's verdict, where libraries of more than one platform were read (JSON: the device's
 * {@code platforms} list): the device over that platform's libraries alone, static worst case.
 *
 * @param platform         {@code linux-x86_64}, {@code windows-x86_64}, {@code unknown}
 * @param gated            whether that platform's libraries are judged against the budgets
 * @param status           the verdict over that platform's libraries alone (a platform not gated never fails the
 *                         check)
 * @param reservationBytes the static reservation of its worst kernel (0 when skipped or without a frame)
 * @param worstKernel      that kernel (its library names the platform's worst library), or null
 */
public record PlatformReport(String platform, boolean gated, Verdict status, long reservationBytes,
        KernelRow worstKernel) {

    public PlatformReport {
        Objects.requireNonNull(platform, "platform");
        Objects.requireNonNull(status, "status");
    }
}
