package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.launch.LaunchedKernel;
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
 * @param driverDifferences launched kernels whose static image's frame differs from the driver's (launch log format
 *                         2, on a device of the driver's arch), by name
 * @param driverOtherArch  launched kernels in no scanned file whose driver frame comes from an image this device
 *                         cannot run (the run used another GPU): not counted here
 */
public record LaunchedFigures(boolean headline, long reservationBytes, long incrementBytes, KernelRecord worst,
        List<LaunchedImage> kernels, List<FunctionChoice> jit, List<FunctionChoice> cannotRun,
        List<KernelRecord> unknownStack, List<DriverDifference> driverDifferences,
        List<LaunchedKernel> driverOtherArch) {

    public LaunchedFigures {
        kernels = List.copyOf(kernels);
        jit = List.copyOf(jit);
        cannotRun = List.copyOf(cannotRun);
        unknownStack = List.copyOf(unknownStack);
        driverDifferences = List.copyOf(driverDifferences);
        driverOtherArch = List.copyOf(driverOtherArch);
    }

    /** The launched kernels counted with the driver's frame (in no scanned file). */
    public List<LaunchedImage> driverReported() {
        return kernels.stream().filter(kernel -> kernel.source() == FrameSource.DRIVER).toList();
    }
}
