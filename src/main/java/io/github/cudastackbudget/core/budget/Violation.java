package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.model.KernelRecord;
import java.util.Objects;

/**
 * One exceeded budget.
 *
 * @param device the device name
 * @param kind   what was exceeded
 * @param actual the measured bytes (reservation, or the kernel's stack frame per thread)
 * @param limit  the budget in bytes
 * @param kernel the kernel responsible (the worst kernel for a reservation)
 */
public record Violation(String device, Kind kind, long actual, long limit, KernelRecord kernel) {

    public Violation {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(kernel, "kernel");
    }

    /** What a budget limits. */
    public enum Kind {
        /** the device's stack reservation against maxReservation. */
        RESERVATION("reservation"),
        /** one kernel's stack frame against maxStackPerThread. */
        STACK("stack");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        /** The JSON spelling. */
        public String id() {
            return id;
        }
    }
}
