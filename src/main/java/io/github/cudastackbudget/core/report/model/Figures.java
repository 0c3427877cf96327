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
        return String.format(Locale.ROOT, "%,d", value);
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
