package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.budget.Reservation;
import java.util.List;

/**
 * One device's launched-mode figures: what only the kernels of the launch log reserve, next to the static bound.
 *
 * @param headline          true when the launched reservation is the device's headline (and what its budget judges)
 * @param reservationBytes  the launched kernels' reservation on this device
 * @param incrementBytes    its part above the driver's default 1024-B per-thread limit
 * @param worstKernel       the launched image with the largest known frame, or null
 * @param staticWorstKernel the image with the largest known frame among every kernel the device runs, or null
 * @param kernels           every launched kernel's image on this device, in the JSON's order
 * @param jit               launched functions this device would JIT-compile from PTX
 * @param cannotRun         launched functions that cannot run on this device
 * @param driverFrames      whether the launch log holds the driver's figures (format 2)
 * @param driverDifferences launched kernels whose static frame differs from the driver's (format 2)
 * @param driverOtherArch   launched kernels in no scanned file whose driver frame is of an image this device cannot
 *                          run: not counted here (mangled names)
 */
public record LaunchedDeviceReport(boolean headline, long reservationBytes, long incrementBytes, KernelRow worstKernel,
        KernelRow staticWorstKernel, List<LaunchedKernelRow> kernels, List<FunctionNote> jit,
        List<FunctionNote> cannotRun, boolean driverFrames, List<DriverDifferenceRow> driverDifferences,
        List<String> driverOtherArch) {

    public LaunchedDeviceReport {
        kernels = List.copyOf(kernels);
        jit = List.copyOf(jit);
        cannotRun = List.copyOf(cannotRun);
        driverDifferences = List.copyOf(driverDifferences);
        driverOtherArch = List.copyOf(driverOtherArch);
    }

    /** A device report of a log without driver figures. */
    public LaunchedDeviceReport(boolean headline, long reservationBytes, long incrementBytes, KernelRow worstKernel,
            KernelRow staticWorstKernel, List<LaunchedKernelRow> kernels, List<FunctionNote> jit,
            List<FunctionNote> cannotRun) {
        this(headline, reservationBytes, incrementBytes, worstKernel, staticWorstKernel, kernels, jit, cannotRun, false,
                List.of(), List.of());
    }

    /** The launched kernels counted with the driver's frame. */
    public long driverReportedCount() {
        return kernels.stream().filter(LaunchedKernelRow::driverReported).count();
    }

    /** The per-thread stack limit the driver sets for the launched worst kernel (frame rounded up to 16), 0 without. */
    public long stackLimitBytes() {
        return worstKernel == null ? 0 : Reservation.stackLimitFor(worstKernel.stack());
    }
}
