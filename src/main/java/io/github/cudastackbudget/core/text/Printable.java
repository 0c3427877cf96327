package io.github.cudastackbudget.core.text;

/**
 * Text from untrusted input (a section name, a token of tool output, a log field) made safe to quote in a one-line
 * message: every character outside printable ASCII is written as an escape ({@code \n}, {@code \t}, {@code \xNN},
 * {@code \\uNNNN}), and text longer than a limit is cut with the count of characters left out. The result never holds
 * a line break or a control character, so a message that quotes it stays one line.
 */
public final class Printable {

    /** The default number of characters of untrusted text a message quotes. */
    public static final int DEFAULT_LIMIT = 80;

    private Printable() {
    }

    /** The text escaped and cut at {@link #DEFAULT_LIMIT} characters. */
    public static String of(CharSequence text) {
        return of(text, DEFAULT_LIMIT);
    }

    /**
     * The text escaped and cut at {@code limit} characters of the input.
     *
     * @param text  the untrusted text; null gives {@code "null"}
     * @param limit how many input characters to quote at most (at least 1)
     */
    public static String of(CharSequence text, int limit) {
        if (text == null) {
            return "null";
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit " + limit);
        }
        int shown = Math.min(text.length(), limit);
        StringBuilder out = new StringBuilder(shown + 16);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c >= 0x20 && c < 0x7F) {
                        out.append(c);
                    } else if (c < 0x100) {
                        out.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    } else {
                        out.append(String.format("\\u%04x", (int) c));
                    }
                }
            }
        }
        if (text.length() > shown) {
            out.append("... (").append(text.length() - shown).append(" more characters)");
        }
        return out.toString();
    }

    /** Bytes (read as ISO-8859-1, one character per byte) escaped and cut at {@code limit} bytes. */
    public static String ofBytes(byte[] bytes, int offset, int length, int limit) {
        return of(new String(bytes, offset, length, java.nio.charset.StandardCharsets.ISO_8859_1), limit);
    }
}
