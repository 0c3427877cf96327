package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.gate.GateOptions;

/**
 * One {@code <limit>} of a {@code <rule>}: a {@code <counter>} ({@code RESERVATION}, the default; {@code INCREMENT};
 * {@code FRAME}; {@code MEMORY_SHARE}), a {@code <maximum>} ({@code 1 GiB}, {@code 4096}, or {@code 2%} of the
 * device's memory) and a {@code <level>} ({@code ERROR}, the default, or {@code WARN}).
 */
public class Limit {

    /** {@code RESERVATION} (the default), {@code INCREMENT}, {@code FRAME} or {@code MEMORY_SHARE}. */
    private String counter;

    /** The largest allowed value: a size ({@code 1 GiB}, {@code 512MiB}, bytes) or a share of memory ({@code 2%}). */
    private String maximum;

    /** {@code ERROR} (the default: a breach fails the build) or {@code WARN} (a breach is logged as a warning). */
    private String level;

    GateOptions.LimitSpec toSpec() {
        return new GateOptions.LimitSpec(counter, maximum, level);
    }

    public void setCounter(String counter) {
        this.counter = counter;
    }

    public void setMaximum(String maximum) {
        this.maximum = maximum;
    }

    public void setLevel(String level) {
        this.level = level;
    }

    // conv (issue 12): the Maven Build Cache Extension compares parameters by their text (reconcile of rules)
    /** Every configured field in a fixed order, so that a build cache comparing {@code rules} by text sees a change. */
    @Override
    public String toString() {
        return "Limit[counter=" + counter + ", maximum=" + maximum + ", level=" + level + "]";
    }
}
