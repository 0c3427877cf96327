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
 */
public record KernelRow(String name, String displayName, String library, String arch, int registers, long stack,
        boolean stackUnknown, long shared, long local) {

    public KernelRow {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(arch, "arch");
        displayName = displayName == null ? name : displayName;
    }

    /** {@code 1,234} or {@code UNKNOWN}. */
    public String stackLabel() {
        return stackUnknown ? "UNKNOWN" : String.format(java.util.Locale.ROOT, "%,d", stack);
    }

    /** True when the frame is unknown or larger than zero. */
    public boolean hasFrame() {
        return stackUnknown || stack > 0;
    }
}
