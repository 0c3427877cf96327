package io.github.cudastackbudget.core.binary;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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
    /** The fixed part of an entry header; what follows it up to the header size is described by its fields. */
    static final int BASE_ENTRY_HEADER = 0x40;
    /** More header than any real entry has (seen: 0x40 to 0x90); guards corrupt sizes. */
    static final int MAX_ENTRY_HEADER = 0x1000;

    /**
     * One entry.
     *
     * @param header        its header
     * @param region        the region it was found in
     * @param payloadOffset where the payload starts in {@code region}
     * @param storedSize    the payload's bytes as stored (the compressed size of a compressed entry)
     */
    public record Entry(FatbinEntry header, ByteRegion region, long payloadOffset, int storedSize) {

        /**
         * A heap copy of the payload as stored ({@link ByteRegion#copy}: positional reads of a file, nothing mapped).
         */
        public byte[] payloadBytes() throws BinaryFormatException {
            return region.copy(payloadOffset, storedSize);
        }

        /** The payload as stored, into the first {@link #storedSize()} bytes of {@code into}. */
        public void payloadInto(byte[] into) throws BinaryFormatException {
            region.copyInto(payloadOffset, into, storedSize);
        }
    }

    /**
     * The bytes of the headers, read a window at a time: of a file read with positional reads ({@link ByteRegion#read})
     * only the headers and the few bytes around them are read, never the payloads between them (issue 11: a mapping
     * made most of libtorch_cuda.so's 400 MB of entries resident, a view of the whole section read it all).
     */
    private static final class Window {
        /** Bytes read at once: at least the largest entry header ({@link #MAX_ENTRY_HEADER}). */
        private static final int SIZE = 8192;

        private final ByteRegion region;
        private final long end;
        private final boolean whole;
        private ByteBuffer bytes;
        private long start;

        Window(ByteRegion region, long end) throws BinaryFormatException {
            this.region = region;
            this.end = end;
            // an in-memory region (or a file mapped at once) hands out views: one view of all of it costs nothing
            this.whole = region.inMemory();
            if (whole) {
                bytes = region.slice(0, end);
            }
        }

        /** A buffer holding {@code length} bytes at {@code position} (which must lie before the end), and its index. */
        int at(long position, int length) throws BinaryFormatException {
            if (whole) {
                return (int) position;
            }
            if (bytes == null || position < start || position + length > start + bytes.limit()) {
                start = position;
                bytes = region.slice(position, Math.min(Math.max(SIZE, length), end - position));
            }
            return (int) (position - start);
        }

        ByteBuffer bytes() {
            return bytes;
        }

        /**
         * The first position from {@code position} on, in steps of 8, whose 8-byte word is not zero or that has fewer
         * than 8 bytes before {@code limit}: the zero padding between containers and entries, skipped in windows that
         * grow to 1 MiB (a long run of zeros is read quickly, never a word at a time).
         */
        long skipZeros(long position, long limit) throws BinaryFormatException {
            int chunk = SIZE;
            while (limit - position >= 8) {
                int at = at(position, 8);
                long stop = Math.min(bytes.limit(), at + (limit - position));
                while (at + 8 <= stop) {
                    if (bytes.getLong(at) != 0) {
                        return position;
                    }
                    at += 8;
                    position += 8;
                }
                if (limit - position >= 8 && !whole) {
                    chunk = Math.min(chunk * 2, 1 << 20);
                    start = position;
                    bytes = region.slice(position, Math.min(chunk, end - position));
                }
            }
            return position;
        }
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
        long size = region.size();
        Window window = new Window(region, size);
        List<Entry> entries = new ArrayList<>();
        long position = 0;
        while (position < size) {
            long next = window.skipZeros(position, size); // zero padding between containers
            if (next != position) {
                position = next;
                continue;
            }
            int at = window.at(position, (int) Math.min(CONTAINER_HEADER, size - position));
            ByteBuffer bytes = window.bytes();
            if (size - position < CONTAINER_HEADER) {
                if (allZero(bytes, at, at + (size - position))) {
                    break;
                }
                throw new BinaryFormatException(source, region.fileOffset(position), (size - position)
                        + " trailing bytes that are neither zero padding nor a fatbin container header");
            }
            int magic = bytes.getInt(at);
            if (magic != MAGIC) {
                throw new BinaryFormatException(source, region.fileOffset(position), "expected the fatbin container "
                        + "magic 0xBA55ED50, found 0x" + Integer.toHexString(magic));
            }
            int version = ElfFile.u16(bytes, at + 4);
            int headerSize = ElfFile.u16(bytes, at + 6);
            long entriesSize = bytes.getLong(at + 8);
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
            readEntries(region, window, start, start + entriesSize, entries);
            position = start + entriesSize;
        }
        return entries;
    }

    /**
     * The flags word of the first entry, reading only the bytes up to it (zero words skipped, one container header):
     * for telling a file's host without walking it; -1 when there is no entry.
     */
    static long firstEntryFlags(ByteRegion region) throws BinaryFormatException {
        long position = 0;
        while (true) {
            while (region.contains(position, 8) && region.slice(position, 8).getLong(0) == 0) {
                position += 8;
            }
            if (!region.contains(position, CONTAINER_HEADER) || region.slice(position, 4).getInt(0) != MAGIC) {
                return -1;
            }
            long entriesSize = region.slice(position + 8, 8).getLong(0);
            long entry = position + CONTAINER_HEADER;
            if (entriesSize >= 0x30 && region.contains(entry, 0x30)) {
                return region.slice(entry + 0x28, 8).getLong(0);
            }
            if (entriesSize != 0) {
                return -1;
            }
            position = entry; // an empty container
        }
    }

    private static void readEntries(ByteRegion region, Window window, long start, long end, List<Entry> entries)
            throws BinaryFormatException {
        String source = region.source();
        long position = start;
        while (position < end) {
            long next = window.skipZeros(position, end);
            if (next != position) {
                position = next;
                continue;
            }
            int at = window.at(position, (int) Math.min(BASE_ENTRY_HEADER, end - position));
            ByteBuffer bytes = window.bytes();
            if (end - position < 0x40) {
                if (allZero(bytes, at, at + (end - position))) {
                    return;
                }
                throw new BinaryFormatException(source, region.fileOffset(position), "truncated fatbin entry header ("
                        + (end - position) + " bytes left in the container)");
            }
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
            if (headerSize > BASE_ENTRY_HEADER && headerSize <= MAX_ENTRY_HEADER && headerSize <= end - position) {
                at = window.at(position, headerSize); // the whole header, for what its fields point into
                bytes = window.bytes();
            }
            checkHeaderLayout(bytes, at, headerSize, end - position, descriptor, identifierOffset,
                    identifierLength, source, fileOffset);
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
                    if (optionsOffset == 0 && optionsLength == 0) {
                        options = null; // the empty descriptor of Windows builds: cuobjdump prints no ptxasOptions line
                    } else if (optionsLength > 0) {
                        options = headerString(bytes, at, headerSize, optionsOffset, optionsLength, source,
                                fileOffset + descriptor, "ptxas options");
                    }
                }
            }
            FatbinEntry header = new FatbinEntry(fileOffset, kind, headerSize, payloadSize, compressedSize, major,
                    minor, arch, identifier, options, flags, uncompressedSize);
            long stored = compressed ? compressedSize : payloadSize;
            if (stored > ByteRegion.MAX_SLICE) {
                throw new BinaryFormatException(source, fileOffset + 8, stored + " bytes are to be read in one piece, "
                        + "more than the 2 GiB a Java buffer holds");
            }
            entries.add(new Entry(header, region, position + headerSize, (int) stored));
            position += headerSize + payloadSize;
        }
    }

    /**
     * The header size is not a fixed set of layouts: it is the 64-byte base plus what the base fields point into, padded
     * to 8 bytes. Seen: 0x40 (nothing more), 0x48 + ptxas options (PTX: 0x50, 0x58, 0x90), 0x48 + the compatibility
     * blob (cubins for sm_100 and newer: 0x60 to 0x70), 0x40 + the identifier ({@code -G}: 0x68), 0x40 + an empty
     * descriptor {0, 0} (PTX entries without ptxas options built on Windows: 0x48). So the header must be
     * a multiple of 8 of at least 0x40, and every byte past 0x40 must be accounted for by the descriptor at 0x14 (an
     * 8-byte {offset, length} pair and the bytes it names) or the identifier at 0x20/0x24, with at most 8 bytes of
     * padding after the last of them; anything else is an unknown layout and fails.
     */
    private static void checkHeaderLayout(ByteBuffer bytes, int at, int headerSize, long available, long descriptor,
            long identifierOffset, long identifierLength, String source, long fileOffset)
            throws BinaryFormatException {
        String layout = " (descriptor at 0x" + Long.toHexString(descriptor) + ", identifier " + identifierLength
                + " bytes at 0x" + Long.toHexString(identifierOffset) + ")";
        if (headerSize < BASE_ENTRY_HEADER || headerSize % 8 != 0 || headerSize > MAX_ENTRY_HEADER) {
            throw new BinaryFormatException(source, fileOffset + 4, "fatbin entry header size 0x"
                    + Integer.toHexString(headerSize) + " is not a multiple of 8 between 0x40 and 0x"
                    + Integer.toHexString(MAX_ENTRY_HEADER) + layout);
        }
        if (headerSize > available) {
            throw new BinaryFormatException(source, fileOffset + 4, "fatbin entry header of 0x"
                    + Integer.toHexString(headerSize) + " bytes does not fit the " + available
                    + " bytes left in its container (truncated?)");
        }
        long covered = BASE_ENTRY_HEADER;
        if (descriptor != 0) {
            if (descriptor < BASE_ENTRY_HEADER || descriptor % 4 != 0 || descriptor + 8 > headerSize) {
                throw new BinaryFormatException(source, fileOffset + 0x14, "fatbin entry descriptor offset 0x"
                        + Long.toHexString(descriptor) + " does not point into the 0x" + Integer.toHexString(headerSize)
                        + "-byte entry header after its 0x40-byte base" + layout);
            }
            long offset = ElfFile.u32(bytes, at + (int) descriptor);
            long length = ElfFile.u32(bytes, at + (int) descriptor + 4);
            if (offset == 0 && length == 0) {
                // an empty descriptor {0, 0}: nvcc on Windows writes it for PTX entries without ptxas options
                // (header 0x48, descriptor at 0x40; the ONNX Runtime DLL: 184 such entries)
                offset = descriptor + 8;
            }
            if (offset < descriptor + 8 || offset > headerSize || length > headerSize - offset) {
                throw new BinaryFormatException(source, fileOffset + descriptor, "fatbin entry descriptor names "
                        + length + " bytes at 0x" + Long.toHexString(offset) + ", not inside the 0x"
                        + Integer.toHexString(headerSize) + "-byte entry header after the descriptor" + layout);
            }
            covered = Math.max(covered, offset + length);
        }
        if (identifierOffset != 0) {
            if (identifierOffset < BASE_ENTRY_HEADER || identifierOffset > headerSize
                    || identifierLength > headerSize - identifierOffset) {
                throw new BinaryFormatException(source, fileOffset + 0x20, "fatbin entry identifier ("
                        + identifierLength + " bytes at 0x" + Long.toHexString(identifierOffset) + ") does not lie in "
                        + "the 0x" + Integer.toHexString(headerSize) + "-byte entry header after its 0x40-byte base");
            }
            covered = Math.max(covered, identifierOffset + identifierLength);
        }
        if (headerSize > covered + 8) {
            throw new BinaryFormatException(source, fileOffset + 4, "fatbin entry header size 0x"
                    + Integer.toHexString(headerSize) + ": bytes 0x" + Long.toHexString(covered) + " to 0x"
                    + Integer.toHexString(headerSize) + " are not described by the descriptor or the identifier"
                    + layout + "; an unknown header layout");
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
