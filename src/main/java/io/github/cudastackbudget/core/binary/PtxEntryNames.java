package io.github.cudastackbudget.core.binary;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernels a PTX text defines: the names after {@code .entry} directives ({@code .visible .entry name(},
 * {@code .weak .entry}, {@code .entry}), in text order. Declarations ({@code .extern .entry}) and comments are
 * skipped. The text ends at its first NUL (uncompressed PTX payloads are padded with NULs).
 *
 * <p>How (issue 11: a cold profile spent a third of its samples here): the scan jumps from one byte that matters to
 * the next, eight bytes at a time (a word-wise test for {@code 'y'}, the last letter of {@code .entry}, for
 * {@code '/'}, which may open a comment, and for NUL), and looks closer only there; the line start it needs is found
 * by looking back from a candidate to the last line break. The rules are exactly those of the byte-at-a-time scanner
 * it replaced (a differential test and the fuzz target hold the two equal): a {@code //} comment runs to its line
 * break, a {@code /}{@code *} comment to the first {@code *}{@code /} after it, a {@code .entry} counts where it starts
 * the text or follows a space, tab or line break, is followed by one, and no {@code .extern} starts earlier on its
 * line; the name runs to the next space, {@code (}, {@code ;} or NUL.
 */
public final class PtxEntryNames {

    private static final byte[] ENTR = ".entr".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EXTERN = ".extern".getBytes(StandardCharsets.US_ASCII);
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long Y = 'y' * ONES;
    private static final long SLASH = '/' * ONES;
    private static final long NEWLINE = '\n' * ONES;

    private PtxEntryNames() {
    }

    /** Scans the text between the buffer's position and its limit (or first NUL). */
    public static List<String> scan(ByteBuffer text) {
        if (text.hasArray()) {
            int from = text.arrayOffset() + text.position();
            return new Scan(text.array(), from, from + text.remaining()).run();
        }
        byte[] copy = new byte[text.remaining()];
        text.duplicate().get(copy);
        return new Scan(copy, 0, copy.length).run();
    }

    private static final class Scan {
        private final byte[] text;
        private final int start;
        private final int limit;
        private final List<String> names = new ArrayList<>();
        /** The last {@code .entry} candidate asked for its line start, and that line start. */
        private int lastCandidate;
        private int lastLineStart;
        /** The cached {@code .extern} search on the line starting at {@code externLine}. */
        private int externLine;
        private int externScanned;
        private boolean externSeen;

        Scan(byte[] text, int start, int limit) {
            this.text = text;
            this.start = start;
            this.limit = limit;
            this.lastCandidate = start;
            this.lastLineStart = start;
            this.externLine = start;
            this.externScanned = start;
        }

        List<String> run() {
            int i = start;
            while (i < limit) {
                int at = next(i);
                if (at >= limit) {
                    break;
                }
                byte b = text[at];
                if (b == 0) {
                    break;
                }
                i = b == '/' ? slash(at) : y(i, at);
            }
            return names;
        }

        /** The first {@code 'y'}, {@code '/'} or NUL at or after {@code from}, or the limit. */
        private int next(int from) {
            int i = from;
            for (int last = limit - Long.BYTES; i <= last; i += Long.BYTES) {
                long word = (long) WORDS.get(text, i);
                long found = zeroBytes(word ^ Y) | zeroBytes(word ^ SLASH) | zeroBytes(word);
                if (found != 0) {
                    // the lowest flagged byte is exact (a borrow only flags bytes above a true zero byte)
                    return i + (Long.numberOfTrailingZeros(found) >>> 3);
                }
            }
            for (; i < limit; i++) {
                byte b = text[i];
                if (b == 'y' || b == '/' || b == 0) {
                    return i;
                }
            }
            return limit;
        }

        /** The high bit of every zero byte of the word (and maybe of bytes above one: see {@link #next}). */
        private static long zeroBytes(long word) {
            return (word - ONES) & ~word & HIGHS;
        }

        /**
         * Where the line holding {@code at} starts: after the last line break before it, or the text's start. The
         * byte-at-a-time rules move their line start at every line break they pass, in plain text and in comments
         * alike (a line comment ends at its break, which starts the next line), so this is their line start at
         * {@code at}. Asked only for a {@code .entry} candidate (issue 11: the line start kept up to date at every
         * {@code 'y'} and {@code '/'} walked back over most of the text a second time).
         */
        private int lineStart(int at) {
            // from the previous candidate on, so that the text is walked back over at most once in all (a line of
            // many candidates costs no more than a line of one)
            int found = lastLineStart;
            for (int k = at - 1; k >= lastCandidate; k--) {
                if (text[k] == '\n') {
                    found = k + 1;
                    break;
                }
            }
            lastCandidate = at;
            lastLineStart = found;
            return found;
        }

        /** A '/' at {@code at}, plain text since {@code from}; returns where the scan goes on. */
        private int slash(int at) {
            if (at + 1 >= limit) {
                return limit;
            }
            byte next = text[at + 1];
            if (next == '/') {
                // a line comment: on at its line break, which starts the next line, or stop at the NUL
                int k = lineEnd(at + 2);
                return k < limit && text[k] == 0 ? limit : k;
            }
            if (next == '*') {
                for (int k = at + 2; k < limit; k++) {
                    byte c = text[k];
                    if (c == 0) {
                        return limit;
                    }
                    if (c == '*' && k + 1 < limit && text[k + 1] == '/') {
                        return k + 2;
                    }
                }
                return limit;
            }
            return at + 1;
        }

        /** The first line break or NUL at or after {@code from}, or the limit; eight bytes at a time. */
        private int lineEnd(int from) {
            int i = from;
            for (int last = limit - Long.BYTES; i <= last; i += Long.BYTES) {
                long word = (long) WORDS.get(text, i);
                long found = zeroBytes(word ^ NEWLINE) | zeroBytes(word);
                if (found != 0) {
                    return i + (Long.numberOfTrailingZeros(found) >>> 3);
                }
            }
            for (; i < limit; i++) {
                if (text[i] == '\n' || text[i] == 0) {
                    return i;
                }
            }
            return limit;
        }

        /** A {@code 'y'} at {@code y}, plain text since {@code from}: the end of a ".entry"? */
        private int y(int from, int y) {
            int at = y - ENTR.length;
            if (at < from || !matches(at, ENTR, y)) {
                return y + 1;
            }
            int lineStart = lineStart(at);
            int after = y + 1;
            boolean boundary = at == lineStart || isSpace(text[at - 1]);
            if (!boundary || after >= limit || !isSpace(text[after])) {
                return y + 1;
            }
            int nameStart = after;
            while (nameStart < limit && isSpace(text[nameStart])) {
                nameStart++;
            }
            int nameEnd = nameStart;
            while (nameEnd < limit) {
                byte c = text[nameEnd];
                if (isSpace(c) || c == '(' || c == ';' || c == 0) {
                    break;
                }
                nameEnd++;
            }
            if (externLine != lineStart) {
                externLine = lineStart;
                externScanned = lineStart;
                externSeen = false;
            }
            while (!externSeen && externScanned + EXTERN.length <= at) {
                externSeen = matches(externScanned, EXTERN, at);
                externScanned++;
            }
            if (nameEnd > nameStart && !externSeen) {
                names.add(new String(text, nameStart, nameEnd - nameStart, StandardCharsets.ISO_8859_1));
            }
            return nameEnd;
        }

        private boolean matches(int at, byte[] word, int end) {
            if (at + word.length > end) {
                return false;
            }
            for (int k = 0; k < word.length; k++) {
                if (text[at + k] != word[k]) {
                    return false;
                }
            }
            return true;
        }

        private static boolean isSpace(byte b) {
            return b == ' ' || b == '\t' || b == '\r' || b == '\n';
        }
    }
}
