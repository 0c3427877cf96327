package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.Exclusion;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.gate.GateOptions;
import io.github.cudastackbudget.core.gate.RuleChecker;
import io.github.cudastackbudget.core.gate.Rules;
import io.github.cudastackbudget.core.gate.SuppressedKernel;
import io.github.cudastackbudget.core.gate.SuppressionFile;
import io.github.cudastackbudget.core.gate.Suppressions;
import io.github.cudastackbudget.core.selection.KernelIndex;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.text.Option;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The gate's stages (issue 12): the suppressions file and the rules are parsed before anything is scanned
 * ({@link #prepare}); the suppressions act inside the verdicts ({@link #exclusion}: a suppressed kernel leaves its
 * device's verdict); the rules judge the verdicts after them ({@link #checks}). Each suppression entry and each rule
 * limit becomes a {@link GateCheck}; a WARN one is logged as a warning.
 */
final class GateStage {

    /** No suppressions, no rules. */
    static final GateStage NONE = new GateStage(null, Rules.NONE);

    private final Suppressions suppressions;
    private final Rules rules;

    private GateStage(Suppressions suppressions, Rules rules) {
        this.suppressions = suppressions;
        this.rules = rules;
    }

    /**
     * Parses the suppressions file and the rules of the request.
     *
     * @throws CheckProblem one line naming the file and line, or the rule index and field
     */
    static GateStage prepare(CheckRequest request) throws CheckProblem {
        GateOptions options = request.gate();
        Frontend frontend = request.frontend();
        try {
            Rules rules = Rules.parse(options.rules(), frontend.name(Option.RULES));
            Suppressions suppressions = null;
            if (options.suppressions() != null) {
                suppressions = new Suppressions(options.suppressions(),
                        SuppressionFile.read(options.suppressions(), frontend.name(Option.SUPPRESSIONS)),
                        LocalDate.now(options.clock()), options.failOnUnusedSuppressions(),
                        frontend.howToSet(Option.FAIL_ON_UNUSED_SUPPRESSIONS, "true"));
            }
            return suppressions == null && rules.isEmpty() ? NONE : new GateStage(suppressions, rules);
        } catch (InvalidValueException e) {
            throw new CheckProblem(e.getMessage(), e);
        }
    }

    /** True when a suppression needs the readable names before the verdicts (its patterns match either name). */
    boolean suppresses() {
        return suppressions != null && !suppressions.entries().isEmpty();
    }

    /** The functions each device's verdict leaves out (call before the verdicts). */
    Exclusion exclusion(KernelIndex index, CheckRequest request, Map<String, String> displayNames) {
        return suppressions == null ? Exclusion.NONE : suppressions.apply(index, request.devices(), displayNames);
    }

    /** The suppressed kernels, device by device. */
    List<SuppressedKernel> suppressed(List<DeviceResult> devices) {
        return suppressions == null ? List.of() : suppressions.suppressed(devices);
    }

    /**
     * The gate checks: one per suppression entry, then one per rule limit and element judged; each WARN one is
     * sent to the listener as a warning.
     */
    List<GateCheck> checks(CheckResult result, List<SuppressedKernel> suppressed, CheckProgress listener)
            throws CheckProblem {
        List<GateCheck> checks = new ArrayList<>();
        if (suppressions != null) {
            checks.addAll(suppressions.checks(suppressed));
        }
        List<String> libraries = result.scans().stream().filter(result::gated)
                .flatMap(scan -> scan.libraries().stream()).distinct().toList();
        try {
            checks.addAll(new RuleChecker(rules).check(result.devices(), libraries, result.displayNames()));
        } catch (InvalidValueException e) {
            throw new CheckProblem(e.getMessage(), e);
        }
        checks.stream().filter(check -> check.outcome() == GateCheck.Outcome.WARN)
                .forEach(check -> listener.warn(check.message()));
        return checks;
    }
}
