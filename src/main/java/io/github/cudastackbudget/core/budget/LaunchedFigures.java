package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import java.util.List;

/**
 * A device's figures over the kernels a recorded run launched.
 *
 * @param headline         true when these figures are the device's headline (the launch log is complete)
 * @param reservationBytes maxResidentThreads x roundup16(largest known frame among the launched kernels' images)
 * @param incrementBytes   the part above the driver's default 1024-B limit
 * @param worst            the launched kernel with the largest known frame, or null when none launched here
 * @param kernels          every launched kernel's image on this device, largest frame first
 * @param jit              launched functions this device would JIT-compile from PTX (frame unknown)
 * @param cannotRun        launched functions without SASS or PTX for this device (the run used another GPU)
 * @param unknownStack     launched images whose frame the tool reports as UNKNOWN
 */
public record LaunchedFigures(boolean headline, long reservationBytes, long incrementBytes, KernelRecord worst,
        List<LaunchedImage> kernels, List<FunctionChoice> jit, List<FunctionChoice> cannotRun,
        List<KernelRecord> unknownStack) {

    public LaunchedFigures {
        kernels = List.copyOf(kernels);
        jit = List.copyOf(jit);
        cannotRun = List.copyOf(cannotRun);
        unknownStack = List.copyOf(unknownStack);
    }
}
