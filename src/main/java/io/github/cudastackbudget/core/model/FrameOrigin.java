package io.github.cudastackbudget.core.model;

import io.github.cudastackbudget.core.arch.GpuArch;
import java.util.Objects;

/**
 * How a kernel record's frame was obtained: {@link #STATIC} for every image read from a file; for a JIT figure the PTX
 * target compiled and the tool that compiled it.
 *
 * @param source  where the figure comes from
 * @param ptx     for a JIT figure: the PTX target the driver would compile ({@code compute_80}); else null
 * @param tool    for a JIT figure: the compiler and its version ({@code ptxas 13.0.88}); else null
 */
public record FrameOrigin(FrameSource source, GpuArch ptx, String tool) {

    /** A figure read from an embedded SASS image. */
    public static final FrameOrigin STATIC = new FrameOrigin(FrameSource.STATIC, null, null);

    public FrameOrigin {
        Objects.requireNonNull(source, "source");
    }

    /** A frame computed by ptxas ({@code version} as {@code ptxas --version} prints it: {@code 13.0.88}) from {@code ptx}. */
    public static FrameOrigin jitPtxas(GpuArch ptx, String version) {
        return new FrameOrigin(FrameSource.JIT_PTXAS, Objects.requireNonNull(ptx, "ptx"), "ptxas " + version);
    }

    // equality written out, as KernelRecord's (issue 11); the source counts by its ordinal, the same in every run
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof FrameOrigin origin && source == origin.source
                && java.util.Objects.equals(ptx, origin.ptx) && java.util.Objects.equals(tool, origin.tool);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * source.ordinal() + java.util.Objects.hashCode(ptx)) + java.util.Objects.hashCode(tool);
    }

    public boolean isStatic() {
        return source == FrameSource.STATIC;
    }

    /** How reports label a non-static figure: {@code JIT from compute_80, ptxas 13.0.88}; empty for a static one. */
    public String label() {
        return switch (source) {
            case STATIC -> "";
            case JIT_PTXAS -> "JIT from " + ptx.ptxLabel() + ", " + tool;
        };
    }
}
