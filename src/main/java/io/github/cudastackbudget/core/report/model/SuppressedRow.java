package io.github.cudastackbudget.core.report.model;

import java.util.Objects;

/**
 * A kernel that left a device's verdict because a suppression covers it (JSON {@code suppressed}).
 *
 * @param device           the device's name
 * @param kernel           the image the device would run
 * @param reservationBytes what its frame alone would reserve on the device
 * @param entry            the suppression entry's position in the file, from 1
 * @param pattern          the entry's kernel pattern
 * @param reason           the entry's reason
 * @param until            the entry's last day ({@code yyyy-MM-dd}), or null for no expiry
 */
public record SuppressedRow(String device, KernelRow kernel, long reservationBytes, int entry, String pattern,
        String reason, String until) {

    public SuppressedRow {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(reason, "reason");
        pattern = pattern == null ? "" : pattern;
    }

    /** {@code suppression[1], until 2027-06-30: tile staging, fixed in 2.0}. */
    public String because() {
        return "suppression[" + entry + "]" + (until == null ? "" : ", until " + until) + ": " + reason;
    }
}
