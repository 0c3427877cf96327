package io.github.cudastackbudget.core.device;

import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * A budget: an absolute size, or a percentage of the device's memory ({@code 2%}).
 *
 * @param text    the value as written, for messages
 * @param bytes   the absolute size, when not a percentage
 * @param percent the percentage of device memory, when one
 */
public record SizeLimit(String text, Long bytes, BigDecimal percent) {

    private static final java.util.regex.Pattern PERCENT = java.util.regex.Pattern.compile("\\d{1,12}(?:\\.\\d{1,12})?");

    public SizeLimit {
        Objects.requireNonNull(text, "text");
        if ((bytes == null) == (percent == null)) {
            throw new IllegalArgumentException("exactly one of bytes and percent");
        }
    }

    /**
     * Parses {@code 1.5 GiB}, {@code 536870912} or {@code 2%}.
     *
     * @param what names the parameter in messages
     */
    public static SizeLimit parse(String text, String what) {
        String value = text == null ? "" : text.strip();
        if (value.endsWith("%")) {
            String number = value.substring(0, value.length() - 1).strip();
            // plain decimals only: an exponent such as 1e-999999999 made BigDecimal fail or run for minutes
            if (number.startsWith("-") && PERCENT.matcher(number.substring(1)).matches()) {
                throw new InvalidValueException(what + " '" + ByteSize.shown(text) + "' must be between 0% and 100%");
            }
            if (!PERCENT.matcher(number).matches()) {
                throw new InvalidValueException(what + " '" + ByteSize.shown(text)
                        + "' is not a percentage: use e.g. 2% or 0.5%");
            }
            BigDecimal percent = new BigDecimal(number);
            if (percent.compareTo(BigDecimal.valueOf(100)) > 0) {
                throw new InvalidValueException(what + " '" + ByteSize.shown(text) + "' must be between 0% and 100%");
            }
            return new SizeLimit(value, null, percent);
        }
        return new SizeLimit(value, ByteSize.parse(value, what), null);
    }

    public boolean isPercentage() {
        return percent != null;
    }

    /**
     * The limit in bytes for a device (percentages of its memory, rounded down).
     *
     * @throws InvalidValueException when a percentage meets a device of unknown memory
     */
    public long resolve(DeviceSpec device, String what) {
        if (bytes != null) {
            return bytes;
        }
        if (device.memoryBytes() == null) {
            throw new InvalidValueException(what + " '" + text + "' is a percentage of device memory, but device '"
                    + device.name() + "' has no <memory>: add <memory> (e.g. 80 GiB) or use a preset");
        }
        return percent.multiply(BigDecimal.valueOf(device.memoryBytes())).divide(BigDecimal.valueOf(100), 0,
                RoundingMode.FLOOR).longValueExact();
    }
}
