package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.budget.BudgetEvaluator;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.ArrayList;
import java.util.List;

/** Stage 4: each device's verdict against its budgets, in configuration order. */
final class Verdicts {

    private Verdicts() {
    }

    /**
     * @param launched what a recorded run launched, or null for the static check
     * @throws CheckProblem a budget that cannot be resolved (a percentage for a device of unknown memory)
     */
    static List<DeviceResult> evaluate(CheckRequest request, KernelIndex index, LaunchedRun launched)
            throws CheckProblem {
        BudgetEvaluator evaluator = new BudgetEvaluator(request.defaultMaxReservation(), request.maxStackPerThread());
        BudgetEvaluator.Launched launchedFunctions = launched == null ? null
                : new BudgetEvaluator.Launched(launched.launchedFunctions(), launched.headline());
        List<DeviceResult> devices = new ArrayList<>();
        for (DeviceTarget target : request.devices()) {
            try {
                devices.add(evaluator.evaluate(index, target, launchedFunctions));
            } catch (InvalidValueException e) {
                throw new CheckProblem(e.getMessage(), e);
            }
        }
        return devices;
    }
}
