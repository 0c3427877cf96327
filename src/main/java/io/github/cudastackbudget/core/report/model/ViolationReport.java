package io.github.cudastackbudget.core.report.model;

import java.util.Objects;

/**
 * A budget exceeded on a device.
 *
 * @param device      the device's name
 * @param kind        {@code reservation} (maxReservation) or {@code stack} (maxStackPerThread)
 * @param actual      the figure in bytes
 * @param limit       the limit in bytes
 * @param kernel      the kernel's mangled name
 * @param displayName its readable name
 * @param library     its library
 * @param arch        its image's arch
 */
public record ViolationReport(String device, String kind, long actual, long limit, String kernel, String displayName,
        String library, String arch) {

    public ViolationReport {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(kind, "kind");
        displayName = displayName == null ? kernel : displayName;
    }

    /** True for a maxReservation violation, false for a maxStackPerThread one. */
    public boolean reservation() {
        return "reservation".equals(kind);
    }
}
