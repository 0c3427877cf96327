package io.github.cudastackbudget.core.report.model;

import java.util.Locale;

/** A device's verdict, spelled {@code pass}, {@code fail}, {@code skipped} in the JSON. */
public enum Verdict {
    PASS, FAIL, SKIPPED;

    /** The JSON spelling. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses the JSON spelling. */
    public static Verdict of(String id) {
        for (Verdict verdict : values()) {
            if (verdict.id().equals(id)) {
                return verdict;
            }
        }
        throw new IllegalArgumentException("status '" + id + "' is not one of pass, fail, skipped");
    }
}
