package io.github.cudastackbudget.core.report.model;

import java.util.List;
import java.util.Objects;

/**
 * A kernel as the launch log names it (merged over its lines).
 *
 * @param name             the mangled name
 * @param displayName      the readable name
 * @param attributions     the NVTX ranges or thread names it was launched under, sorted
 * @param maxDynamicShared the largest dynamic shared memory requested, or null when the log does not say
 * @param driver           the driver's figures (launch log format 2), or null for a log without them
 */
public record LaunchEntry(String name, String displayName, List<String> attributions, Long maxDynamicShared,
        DriverFrameRow driver) {

    /** An entry of a log without driver figures. */
    public LaunchEntry(String name, String displayName, List<String> attributions, Long maxDynamicShared) {
        this(name, displayName, attributions, maxDynamicShared, null);
    }

    public LaunchEntry {
        Objects.requireNonNull(name, "name");
        displayName = displayName == null ? name : displayName;
        attributions = List.copyOf(attributions);
    }
}
