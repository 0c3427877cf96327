package io.github.cudastackbudget.core.gate;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A glob as suppressions and rules write their patterns: {@code *} matches any run of characters (none included),
 * {@code ?} exactly one; every other character stands for itself (case-sensitive), so a demangled name's
 * {@code ()}, {@code ::}, {@code <>} and {@code .} need no escaping. The pattern matches the whole text.
 *
 * @param text the pattern as written
 */
public record Glob(String text, Pattern regex) {

    public Glob {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(regex, "regex");
    }

    /** Compiles {@code text} (stripped of surrounding white space). */
    public static Glob of(String text) {
        String pattern = text.strip();
        StringBuilder regex = new StringBuilder(pattern.length() + 8);
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '*' || c == '?') {
                if (!literal.isEmpty()) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return new Glob(pattern, Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    /** True when the whole of {@code value} matches (never for null). */
    public boolean matches(String value) {
        return value != null && regex.matcher(value).matches();
    }

    @Override
    public String toString() {
        return text;
    }
}
