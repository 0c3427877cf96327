package io.github.cudastackbudget.core.binary;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The members of a Unix {@code ar} archive (static library): 8-byte magic {@code !<arch>\n}, then per member a
 * 60-byte header (name 0..15, decimal size 48..57, terminator {@code `\n} at 58) and the body padded to an even
 * offset. GNU names end with {@code /}; {@code /} and {@code /SYM64/} are symbol tables, {@code //} holds long names
 * referenced as {@code /<offset>}; BSD names {@code #1/<length>} precede the body; BSD symbol tables
 * ({@code __.SYMDEF...}) are skipped like GNU ones. Thin archives ({@code !<thin>\n}) hold no member bodies and are
 * refused.
 */
public final class ArArchive {

    private static final byte[] MAGIC = "!<arch>\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] THIN_MAGIC = "!<thin>\n".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = 60;

    /** One member: its name and where its body lies in the archive. */
    public record Member(String name, long offset, long size) {
    }

    private ArArchive() {
    }

    /** Whether the region starts with the {@code ar} magic (thin archives included, so they are refused clearly). */
    public static boolean isArchive(ByteRegion region) throws BinaryFormatException {
        return startsWith(region, MAGIC) || startsWith(region, THIN_MAGIC);
    }

    /**
     * The regular members in archive order (symbol and long-name tables left out).
     *
     * @throws BinaryFormatException for a thin archive or a member header that cannot be read
     */
    public static List<Member> members(ByteRegion region) throws BinaryFormatException {
        String source = region.source();
        if (startsWith(region, THIN_MAGIC)) {
            throw new BinaryFormatException(source, region.fileOffset(0), "a thin ar archive (!<thin>) holds only "
                    + "the names of its members; give the member files themselves");
        }
        if (!startsWith(region, MAGIC)) {
            throw new BinaryFormatException(source, region.fileOffset(0), "not an ar archive (no !<arch> magic)");
        }
        List<Member> members = new ArrayList<>();
        ByteBuffer longNames = ByteBuffer.allocate(0);
        long position = MAGIC.length;
        long size = region.size();
        while (position < size) {
            if (size - position == 1 && region.slice(position, 1).get(0) == '\n') {
                break; // a trailing pad byte
            }
            if (size - position < HEADER) {
                throw new BinaryFormatException(source, region.fileOffset(position), "truncated archive member header ("
                        + (size - position) + " of " + HEADER + " bytes)");
            }
            String header = ascii(region.slice(position, HEADER));
            if (!header.endsWith("`\n")) {
                throw new BinaryFormatException(source, region.fileOffset(position + 58), "archive member header "
                        + "does not end with the `\\n terminator");
            }
            long memberSize = decimal(header.substring(48, 58));
            long data = position + HEADER;
            if (memberSize < 0 || !region.contains(data, memberSize)) {
                throw new BinaryFormatException(source, region.fileOffset(position + 48), "archive member size '"
                        + header.substring(48, 58).strip() + "' is not a size that fits the " + size
                        + "-byte archive (truncated?)");
            }
            String rawName = header.substring(0, 16).stripTrailing();
            long bodyOffset = data;
            long bodySize = memberSize;
            String name;
            if (rawName.equals("/") || rawName.equals("/SYM64/") || rawName.startsWith("__.SYMDEF")) {
                name = null;
            } else if (rawName.equals("//")) {
                name = null;
                longNames = region.slice(data, memberSize);
            } else if (rawName.startsWith("#1/")) {
                long nameLength = decimal(rawName.substring(3));
                if (nameLength < 0 || nameLength > memberSize) {
                    throw new BinaryFormatException(source, region.fileOffset(position), "malformed BSD member name '"
                            + rawName + "'");
                }
                name = ascii(region.slice(data, nameLength)).replace("\0", "");
                bodyOffset += nameLength;
                bodySize -= nameLength;
                if (name.startsWith("__.SYMDEF")) {
                    name = null;
                }
            } else if (rawName.length() > 1 && rawName.charAt(0) == '/' && decimal(rawName.substring(1)) >= 0) {
                name = longName(longNames, decimal(rawName.substring(1)), source, region.fileOffset(position));
            } else {
                name = rawName.endsWith("/") ? rawName.substring(0, rawName.length() - 1) : rawName;
            }
            if (name != null) {
                members.add(new Member(name, bodyOffset, bodySize));
            }
            long next = data + memberSize;
            position = next + (next & 1);
        }
        return members;
    }

    private static String longName(ByteBuffer table, long offset, String source, long where)
            throws BinaryFormatException {
        if (offset >= table.limit()) {
            throw new BinaryFormatException(source, where, "archive member name /" + offset
                    + " points outside the " + table.limit() + "-byte long-name table");
        }
        int end = (int) offset;
        while (end < table.limit() && table.get(end) != '\n') {
            end++;
        }
        byte[] bytes = new byte[end - (int) offset];
        table.get((int) offset, bytes);
        String name = new String(bytes, StandardCharsets.ISO_8859_1);
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    private static boolean startsWith(ByteRegion region, byte[] magic) throws BinaryFormatException {
        if (region.size() < magic.length) {
            return false;
        }
        ByteBuffer head = region.slice(0, magic.length);
        for (int i = 0; i < magic.length; i++) {
            if (head.get(i) != magic[i]) {
                return false;
            }
        }
        return true;
    }

    private static String ascii(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(buffer.position(), bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static long decimal(String text) {
        String digits = text.strip();
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Long.parseLong(digits);
    }
}
