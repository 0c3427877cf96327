package io.github.cudastackbudget.core.device;

import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How much a reservation may grow over a baseline's (issue 12, {@code maxGrowth}): a size ({@code 64 MiB}, bytes,
 * anything {@link ByteSize} reads) or a percentage of the baseline's reservation ({@code 10%}; more than 100% is
 * allowed: {@code 150%}).
 *
 * @param text    the value as written, for messages
 * @param bytes   the allowed growth in bytes, when not a percentage
 * @param percent the allowed growth as a percentage of the baseline's reservation, when one
 */
public record GrowthLimit(String text, Long bytes, BigDecimal percent) {

    private static final Pattern PERCENT = Pattern.compile("\\d{1,9}(?:\\.\\d{1,12})?");

    public GrowthLimit {
        Objects.requireNonNull(text, "text");
        if ((bytes == null) == (percent == null)) {
            throw new IllegalArgumentException("exactly one of bytes and percent");
        }
    }

    /**
     * Parses {@code 64 MiB}, {@code 1048576} or {@code 10%}.
     *
     * @param what names the parameter in messages ({@code maxGrowth}, {@code maxGrowth of device 'h200'})
     * @throws InvalidValueException naming the parameter and the value
     */
    public static GrowthLimit parse(String text, String what) {
        String value = text == null ? "" : text.strip();
        if (value.endsWith("%")) {
            String number = value.substring(0, value.length() - 1).strip();
            if (!PERCENT.matcher(number).matches()) {
                throw new InvalidValueException(what + " '" + ByteSize.shown(text) + "' is not a percentage of the "
                        + "baseline's reservation: use e.g. 10% or 2.5% (or a size such as 64 MiB)");
            }
            return new GrowthLimit(value, null, new BigDecimal(number));
        }
        return new GrowthLimit(value, ByteSize.parse(value, what), null);
    }

    public boolean isPercentage() {
        return percent != null;
    }

    /** The growth allowed over a baseline reservation of {@code previousBytes} (a percentage rounded down). */
    public long allowedGrowth(long previousBytes) {
        if (bytes != null) {
            return bytes;
        }
        return percent.multiply(BigDecimal.valueOf(previousBytes)).divide(BigDecimal.valueOf(100), 0,
                RoundingMode.FLOOR).min(BigDecimal.valueOf(Long.MAX_VALUE)).longValueExact();
    }
}
