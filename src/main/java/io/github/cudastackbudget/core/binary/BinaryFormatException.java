package io.github.cudastackbudget.core.binary;

import io.github.cudastackbudget.core.text.Printable;

/**
 * A file holding CUDA device code has a layout this reader does not know, or is truncated or corrupt. The message is
 * one line: the file (and archive member), the byte offset in that file and what was unexpected.
 */
public class BinaryFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final long offset;
    private final String what;

    /**
     * @param source the file (with the archive member, e.g. {@code libfoo.a(k.o)}) as the user named it
     * @param offset the byte offset in that file where the problem is, or -1 when there is no one place
     * @param what   what was unexpected, e.g. {@code "fatbin container version 2 (only 1 is known)"}
     */
    public BinaryFormatException(String source, long offset, String what) {
        super(oneLine(source) + (offset >= 0 ? ": at offset 0x" + Long.toHexString(offset) + ": " : ": ")
                + oneLine(what));
        this.source = source;
        this.offset = offset;
        this.what = what;
    }

    public BinaryFormatException(String source, long offset, String what, Throwable cause) {
        this(source, offset, what);
        initCause(cause);
    }

    /**
     * The text with every control character (line breaks included) written as an escape: a guard that keeps the
     * message one line whatever a reader quoted from the input (the readers quote bytes through
     * {@link io.github.cudastackbudget.core.text.Printable} themselves; this catches what they miss).
     */
    private static String oneLine(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0) || c == 0x2028 || c == 0x2029;
            if (control && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                out.append(control ? Printable.of(String.valueOf(c)) : String.valueOf(c));
            }
        }
        return out == null ? text : out.toString();
    }

    /** The file, with the archive member when there is one. */
    public String source() {
        return source;
    }

    /** The byte offset in the file where the problem is, or -1. */
    public long offset() {
        return offset;
    }

    /** What was unexpected, without the file and the offset (e.g. {@code "truncated ELF header"}). */
    public String what() {
        return what;
    }

    /** The message without the file: {@code "at offset 0x8: what"}, or {@code what} when there is no one place. */
    public String located() {
        return (offset >= 0 ? "at offset 0x" + Long.toHexString(offset) + ": " : "") + what;
    }
}
