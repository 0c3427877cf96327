package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.text.ByteSize;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** Numbers for people, shared by the pages so that both spell figures the same way. */
public final class Figures {

    private Figures() {
    }

    /** {@code 2.58 GiB (2,766,077,952 B)}; below 1 KiB {@code 512 B}. */
    public static String bytes(long bytes) {
        return ByteSize.format(bytes);
    }

    /** {@code 2.58 GiB}; below 1 KiB {@code 512 B}. */
    public static String human(long bytes) {
        return ByteSize.human(bytes);
    }

    /** {@code 2,766,077,952}. */
    public static String grouped(long value) {
        // by hand, as String.format(Locale.ROOT, "%,d") writes it: the reports call this for many figures, and a
        // Formatter parses its pattern each time, slow in the cold classes of a build's one run (issue 11)
        String digits = Long.toString(value);
        int start = value < 0 ? 1 : 0;
        int count = digits.length() - start;
        if (count <= 3) {
            return digits;
        }
        StringBuilder out = new StringBuilder(digits.length() + count / 3);
        int first = start + (count % 3 == 0 ? 3 : count % 3);
        out.append(digits, 0, first);
        for (int at = first; at < digits.length(); at += 3) {
            out.append(',').append(digits, at, at + 3);
        }
        return out.toString();
    }

    /** {@code part} as a percentage of {@code whole} with one decimal ({@code 87.5%}); {@code whole} 0 gives "n/a". */
    public static String percent(long part, long whole) {
        if (whole == 0) {
            return part == 0 ? "0.0%" : "n/a";
        }
        return BigDecimal.valueOf(part).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(whole), 1, RoundingMode.HALF_UP).toPlainString() + "%";
    }
}
