package io.github.cudastackbudget.core.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RulesTest {

    private static GateOptions.RuleSpec rule(String element, GateOptions.LimitSpec... limits) {
        return new GateOptions.RuleSpec(element, List.of(), List.of(), Arrays.asList(limits));
    }

    private static GateOptions.LimitSpec limit(String counter, String maximum, String level) {
        return new GateOptions.LimitSpec(counter, maximum, level);
    }

    private static Rules parse(GateOptions.RuleSpec... rules) {
        return Rules.parse(List.of(rules), "rules");
    }

    @Test
    void aMaximumAloneIsADeviceReservationLimitAtLevelError() {
        Rules rules = parse(rule(null, limit(null, "1 GiB", null)));

        Rules.Rule rule = rules.rules().get(0);
        assertThat(rule.index()).isEqualTo(1);
        assertThat(rule.element()).isEqualTo(Rules.Element.DEVICE);
        assertThat(rule.includes("anything")).isTrue();
        Rules.Limit limit = rule.limits().get(0);
        assertThat(limit.counter()).isEqualTo(Rules.Counter.RESERVATION);
        assertThat(limit.maximum().bytes()).isEqualTo(1L << 30);
        assertThat(limit.level()).isEqualTo(Rules.Level.ERROR);
    }

    @Test
    void namesAreReadWhateverTheirCase() {
        Rules.Rule rule = parse(rule("kernel", limit("frame", "4 KiB", "warn"), limit("Memory_Share", "2%", "Error")))
                .rules().get(0);

        assertThat(rule.element()).isEqualTo(Rules.Element.KERNEL);
        assertThat(rule.limits()).extracting(Rules.Limit::counter, Rules.Limit::level).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Rules.Counter.FRAME, Rules.Level.WARN),
                org.assertj.core.groups.Tuple.tuple(Rules.Counter.MEMORY_SHARE, Rules.Level.ERROR));
    }

    @Test
    void includesAndExcludesAreGlobsOverAnyOfTheNames() {
        Rules.Rule rule = Rules.parse(List.of(new GateOptions.RuleSpec("LIBRARY", List.of("libframes*"),
                List.of("*_zstd.so"), List.of(limit(null, "1 GiB", null)))), "rules").rules().get(0);

        assertThat(rule.includes("libframes.so")).isTrue();
        assertThat(rule.includes("libframes_zstd.so")).isFalse();
        assertThat(rule.includes("libother.so")).isFalse();
        assertThat(rule.includes("app.jar!/native/libframes.so", "libframes.so")).isTrue();
    }

    @Test
    void eachInvalidRuleIsOneLineNamingTheRuleAndTheField() {
        GateOptions.RuleSpec fine = rule(null, limit(null, "1 GiB", null));
        assertProblem("rules: rule[2] limit[1] counter 'STACK' is unknown: use RESERVATION, INCREMENT, FRAME, "
                + "MEMORY_SHARE", fine, rule(null, limit("STACK", "1 GiB", null)));
        assertProblem("rules: rule[1] limit[2] maximum '2%': counter FRAME takes a size in bytes per thread (e.g. "
                + "4 KiB), not a share of device memory", rule("KERNEL", limit("FRAME", "4 KiB", null),
                        limit("FRAME", "2%", null)));
        assertProblem("rules: rule[1] limit[1] maximum 'a lot' is not a size", rule(null, limit(null, "a lot", null)));
        assertProblem("rules: rule[1] limit[1] maximum '1 GiB': counter MEMORY_SHARE takes a percentage of the "
                + "device's memory (e.g. 2%)", rule(null, limit("MEMORY_SHARE", "1 GiB", null)));
        assertProblem("rules: rule[1] limit[1] level 'FATAL' is unknown: use ERROR, WARN",
                rule(null, limit(null, "1 GiB", "FATAL")));
        assertProblem("rules: rule[1] element 'GPU' is unknown: use DEVICE, LIBRARY, KERNEL",
                rule("GPU", limit(null, "1 GiB", null)));
        assertProblem("rules: rule[1] has no limits", rule("DEVICE"));
        assertProblem("rules: rule[1] limit[1] has no maximum", rule(null, limit("FRAME", null, null)));
        assertProblem("rules: rule[1] limit[1] maximum '200%' must be between 0% and 100%",
                rule(null, limit(null, "200%", null)));
        assertProblem("rules: rule[1] includes holds an empty pattern", new GateOptions.RuleSpec(null,
                List.of(" "), List.of(), List.of(limit(null, "1 GiB", null))));
    }

    private static void assertProblem(String start, GateOptions.RuleSpec... rules) {
        assertThatThrownBy(() -> parse(rules)).isInstanceOf(InvalidValueException.class).hasMessageStartingWith(start)
                .hasMessageNotContaining("\n");
    }
}
