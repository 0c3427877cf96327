package io.github.cudastackbudget.core.model;

import java.util.Locale;

/**
 * Where a kernel's frame figure comes from. A small enum on purpose: a new source (the driver's own figure from a
 * launch log) is one more constant.
 */
public enum FrameSource {
    /** read from an embedded SASS image (the native reader or cuobjdump). */
    STATIC,
    /** no SASS runs on the device: the PTX the driver would JIT-compile, compiled at build time by ptxas. */
    JIT_PTXAS;

    /** The spelling, made once (asked for every record of a report). */
    private final String id = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /** The reports' spelling: {@code static}, {@code jit-ptxas}. */
    public String id() {
        return id;
    }
}
