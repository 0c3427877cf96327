package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.budget.Violation;
import java.util.Objects;

/**
 * A budget exceeded on a device.
 *
 * @param device      the device's name
 * @param kind        the device's reservation against maxReservation, or one kernel's frame against
 *                    maxStackPerThread
 * @param actual      the figure in bytes
 * @param limit       the limit in bytes
 * @param kernel      the kernel's mangled name
 * @param displayName its readable name
 * @param library     its library
 * @param arch        its image's arch
 */
public record ViolationReport(String device, Violation.Kind kind, long actual, long limit, String kernel,
        String displayName, String library, String arch) {

    public ViolationReport {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(kind, "kind");
        displayName = displayName == null ? kernel : displayName;
    }

    /** True for a maxReservation violation, false for a maxStackPerThread one. */
    public boolean reservation() {
        return kind == Violation.Kind.RESERVATION;
    }
}
