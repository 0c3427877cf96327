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
 */
public record LaunchedDeviceReport(boolean headline, long reservationBytes, long incrementBytes, KernelRow worstKernel,
        KernelRow staticWorstKernel, List<LaunchedKernelRow> kernels, List<FunctionNote> jit,
        List<FunctionNote> cannotRun) {

    public LaunchedDeviceReport {
        kernels = List.copyOf(kernels);
        jit = List.copyOf(jit);
        cannotRun = List.copyOf(cannotRun);
    }

    /** The per-thread stack limit the driver sets for the launched worst kernel (frame rounded up to 16), 0 without. */
    public long stackLimitBytes() {
        return worstKernel == null ? 0 : Reservation.stackLimitFor(worstKernel.stack());
    }
}
