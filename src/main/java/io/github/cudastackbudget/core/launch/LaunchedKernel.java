package io.github.cudastackbudget.core.launch;

import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One kernel a recorded run launched, with every log line for its mangled name merged.
 *
 * @param name             the mangled kernel name as the driver reported it
 * @param attributions     the attributions it was launched under (NVTX range or thread name), sorted
 * @param maxDynamicShared the largest dynamic shared memory per block requested at any of its launches, in bytes;
 *                         null when the log has no third column (logs of the origin tool's older versions)
 * @param driver           what the driver said about the launched function (launch log format 2; figures the driver
 *                         did not give are null in it); null for a log of format 1 or the origin tool's
 */
public record LaunchedKernel(String name, SortedSet<String> attributions, Long maxDynamicShared, DriverFrame driver) {

    public LaunchedKernel {
        Objects.requireNonNull(name, "name");
        attributions = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(attributions));
    }

    /** A kernel of a log without driver figures (format 1, the origin tool's). */
    public LaunchedKernel(String name, SortedSet<String> attributions, Long maxDynamicShared) {
        this(name, attributions, maxDynamicShared, null);
    }

    /** This kernel merged with another line of the same name: attributions joined, the larger figures kept. */
    LaunchedKernel merge(LaunchedKernel other) {
        TreeSet<String> all = new TreeSet<>(attributions);
        all.addAll(other.attributions);
        // no mixed Long/long conditional here: its unboxing of a null figure was a NullPointerException
        Long dynamic;
        if (maxDynamicShared == null) {
            dynamic = other.maxDynamicShared;
        } else if (other.maxDynamicShared == null) {
            dynamic = maxDynamicShared;
        } else {
            dynamic = Math.max(maxDynamicShared, other.maxDynamicShared);
        }
        DriverFrame frame = driver == null ? other.driver : driver.merge(other.driver);
        return new LaunchedKernel(name, all, dynamic, frame);
    }

    /** The dynamic shared memory to add to a block's static SHARED: 0 when the log does not say. */
    public long dynamicSharedOrZero() {
        return maxDynamicShared == null ? 0 : maxDynamicShared;
    }

    /** Whether the log gives the driver's frame (local size) of this kernel. */
    public boolean driverFrameKnown() {
        return driver != null && driver.known();
    }
}
