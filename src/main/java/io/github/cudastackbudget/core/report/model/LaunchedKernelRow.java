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
 */
public record LaunchedKernelRow(KernelRow kernel, Long maxDynamicShared, long sharedPerBlock,
        List<String> attributions) {

    public LaunchedKernelRow {
        Objects.requireNonNull(kernel, "kernel");
        attributions = List.copyOf(attributions);
    }
}
