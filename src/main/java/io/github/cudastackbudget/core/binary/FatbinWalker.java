package io.github.cudastackbudget.core.binary;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Walks the fatbin containers of one {@code .nv_fatbin}/{@code __nv_relfatbin} section or {@code .fatbin} file and
 * the entries inside each (docs/cuda-binary-format.md section 3). Containers follow each other; 8-byte zero words
 * between containers or entries are skipped. Any other layout fails loudly: a container version other than 1, a
 * header size other than 0x10, an entry kind other than 1/2, an entry header size not seen on real files, a flag bit
 * outside {@link FatbinEntry#KNOWN_FLAGS}, both compression bits, sizes that do not fit.
 */
public final class FatbinWalker {

    public static final int MAGIC = 0xBA55ED50;
    private static final int CONTAINER_HEADER = 0x10;
    /** Entry header sizes seen on real files (nvcc 11 to 13, shipped libraries). */
    public static final Set<Integer> ENTRY_HEADER_SIZES = Set.of(0x40, 0x50, 0x60, 0x68, 0x70);

    /** One entry and its stored (maybe compressed) payload. */
    public record Entry(FatbinEntry header, ByteBuffer payload) {
    }

    private FatbinWalker() {
    }

    /** Whether the region starts with the fatbin container magic. */
    public static boolean isFatbin(ByteRegion region) throws BinaryFormatException {
        return region.size() >= 4 && region.slice(0, 4).getInt(0) == MAGIC;
    }

    /**
     * Every entry of every container, in order.
     *
     * @param region the section (or whole file) holding containers
     */
    public static List<Entry> entries(ByteRegion region) throws BinaryFormatException {
        String source = region.source();
        ByteBuffer bytes = region.slice(0, region.size());
        long size = region.size();
        List<Entry> entries = new ArrayList<>();
        long position = 0;
        while (position < size) {
            if (size - position >= 8 && bytes.getLong((int) position) == 0) {
                position += 8; // zero padding between containers
                continue;
            }
            if (size - position < CONTAINER_HEADER) {
                if (allZero(bytes, position, size)) {
                    break;
                }
                throw new BinaryFormatException(source, region.fileOffset(position), (size - position)
                        + " trailing bytes that are neither zero padding nor a fatbin container header");
            }
            int magic = bytes.getInt((int) position);
            if (magic != MAGIC) {
                throw new BinaryFormatException(source, region.fileOffset(position), "expected the fatbin container "
                        + "magic 0xBA55ED50, found 0x" + Integer.toHexString(magic));
            }
            int version = ElfFile.u16(bytes, (int) position + 4);
            int headerSize = ElfFile.u16(bytes, (int) position + 6);
            long entriesSize = bytes.getLong((int) position + 8);
            if (version != 1) {
                throw new BinaryFormatException(source, region.fileOffset(position + 4), "fatbin container version "
                        + version + " (only version 1 is known)");
            }
            if (headerSize != CONTAINER_HEADER) {
                throw new BinaryFormatException(source, region.fileOffset(position + 6), "fatbin container header "
                        + "size 0x" + Integer.toHexString(headerSize) + " (only 0x10 is known)");
            }
            long start = position + headerSize;
            if (entriesSize < 0 || entriesSize > size - start) {
                throw new BinaryFormatException(source, region.fileOffset(position + 8), "fatbin container declares "
                        + Long.toUnsignedString(entriesSize) + " bytes of entries but only " + (size - start)
                        + " follow (truncated?)");
            }
            readEntries(region, bytes, start, start + entriesSize, entries);
            position = start + entriesSize;
        }
        return entries;
    }

    private static void readEntries(ByteRegion region, ByteBuffer bytes, long start, long end, List<Entry> entries)
            throws BinaryFormatException {
        String source = region.source();
        long position = start;
        while (position < end) {
            if (end - position >= 8 && bytes.getLong((int) position) == 0) {
                position += 8;
                continue;
            }
            if (end - position < 0x40) {
                if (allZero(bytes, position, end)) {
                    return;
                }
                throw new BinaryFormatException(source, region.fileOffset(position), "truncated fatbin entry header ("
                        + (end - position) + " bytes left in the container)");
            }
            int at = (int) position;
            long fileOffset = region.fileOffset(position);
            int kind = ElfFile.u16(bytes, at);
            int headerSize = bytes.getInt(at + 4);
            long payloadSize = bytes.getLong(at + 8);
            long compressedSize = ElfFile.u32(bytes, at + 0x10);
            long descriptor = ElfFile.u32(bytes, at + 0x14);
            int minor = ElfFile.u16(bytes, at + 0x18);
            int major = ElfFile.u16(bytes, at + 0x1A);
            int arch = bytes.getInt(at + 0x1C);
            long identifierOffset = ElfFile.u32(bytes, at + 0x20);
            long identifierLength = ElfFile.u32(bytes, at + 0x24);
            long flags = bytes.getLong(at + 0x28);
            long uncompressedSize = bytes.getLong(at + 0x38);
            if (kind != FatbinEntry.KIND_PTX && kind != FatbinEntry.KIND_ELF) {
                throw new BinaryFormatException(source, fileOffset, "fatbin entry kind " + kind
                        + " (only 1 = PTX and 2 = ELF cubin are known)");
            }
            if (!ENTRY_HEADER_SIZES.contains(headerSize)) {
                throw new BinaryFormatException(source, fileOffset + 4, "fatbin entry header size 0x"
                        + Integer.toHexString(headerSize) + " (known: 0x40, 0x50, 0x60, 0x68, 0x70)");
            }
            if ((flags & ~FatbinEntry.KNOWN_FLAGS) != 0) {
                throw new BinaryFormatException(source, fileOffset + 0x28, "fatbin entry flags 0x"
                        + Long.toHexString(flags) + " carry unknown bits 0x" + Long.toHexString(flags & ~FatbinEntry.KNOWN_FLAGS)
                        + " that may change the layout");
            }
            if ((flags & FatbinEntry.FLAG_LZ4) != 0 && (flags & FatbinEntry.FLAG_ZSTD) != 0) {
                throw new BinaryFormatException(source, fileOffset + 0x28, "fatbin entry flags 0x"
                        + Long.toHexString(flags) + " name both LZ4 (0x2000) and Zstandard (0x8000) compression");
            }
            if (payloadSize < 0 || payloadSize > end - position - headerSize) {
                throw new BinaryFormatException(source, fileOffset + 8, "fatbin entry payload of "
                        + Long.toUnsignedString(payloadSize) + " bytes does not fit the "
                        + (end - position - headerSize) + " bytes left in its container (truncated?)");
            }
            boolean compressed = (flags & (FatbinEntry.FLAG_LZ4 | FatbinEntry.FLAG_ZSTD)) != 0;
            if (compressed && (compressedSize == 0 || compressedSize > payloadSize)) {
                throw new BinaryFormatException(source, fileOffset + 0x10, "compressed fatbin entry declares "
                        + compressedSize + " compressed bytes in a payload of " + payloadSize + " bytes");
            }
            if (compressed && uncompressedSize <= 0) {
                throw new BinaryFormatException(source, fileOffset + 0x38, "compressed fatbin entry declares an "
                        + "uncompressed size of " + Long.toUnsignedString(uncompressedSize) + " bytes");
            }
            String identifier = identifierOffset == 0 ? ""
                    : headerString(bytes, at, headerSize, identifierOffset, identifierLength, source, fileOffset + 0x20,
                            "identifier");
            String options = null;
            if (kind == FatbinEntry.KIND_PTX) {
                options = "";
                if (descriptor != 0) {
                    if (descriptor + 8 > headerSize) {
                        throw new BinaryFormatException(source, fileOffset + 0x14, "PTX options descriptor at 0x"
                                + Long.toHexString(descriptor) + " lies outside the 0x" + Integer.toHexString(headerSize)
                                + "-byte entry header");
                    }
                    long optionsOffset = ElfFile.u32(bytes, at + (int) descriptor);
                    long optionsLength = ElfFile.u32(bytes, at + (int) descriptor + 4);
                    if (optionsLength > 0) {
                        options = headerString(bytes, at, headerSize, optionsOffset, optionsLength, source,
                                fileOffset + descriptor, "ptxas options");
                    }
                }
            }
            FatbinEntry header = new FatbinEntry(fileOffset, kind, headerSize, payloadSize, compressedSize, major,
                    minor, arch, identifier, options, flags, uncompressedSize);
            ByteBuffer payload = region.slice(position + headerSize, compressed ? compressedSize : payloadSize);
            entries.add(new Entry(header, payload));
            position += headerSize + payloadSize;
        }
    }

    /** A string stored inside the entry header, printed by cuobjdump up to its first NUL. */
    private static String headerString(ByteBuffer bytes, int entry, int headerSize, long offset, long length,
            String source, long where, String what) throws BinaryFormatException {
        if (offset > headerSize || length > headerSize - offset) {
            throw new BinaryFormatException(source, where, "the " + what + " (" + length + " bytes at 0x"
                    + Long.toHexString(offset) + ") lies outside the 0x" + Integer.toHexString(headerSize)
                    + "-byte entry header");
        }
        int start = entry + (int) offset;
        int end = start;
        while (end < start + length && bytes.get(end) != 0) {
            end++;
        }
        byte[] text = new byte[end - start];
        bytes.get(start, text);
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    private static boolean allZero(ByteBuffer bytes, long from, long to) {
        for (long i = from; i < to; i++) {
            if (bytes.get((int) i) != 0) {
                return false;
            }
        }
        return true;
    }
}
