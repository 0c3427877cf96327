package io.github.cudastackbudget.core.arch;

/** The kind of a SASS or PTX target: base ({@code sm_90}), family-specific ({@code sm_100f}), arch-specific ({@code sm_90a}). */
public enum ArchVariant {
    BASE(""),
    FAMILY("f"),
    ARCH_SPECIFIC("a");

    private final String suffix;

    ArchVariant(String suffix) {
        this.suffix = suffix;
    }

    public String suffix() {
        return suffix;
    }

    /** Preference among images of one function that all run on a device: a over f over base. */
    public int preference() {
        return ordinal();
    }
}
