package io.github.cudastackbudget.core.report.model;

import java.util.List;
import java.util.Objects;

/**
 * One launched kernel's image on one device (launched mode): the SASS image the device runs for a kernel the launch
 * log names, with the shared memory the launches asked for.
 *
 * @param kernel           the image (STACK, LOCAL, static SHARED, REG)
 * @param maxDynamicShared the largest dynamic shared memory a launch requested, in bytes; null when the log has no
 *                         third column (the origin tool's older format)
 * @param sharedPerBlock   static SHARED plus the largest dynamic shared memory: what one block holds
 * @param attributions     the NVTX ranges or thread names it was launched under, sorted
 * @param frameSource      {@code static} (the image the static rules chose) or {@code driver} (the driver's figures:
 *                         a kernel in no scanned file, or one this device would JIT); null when the log has no driver
 *                         figures (format 1)
 * @param driver           the driver's figures for this kernel, or null when the log has none
 */
public record LaunchedKernelRow(KernelRow kernel, Long maxDynamicShared, long sharedPerBlock,
        List<String> attributions, String frameSource, DriverFrameRow driver) {

    public LaunchedKernelRow {
        Objects.requireNonNull(kernel, "kernel");
        attributions = List.copyOf(attributions);
    }

    /** A row of a log without driver figures. */
    public LaunchedKernelRow(KernelRow kernel, Long maxDynamicShared, long sharedPerBlock, List<String> attributions) {
        this(kernel, maxDynamicShared, sharedPerBlock, attributions, null, null);
    }

    /** Whether the frame is the driver's (driver-reported). */
    public boolean driverReported() {
        return "driver".equals(frameSource);
    }
}
