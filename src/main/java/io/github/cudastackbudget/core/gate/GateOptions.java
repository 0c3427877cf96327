package io.github.cudastackbudget.core.gate;

import java.nio.file.Path;

/**
 * The suppressions and rules of a check as the user wrote them (issue 12).
 *
 * @param suppressions             the suppressions file, or null
 * @param failOnUnusedSuppressions an entry that matched nothing fails the check (else a warning)
 */
public record GateOptions(Path suppressions, boolean failOnUnusedSuppressions) {

    /** No suppressions, no rules. */
    public static final GateOptions NONE = new GateOptions(null, false);
}
