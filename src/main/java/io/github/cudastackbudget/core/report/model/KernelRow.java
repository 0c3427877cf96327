package io.github.cudastackbudget.core.report.model;

import java.util.Objects;

/**
 * One function in one SASS image, as the report shows it.
 *
 * @param name         the mangled name
 * @param displayName  the readable (demangled) name; the mangled name when it could not be demangled
 * @param library      the file name ({@code libfoo.a(member.o)} for an archive member)
 * @param arch         the image's SASS arch ({@code sm_90a})
 * @param registers    REG
 * @param stack        STACK bytes per thread (0 when {@code stackUnknown})
 * @param stackUnknown true when the tool reported {@code STACK:UNKNOWN}
 * @param shared       static SHARED bytes per block
 * @param local        LOCAL bytes per thread
 * @param frameSource  where the frame comes from: {@link #STATIC} (an embedded SASS image) or {@code jit-ptxas} (the
 *                     PTX a device JIT-compiles, compiled by ptxas at build time; {@code arch} is the target compiled for)
 * @param jitFrom      for a JIT figure: the PTX target compiled ({@code compute_80}); else null
 * @param frameTool    for a JIT figure: the compiler and its version ({@code ptxas 13.0.88}); else null
 */
public record KernelRow(String name, String displayName, String library, String arch, int registers, long stack,
        boolean stackUnknown, long shared, long local, String frameSource, String jitFrom, String frameTool) {

    /** The frame source of a figure read from an embedded image. */
    public static final String STATIC = "static";

    public KernelRow {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(arch, "arch");
        displayName = displayName == null ? name : displayName;
        frameSource = frameSource == null ? STATIC : frameSource;
    }

    /** A row read from an embedded SASS image. */
    public KernelRow(String name, String displayName, String library, String arch, int registers, long stack,
            boolean stackUnknown, long shared, long local) {
        this(name, displayName, library, arch, registers, stack, stackUnknown, shared, local, STATIC, null, null);
    }

    /** True when the frame was read from an embedded image (not computed). */
    public boolean staticFrame() {
        return STATIC.equals(frameSource);
    }

    /**
     * The arch as every report shows it: {@code sm_90a}; for a computed figure with its label,
     * {@code sm_120 JIT from compute_80, ptxas 13.0.88}.
     */
    public String archLabel() {
        return staticFrame() ? arch : arch + " " + frameLabel();
    }

    /** {@code JIT from compute_80, ptxas 13.0.88}; empty for a static figure. */
    public String frameLabel() {
        if (staticFrame()) {
            return "";
        }
        return (frameSource.startsWith("jit") ? "JIT" : frameSource) + (jitFrom == null ? "" : " from " + jitFrom)
                + (frameTool == null ? "" : ", " + frameTool);
    }

    /** {@code 1,234} or {@code UNKNOWN}. */
    public String stackLabel() {
        return stackUnknown ? "UNKNOWN" : Figures.grouped(stack);
    }

    /**
     * The record's equality, written out: the generated one goes through method handles, which a cold run (the
     * reports are written once per build, in freshly loaded classes) pays for on every row it hashes (issue 11).
     */
    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        return other instanceof KernelRow row && registers == row.registers && stack == row.stack
                && stackUnknown == row.stackUnknown && shared == row.shared && local == row.local
                && name.equals(row.name) && displayName.equals(row.displayName) && library.equals(row.library)
                && arch.equals(row.arch) && frameSource.equals(row.frameSource) && Objects.equals(jitFrom, row.jitFrom)
                && Objects.equals(frameTool, row.frameTool);
    }

    @Override
    public int hashCode() {
        int hash = name.hashCode();
        hash = 31 * hash + displayName.hashCode();
        hash = 31 * hash + library.hashCode();
        hash = 31 * hash + arch.hashCode();
        hash = 31 * hash + registers;
        hash = 31 * hash + Long.hashCode(stack);
        hash = 31 * hash + Boolean.hashCode(stackUnknown);
        hash = 31 * hash + Long.hashCode(shared);
        hash = 31 * hash + Long.hashCode(local);
        hash = 31 * hash + frameSource.hashCode();
        hash = 31 * hash + Objects.hashCode(jitFrom);
        return 31 * hash + Objects.hashCode(frameTool);
    }

    /** True when the frame is unknown or larger than zero. */
    public boolean hasFrame() {
        return stackUnknown || stack > 0;
    }
}
