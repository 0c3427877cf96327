package io.github.cudastackbudget.core.text;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes as people write them: {@code 1.5 GiB}, {@code 512MiB}, {@code 2 GB}, {@code 1073741824}. {@code KiB},
 * {@code MiB}, {@code GiB}, {@code TiB} are powers of 1024; {@code kB}, {@code MB}, {@code GB}, {@code TB} powers of
 * 1000 (unit letters are case-insensitive); a bare number is bytes. A fractional result is rounded down to whole bytes.
 */
public final class ByteSize {

    private static final Pattern SIZE = Pattern.compile("(\\d{1,30}(?:\\.\\d{1,30})?)\\s{0,10}([a-zA-Z]{0,3})");
    private static final Map<String, Long> UNITS = Map.ofEntries(
            Map.entry("", 1L), Map.entry("b", 1L),
            Map.entry("kib", 1L << 10), Map.entry("mib", 1L << 20), Map.entry("gib", 1L << 30), Map.entry("tib", 1L << 40),
            Map.entry("kb", 1_000L), Map.entry("mb", 1_000_000L), Map.entry("gb", 1_000_000_000L),
            Map.entry("tb", 1_000_000_000_000L));

    private ByteSize() {
    }

    /**
     * Parses a size.
     *
     * @param what names the parameter in the error message (e.g. "maxReservation")
     * @throws InvalidValueException naming the parameter and the value
     */
    public static long parse(String text, String what) {
        String value = text == null ? "" : text.strip();
        // bounded before any pattern or arithmetic runs (a value of millions of digits was slow)
        if (value.startsWith("-") && value.length() > 1 && Character.isDigit(value.charAt(1))) {
            throw new InvalidValueException(what + " '" + shown(text) + "' is negative: a size is 0 or more bytes");
        }
        Matcher match = SIZE.matcher(value.length() > 80 ? "" : value);
        Long unit = match.matches() ? UNITS.get(match.group(2).toLowerCase(Locale.ROOT)) : null;
        if (unit == null) {
            throw new InvalidValueException(what + " '" + shown(text) + "' is not a size: use bytes (1073741824) or a number"
                    + " with a unit: KiB, MiB, GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of 1000), e.g. 1.5 GiB");
        }
        BigDecimal bytes = new BigDecimal(match.group(1)).multiply(BigDecimal.valueOf(unit))
                .setScale(0, RoundingMode.FLOOR);
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new InvalidValueException(what + " '" + shown(text) + "' is too large (at most "
                    + Long.MAX_VALUE + " bytes, 8 EiB)");
        }
        return bytes.longValueExact();
    }

    /** A value as a message shows it: at most 40 characters, control characters as '?'. */
    public static String shown(String text) {
        if (text == null) {
            return "null";
        }
        String cut = text.length() <= 40 ? text : text.substring(0, 37) + "...";
        StringBuilder clean = new StringBuilder(cut.length());
        cut.codePoints().forEach(c -> clean.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return clean.toString();
    }

    /** {@code 2.58 GiB (2,766,077,952 B)}; below 1 KiB just {@code 512 B}. */
    public static String format(long bytes) {
        if (Math.abs(bytes) < 1024) {
            return bytes + " B";
        }
        return human(bytes) + " (" + grouped(bytes) + " B)";
    }

    /** {@code 2.58 GiB}, {@code 512 B}. */
    public static String human(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = 0;
        while (Math.abs(value) >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        if (unit == 0) {
            return bytes + " B";
        }
        DecimalFormat format = new DecimalFormat("0.00", DecimalFormatSymbols.getInstance(Locale.ROOT));
        return format.format(value) + " " + units[unit];
    }

    /** {@code 2,766,077,952}. */
    public static String grouped(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
