package io.github.cudastackbudget.core.scan;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Tells whether a file carries CUDA device code, by its magic bytes and, for ELF files, by its
 * section headers.
 *
 * <ul>
 *   <li>ELF with {@code e_machine == EM_CUDA}: a {@linkplain BinaryKind#CUBIN cubin}, device code.</li>
 *   <li>Other ELF: {@linkplain BinaryKind#HOST_ELF host ELF}, device code iff it has a section named
 *       exactly {@code .nv_fatbin} or {@code __nv_relfatbin}.</li>
 *   <li>Fatbin magic {@code 0xBA55ED50}: a {@linkplain BinaryKind#FATBIN fatbin}, device code.</li>
 *   <li>{@code ar} archive: device code iff any ELF member has it by the rules above; the members'
 *       names are listed in {@link DeviceCodeProbe#membersWithDeviceCode()}. GNU ({@code /},
 *       {@code //}, {@code /123}) and BSD ({@code #1/NN}) member names are understood.</li>
 *   <li>Anything else: {@linkplain BinaryKind#UNKNOWN unknown}, no device code.</li>
 * </ul>
 *
 * <p>Only headers and the section-name string tables are read, with positional reads, so probing a
 * 500 MB library costs a few kilobytes of I/O. Malformed or truncated content never throws: the probe
 * says {@code hasDeviceCode == false} and why.
 */
public final class DeviceCodeDetector {

    private static final byte[] ELF_MAGIC = {0x7F, 'E', 'L', 'F'};
    /** {@code 0xBA55ED50} stored little-endian. */
    private static final byte[] FATBIN_MAGIC = {0x50, (byte) 0xED, 0x55, (byte) 0xBA};
    private static final byte[] AR_MAGIC = "!<arch>\n".getBytes(StandardCharsets.US_ASCII);

    private static final int AR_HEADER_SIZE = 60;
    private static final int MAX_MEMBER_NAME = 4096;
    private static final long MAX_LONG_NAME_TABLE = 16L << 20;

    static final String NOT_RECOGNISED = "not an ELF file, fatbin or ar archive";

    private DeviceCodeDetector() {
    }

    /**
     * Probes one file.
     *
     * @param file the file to probe
     * @return what the file is and whether it carries CUDA device code
     * @throws IOException when the file cannot be opened or read (not for malformed content)
     */
    public static DeviceCodeProbe probe(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer head = ElfSectionReader.readFully(channel, 0, (int) Math.min(size, AR_MAGIC.length));
            if (startsWith(head, ELF_MAGIC)) {
                ElfSectionReader.Result elf = ElfSectionReader.read(channel, 0, size);
                return new DeviceCodeProbe(file, elf.kind(), elf.hasDeviceCode(), elf.detail(), List.of());
            }
            if (startsWith(head, FATBIN_MAGIC)) {
                return new DeviceCodeProbe(file, BinaryKind.FATBIN, true, "fatbin (magic 0xBA55ED50)", List.of());
            }
            if (startsWith(head, AR_MAGIC)) {
                return probeArchive(file, channel, size);
            }
            return new DeviceCodeProbe(file, BinaryKind.UNKNOWN, false, NOT_RECOGNISED, List.of());
        }
    }

    /**
     * Walks the members of an {@code ar} archive and probes each ELF member in place.
     *
     * <p>Each member has a 60-byte header: name (16), date (12), uid (6), gid (6), mode (8), size (10)
     * and the terminator {@code "`\n"}; member data is padded to an even offset.
     */
    private static DeviceCodeProbe probeArchive(Path file, FileChannel channel, long size) throws IOException {
        List<String> withDeviceCode = new ArrayList<>();
        byte[] longNames = new byte[0];
        int elfMembers = 0;
        String problem = null;
        long position = AR_MAGIC.length;
        while (position < size && problem == null) {
            if (size - position < AR_HEADER_SIZE) {
                problem = "truncated member header at offset " + position;
                break;
            }
            String header = ascii(ElfSectionReader.readFully(channel, position, AR_HEADER_SIZE));
            long memberSize = parseDecimal(header.substring(48, 58));
            if (!header.endsWith("`\n") || memberSize < 0) {
                problem = "malformed member header at offset " + position;
                break;
            }
            long data = position + AR_HEADER_SIZE;
            long next = data + memberSize;
            if (memberSize > size - data) {
                problem = "member at offset " + position + " extends beyond end of file (truncated?)";
                memberSize = size - data;
            }

            String rawName = header.substring(0, 16).stripTrailing();
            String name;
            if (rawName.equals("/") || rawName.equals("/SYM64/")) {
                name = null; // GNU symbol table
            } else if (rawName.equals("//")) {
                name = null; // GNU long-name table
                if (memberSize <= MAX_LONG_NAME_TABLE) {
                    ByteBuffer table = ElfSectionReader.readFully(channel, data, (int) memberSize);
                    longNames = new byte[table.remaining()];
                    table.get(longNames);
                }
            } else if (rawName.startsWith("#1/")) {
                // BSD: the name is the first NN bytes of the member data
                long nameLength = parseDecimal(rawName.substring(3));
                if (nameLength < 0 || nameLength > memberSize || nameLength > MAX_MEMBER_NAME) {
                    problem = "malformed BSD member name at offset " + position;
                    break;
                }
                name = ascii(ElfSectionReader.readFully(channel, data, (int) nameLength)).replace("\0", "");
                data += nameLength;
                memberSize -= nameLength;
            } else if (rawName.length() > 1 && rawName.charAt(0) == '/' && parseDecimal(rawName.substring(1)) >= 0) {
                name = longName(longNames, parseDecimal(rawName.substring(1)), rawName);
            } else {
                name = rawName.endsWith("/") ? rawName.substring(0, rawName.length() - 1) : rawName;
            }

            if (name != null && memberSize >= ELF_MAGIC.length
                    && startsWith(ElfSectionReader.readFully(channel, data, ELF_MAGIC.length), ELF_MAGIC)) {
                elfMembers++;
                if (ElfSectionReader.read(channel, data, memberSize).hasDeviceCode()) {
                    withDeviceCode.add(name);
                }
            }
            position = next + (next & 1);
        }

        String detail = withDeviceCode.isEmpty()
                ? "ar archive, no member with device code (" + elfMembers + " ELF members)"
                : "ar archive, " + withDeviceCode.size() + " of " + elfMembers + " ELF members with device code";
        if (problem != null) {
            detail += "; " + problem;
        }
        return new DeviceCodeProbe(file, BinaryKind.AR_ARCHIVE, !withDeviceCode.isEmpty(), detail, withDeviceCode);
    }

    /** A GNU long name: the entry at {@code offset} of the {@code //} table, ended by "/\n" or "\n". */
    private static String longName(byte[] table, long offset, String fallback) {
        if (offset >= table.length) {
            return fallback;
        }
        int end = (int) offset;
        while (end < table.length && table[end] != '\n') {
            end++;
        }
        String name = new String(table, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    private static boolean startsWith(ByteBuffer buffer, byte[] magic) {
        if (buffer.remaining() < magic.length) {
            return false;
        }
        int start = buffer.position();
        return Arrays.equals(buffer.array(), start, start + magic.length, magic, 0, magic.length);
    }

    private static String ascii(ByteBuffer buffer) {
        return new String(buffer.array(), buffer.position(), buffer.remaining(), StandardCharsets.ISO_8859_1);
    }

    /** A non-negative decimal number padded with spaces, or -1 when it is not one. */
    private static long parseDecimal(String text) {
        String digits = text.strip();
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Long.parseLong(digits);
    }
}
