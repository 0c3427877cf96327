package io.github.cudastackbudget.core.binary;

import io.github.cudastackbudget.core.text.Printable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The members of a Unix {@code ar} archive (static library): 8-byte magic {@code !<arch>\n}, then per member a
 * 60-byte header (name 0..15, decimal size 48..57, terminator {@code `\n} at 58) and the body padded to an even
 * offset. GNU names end with {@code /}; {@code /} and {@code /SYM64/} are symbol tables, {@code //} holds long names
 * referenced as {@code /<offset>}; BSD names {@code #1/<length>} precede the body; BSD symbol tables
 * ({@code __.SYMDEF...}) are skipped like GNU ones. Thin archives ({@code !<thin>\n}) are recognised: they hold no
 * member bodies, so their walk ends at once with the reason ({@link #THIN}).
 *
 * <p>This is the one {@code ar} walker: {@link #members} for the native reader (any problem fails the read),
 * {@link #walk} for the device-code detector (the members before a problem, and the problem).
 */
public final class ArArchive {

    private static final byte[] MAGIC = "!<arch>\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] THIN_MAGIC = "!<thin>\n".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = 60;
    /** The most characters of a member name kept (real names are file names: far shorter). */
    private static final int MAX_NAME = 1024;

    /** Why a thin archive cannot be read. */
    public static final String THIN = "a thin ar archive (!<thin>) holds only the names of its members; give the "
            + "member files themselves";

    /** One member: its name and where its body lies in the archive. */
    public record Member(String name, long offset, long size) {
    }

    /**
     * A walk over an archive.
     *
     * @param thin    whether the archive is a thin one (then {@code members} is empty and {@code problem} says why)
     * @param members the regular members before {@code problem}, in archive order (symbol and long-name tables left
     *                out)
     * @param problem why the walk stopped before the end, or null when every member was read
     */
    public record Walk(boolean thin, List<Member> members, BinaryFormatException problem) {
        public Walk {
            members = List.copyOf(members);
        }
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
        Walk walk = walk(region);
        if (walk.problem() != null) {
            throw walk.problem();
        }
        return walk.members();
    }

    /**
     * Walks the members up to the end or to the first one that cannot be read.
     *
     * @throws BinaryFormatException only when the region is no archive, or reading it fails
     */
    public static Walk walk(ByteRegion region) throws BinaryFormatException {
        String source = region.source();
        if (startsWith(region, THIN_MAGIC)) {
            return new Walk(true, List.of(), new BinaryFormatException(source, region.fileOffset(0), THIN));
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
                return stopped(members, source, region.fileOffset(position), "truncated archive member header ("
                        + (size - position) + " of " + HEADER + " bytes)");
            }
            String header = ascii(region.slice(position, HEADER));
            if (!header.endsWith("`\n")) {
                return stopped(members, source, region.fileOffset(position + 58), "archive member header "
                        + "does not end with the `\\n terminator");
            }
            long memberSize = decimal(header.substring(48, 58));
            long data = position + HEADER;
            if (memberSize < 0 || !region.contains(data, memberSize)) {
                return stopped(members, source, region.fileOffset(position + 48), "archive member size '"
                        + Printable.of(header.substring(48, 58).strip()) + "' is not a size that fits the " + size
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
                    return stopped(members, source, region.fileOffset(position), "malformed BSD member name '"
                            + Printable.of(rawName) + "'");
                }
                name = ascii(region.slice(data, nameLength)).replace("\0", "");
                bodyOffset += nameLength;
                bodySize -= nameLength;
                if (name.startsWith("__.SYMDEF")) {
                    name = null;
                }
            } else if (rawName.length() > 1 && rawName.charAt(0) == '/' && decimal(rawName.substring(1)) >= 0) {
                long offset = decimal(rawName.substring(1));
                if (offset >= longNames.limit()) {
                    return stopped(members, source, region.fileOffset(position), "archive member name /" + offset
                            + " points outside the " + longNames.limit() + "-byte long-name table");
                }
                name = longName(longNames, offset);
            } else {
                name = rawName.endsWith("/") ? rawName.substring(0, rawName.length() - 1) : rawName;
            }
            if (name != null) {
                // the name goes into messages and reports (libx.a(name)): quoted on one line when it holds control
                // characters or bytes outside ASCII
                members.add(new Member(Printable.of(name, MAX_NAME), bodyOffset, bodySize));
            }
            long next = data + memberSize;
            position = next + (next & 1);
        }
        return new Walk(false, members, null);
    }

    private static Walk stopped(List<Member> members, String source, long offset, String what) {
        return new Walk(false, members, new BinaryFormatException(source, offset, what));
    }

    /** The GNU long name at {@code offset} of the {@code //} table, ended by "/\n" or "\n". */
    private static String longName(ByteBuffer table, long offset) {
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
