package io.github.cudastackbudget.core.binary;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte-at-a-time PTX scanner PtxEntryNames had before issue 11, kept as the oracle of its differential tests:
 * the kernels a PTX text defines: the names after {@code .entry} directives ({@code .visible .entry name(},
 * {@code .weak .entry}, {@code .entry}), in text order. Declarations ({@code .extern .entry}) and comments are
 * skipped. The text ends at its first NUL (uncompressed PTX payloads are padded with NULs).
 */
public final class PtxEntryNamesReference {

    private static final byte[] ENTRY = ".entry".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EXTERN = ".extern".getBytes(StandardCharsets.US_ASCII);

    private PtxEntryNamesReference() {
    }

    /** Scans the text between the buffer's position and its limit (or first NUL). */
    public static List<String> scan(ByteBuffer text) {
        List<String> names = new ArrayList<>();
        int end = text.limit();
        int lineStart = text.position();
        boolean inBlockComment = false;
        // '.extern' on the current line before i: scanned once per line as i moves on (not from the line start at
        // each '.entry', which made a long line of many '.entry' quadratic)
        int externLine = lineStart;
        int externScanned = lineStart;
        boolean externSeen = false;
        int i = text.position();
        while (i < end) {
            byte b = text.get(i);
            if (b == 0) {
                break;
            }
            if (inBlockComment) {
                if (b == '\n') {
                    lineStart = i + 1;
                }
                if (b == '*' && i + 1 < end && text.get(i + 1) == '/') {
                    inBlockComment = false;
                    i += 2;
                    continue;
                }
                i++;
                continue;
            }
            if (b == '\n') {
                lineStart = i + 1;
                i++;
                continue;
            }
            if (b == '/' && i + 1 < end) {
                byte next = text.get(i + 1);
                if (next == '/') {
                    while (i < end && text.get(i) != '\n' && text.get(i) != 0) {
                        i++;
                    }
                    continue;
                }
                if (next == '*') {
                    inBlockComment = true;
                    i += 2;
                    continue;
                }
            }
            if (b == '.' && matches(text, i, ENTRY, end) && boundaryBefore(text, i, lineStart)
                    && i + ENTRY.length < end && isSpace(text.get(i + ENTRY.length))) {
                int nameStart = i + ENTRY.length;
                while (nameStart < end && isSpace(text.get(nameStart))) {
                    nameStart++;
                }
                int nameEnd = nameStart;
                while (nameEnd < end && !isSpace(text.get(nameEnd)) && text.get(nameEnd) != '('
                        && text.get(nameEnd) != 0 && text.get(nameEnd) != ';') {
                    nameEnd++;
                }
                if (externLine != lineStart) {
                    externLine = lineStart;
                    externScanned = lineStart;
                    externSeen = false;
                }
                while (!externSeen && externScanned + EXTERN.length <= i) {
                    externSeen = matches(text, externScanned, EXTERN, i);
                    externScanned++;
                }
                if (nameEnd > nameStart && !externSeen) {
                    byte[] name = new byte[nameEnd - nameStart];
                    text.get(nameStart, name);
                    names.add(new String(name, StandardCharsets.ISO_8859_1));
                }
                i = nameEnd;
                continue;
            }
            i++;
        }
        return names;
    }

    private static boolean boundaryBefore(ByteBuffer text, int at, int lineStart) {
        return at == lineStart || isSpace(text.get(at - 1));
    }

    private static boolean matches(ByteBuffer text, int at, byte[] word, int end) {
        if (at + word.length > end) {
            return false;
        }
        for (int k = 0; k < word.length; k++) {
            if (text.get(at + k) != word[k]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }
}
