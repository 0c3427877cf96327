package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.gate.GateOptions;
import java.util.List;

/**
 * One {@code <rule>} of {@code check}'s {@code <rules>} (as jacoco's): what it judges ({@code <element>}
 * {@code DEVICE}, {@code LIBRARY} or {@code KERNEL}; default {@code DEVICE}), which of those
 * ({@code <includes><include>} and {@code <excludes><exclude>} globs; default all) and its {@code <limits>}.
 */
public class Rule {

    /** {@code DEVICE} (the default), {@code LIBRARY} or {@code KERNEL}. */
    private String element;

    /**
     * Globs ({@code *}, {@code ?}) over the device name or preset id, the library label or file name, or the kernel's
     * mangled or demangled name; empty: all.
     */
    private List<String> includes;

    /** Globs of the elements left out (as {@code includes}). */
    private List<String> excludes;

    /** The limits, each a {@code <limit>} with {@code <counter>}, {@code <maximum>} and {@code <level>}. */
    private List<Limit> limits;

    GateOptions.RuleSpec toSpec() {
        return new GateOptions.RuleSpec(element, includes, excludes,
                limits == null ? List.of() : limits.stream().map(limit -> limit == null ? null : limit.toSpec())
                        .toList());
    }

    public void setElement(String element) {
        this.element = element;
    }

    public void setIncludes(List<String> includes) {
        this.includes = includes;
    }

    public void setExcludes(List<String> excludes) {
        this.excludes = excludes;
    }

    public void setLimits(List<Limit> limits) {
        this.limits = limits;
    }

    // conv (issue 12): the Maven Build Cache Extension compares parameters by their text (reconcile of rules)
    /** Every configured field in a fixed order, so that a build cache comparing {@code rules} by text sees a change. */
    @Override
    public String toString() {
        return "Rule[element=" + element + ", includes=" + includes + ", excludes=" + excludes + ", limits=" + limits
                + "]";
    }
}
