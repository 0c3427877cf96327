package io.github.cudastackbudget.core.gate;

import java.util.Locale;
import java.util.Objects;

/**
 * One named check of the gate beyond the per-device budgets (a rule's limit, a suppression entry, a baseline
 * comparison): the seam through which every output shows them alike (a JUnit test case, a SARIF result, a Markdown
 * row, a JSON entry, a log line). A {@link Outcome#FAIL} fails the check as an exceeded budget does; a
 * {@link Outcome#WARN} is reported and logged as a warning.
 *
 * @param category what kind of check: {@code rule}, {@code suppression}, {@code baseline}
 * @param name     a stable, human-readable name, unique within the category (a JUnit test case name)
 * @param outcome  pass, warn or fail
 * @param device   the device it concerns, or null
 * @param library  the library it concerns (as the reports name it), or null
 * @param kernel   the kernel's mangled name, or null
 * @param arch     the kernel image's arch, or null
 * @param actual   the figure in bytes (or the per-mille share), or null
 * @param limit    the limit in the same unit, or null
 * @param message  one line that says what was found, naming the device, kernel and library where there are some
 */
public record GateCheck(String category, String name, Outcome outcome, String device, String library, String kernel,
        String arch, Long actual, Long limit, String message) {

    /** What a check found. */
    public enum Outcome {
        PASS, WARN, FAIL;

        /** The JSON spelling: {@code pass}, {@code warn}, {@code fail}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses the JSON spelling. */
        public static Outcome of(String id) {
            for (Outcome outcome : values()) {
                if (outcome.id().equals(id)) {
                    return outcome;
                }
            }
            throw new IllegalArgumentException("outcome '" + id + "' is not one of pass, warn, fail");
        }
    }

    public GateCheck {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(message, "message");
    }

    /** True for a failed check. */
    public boolean failed() {
        return outcome == Outcome.FAIL;
    }
}
