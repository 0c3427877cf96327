package io.github.cudastackbudget.core.arch;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A compute capability {@code major.minor} such as 9.0 or 12.1.
 *
 * <p>{@link #parse(String)} accepts the spellings people and tools use: {@code 9.0}, {@code 90}, {@code sm_90},
 * {@code sm_9.0}, {@code compute_90} and (for three-digit majors) {@code 100}, {@code 12.1}, {@code sm_121}.
 */
public record ComputeCapability(int major, int minor) implements Comparable<ComputeCapability> {

    // equality written out: the generated one goes through method handles, slow in the cold classes of a build's
    // one run, where the verdicts count records per arch (issue 11)
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ComputeCapability capability && major == capability.major
                && minor == capability.minor;
    }

    @Override
    public int hashCode() {
        return 31 * major + minor;
    }

    private static final Pattern DOTTED = Pattern.compile("(\\d{1,2})\\.(\\d)");
    private static final Pattern PACKED = Pattern.compile("(\\d{1,2})(\\d)");

    public ComputeCapability {
        if (major < 1 || major > 99 || minor < 0 || minor > 9) {
            throw new IllegalArgumentException("invalid compute capability " + major + "." + minor);
        }
    }

    /**
     * Parses a compute capability.
     *
     * @throws InvalidValueException with a message that names the value and the accepted forms
     */
    public static ComputeCapability parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidValueException("compute capability is empty: use a form such as 9.0, 90 or sm_90");
        }
        String body = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (body.startsWith("sm_")) {
            body = body.substring(3);
        } else if (body.startsWith("compute_")) {
            body = body.substring(8);
        }
        Matcher dotted = DOTTED.matcher(body);
        Matcher packed = PACKED.matcher(body);
        Matcher match = dotted.matches() ? dotted : packed.matches() ? packed : null;
        if (match == null || Integer.parseInt(match.group(1)) == 0) {
            throw new InvalidValueException("invalid compute capability '" + text
                    + "': use a form such as 9.0, 90, sm_90 or sm_9.0 (12.0, 120 or sm_120 for three digits)");
        }
        return new ComputeCapability(Integer.parseInt(match.group(1)), Integer.parseInt(match.group(2)));
    }

    /** {@code 90} for 9.0, {@code 121} for 12.1. */
    public int number() {
        return major * 10 + minor;
    }

    /** {@code sm_90}. */
    public String smName() {
        return "sm_" + number();
    }

    /** {@code 9.0}. */
    public String dotted() {
        return major + "." + minor;
    }

    @Override
    public int compareTo(ComputeCapability other) {
        return Integer.compare(number(), other.number());
    }

    @Override
    public String toString() {
        return dotted();
    }
}
