package io.github.cudastackbudget.core.gate;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * The suppressions and rules of a check as the user wrote them (issue 12); {@code core.check} parses them once,
 * before anything is scanned.
 *
 * @param suppressions             the suppressions file, or null
 * @param failOnUnusedSuppressions an entry that matched nothing fails the check (else a warning)
 * @param rules                    jacoco-style rules, in configuration order (empty: none)
 * @param clock                    today's date for the suppressions' {@code until} (the system clock in UTC by
 *                                 default; tests pass a fixed one)
 */
public record GateOptions(Path suppressions, boolean failOnUnusedSuppressions, List<RuleSpec> rules, Clock clock) {

    /** No suppressions, no rules. */
    public static final GateOptions NONE = new GateOptions(null, false);

    /** Suppressions without rules, on the system clock. */
    public GateOptions(Path suppressions, boolean failOnUnusedSuppressions) {
        this(suppressions, failOnUnusedSuppressions, List.of(), null);
    }

    public GateOptions {
        rules = rules == null ? List.of() : List.copyOf(rules);
        clock = clock == null ? Clock.systemUTC() : clock;
    }

    /** The same options with {@code value} as the clock. */
    public GateOptions withClock(Clock value) {
        return new GateOptions(suppressions, failOnUnusedSuppressions, rules, value);
    }

    /** The same options with these rules. */
    public GateOptions withRules(List<RuleSpec> value) {
        return new GateOptions(suppressions, failOnUnusedSuppressions, value, clock);
    }

    /**
     * A rule as written ({@code <rules><rule>}): every value a string, any may be null.
     *
     * @param element  {@code DEVICE} (the default), {@code LIBRARY} or {@code KERNEL}
     * @param includes glob patterns of the elements judged (empty: all)
     * @param excludes glob patterns of the elements left out
     * @param limits   the limits, in order
     */
    public record RuleSpec(String element, List<String> includes, List<String> excludes, List<LimitSpec> limits) {
        public RuleSpec {
            includes = includes == null ? List.of() : List.copyOf(includes);
            excludes = excludes == null ? List.of() : List.copyOf(excludes);
            limits = limits == null ? List.of() : List.copyOf(limits);
        }
    }

    /**
     * A limit as written.
     *
     * @param counter {@code RESERVATION} (the default), {@code INCREMENT}, {@code FRAME} or {@code MEMORY_SHARE}
     * @param maximum a size ({@code 1 GiB}), or a percentage ({@code 2%}: of the device's memory)
     * @param level   {@code ERROR} (the default) or {@code WARN}
     */
    public record LimitSpec(String counter, String maximum, String level) {
    }
}
