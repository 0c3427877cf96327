package io.github.cudastackbudget.core.scan;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Decides whether one ELF image carries CUDA device code, reading only its ELF header, its section
 * header table and its section-name string table with positional reads.
 *
 * <p>The image may be a whole file or a member of an {@code ar} archive: it occupies {@code size}
 * bytes starting at {@code base} in the channel, and every offset found in it is checked against that
 * window, so truncated or corrupt files give a {@link Result} with a reason instead of an exception.
 *
 * <p>Rules: {@code e_machine == EM_CUDA} (190) means a cubin; otherwise the image has device code iff
 * it has a section named exactly {@code .nv_fatbin} (whole-program objects, libraries) or
 * {@code __nv_relfatbin} (relocatable device code, {@code -rdc=true}). ELF32 and ELF64 in either byte
 * order are understood, including extended section numbering ({@code e_shnum == 0},
 * {@code e_shstrndx == SHN_XINDEX}).
 */
final class ElfSectionReader {

    /** The verdict on one ELF image. */
    record Result(BinaryKind kind, boolean hasDeviceCode, String detail) {
    }

    /** {@code e_machine} of CUDA device code. */
    static final int EM_CUDA = 190;

    static final String BEYOND_EOF = "section header table beyond end of file (truncated?)";
    static final String NO_DEVICE_SECTION = "no .nv_fatbin/__nv_relfatbin section";

    private static final List<String> DEVICE_CODE_SECTIONS = List.of(".nv_fatbin", "__nv_relfatbin");
    private static final List<byte[]> DEVICE_CODE_SECTION_BYTES = DEVICE_CODE_SECTIONS.stream()
            .map(name -> name.getBytes(StandardCharsets.US_ASCII))
            .toList();

    private static final int SHN_XINDEX = 0xFFFF;
    /** Largest section-name string table read; real ones are a few kilobytes. */
    private static final long MAX_STRING_TABLE = 64L << 20;
    /** Section headers are read in blocks of about this many bytes. */
    private static final int BLOCK_BYTES = 64 << 10;

    /** Where the fields this reader needs sit in ELF32 and ELF64 headers. */
    private record Layout(String name, int headerSize, int shoff, int shentsize, int shnum, int shstrndx,
                          int sectionHeaderSize, int shOffset, int shSize, int shLink, int wordSize) {
    }

    private static final Layout ELF32 = new Layout("ELF32", 52, 0x20, 0x2E, 0x30, 0x32, 40, 0x10, 0x14, 0x18, 4);
    private static final Layout ELF64 = new Layout("ELF64", 64, 0x28, 0x3A, 0x3C, 0x3E, 64, 0x18, 0x20, 0x28, 8);

    private final FileChannel channel;
    private final long base;
    private final long size;
    private Layout layout;
    private ByteOrder order;

    private ElfSectionReader(FileChannel channel, long base, long size) {
        this.channel = channel;
        this.base = base;
        this.size = size;
    }

    /**
     * Reads the ELF image of {@code size} bytes at {@code base}; the caller has checked its magic.
     *
     * @throws IOException only when reading the channel fails
     */
    static Result read(FileChannel channel, long base, long size) throws IOException {
        return new ElfSectionReader(channel, base, size).read();
    }

    private Result read() throws IOException {
        ByteBuffer header = readAt(0, (int) Math.min(size, ELF64.headerSize()));
        if (header.limit() < 6) {
            return hostElf("truncated ELF header");
        }
        int elfClass = header.get(4);
        int encoding = header.get(5);
        if (elfClass != 1 && elfClass != 2) {
            return hostElf("unsupported ELF class " + elfClass);
        }
        if (encoding != 1 && encoding != 2) {
            return hostElf("unsupported ELF data encoding " + encoding);
        }
        layout = elfClass == 2 ? ELF64 : ELF32;
        order = encoding == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        header.order(order);

        boolean cuda = header.limit() >= 20 && u16(header, 18) == EM_CUDA;
        if (header.limit() < layout.headerSize()) {
            return new Result(cuda ? BinaryKind.CUBIN : BinaryKind.HOST_ELF, false, "truncated ELF header");
        }
        if (cuda) {
            return new Result(BinaryKind.CUBIN, true, layout.name() + " CUDA device code (e_machine EM_CUDA)");
        }
        return scanSections(header);
    }

    private Result scanSections(ByteBuffer header) throws IOException {
        long shoff = word(header, layout.shoff());
        int shentsize = u16(header, layout.shentsize());
        long shnum = u16(header, layout.shnum());
        long shstrndx = u16(header, layout.shstrndx());
        if (shoff == 0) {
            return hostElf("no section header table");
        }
        if (shentsize < layout.sectionHeaderSize()) {
            return hostElf("invalid section header size " + shentsize);
        }
        if (!fits(shoff, shentsize)) {
            return hostElf(BEYOND_EOF);
        }
        if (shnum == 0 || shstrndx == SHN_XINDEX) {
            // extended numbering: the real values live in the otherwise unused section 0
            ByteBuffer section0 = sectionHeader(shoff, shentsize, 0);
            if (shnum == 0) {
                shnum = word(section0, layout.shSize());
            }
            if (shstrndx == SHN_XINDEX) {
                shstrndx = u32(section0, layout.shLink());
            }
        }
        if (shnum == 0) {
            return hostElf("no sections");
        }
        if (shnum < 0 || shnum > (size - shoff) / shentsize) {
            return hostElf(BEYOND_EOF);
        }
        if (shstrndx == 0 || shstrndx >= shnum) {
            return hostElf("no section name string table (e_shstrndx " + shstrndx + ")");
        }

        ByteBuffer stringTableHeader = sectionHeader(shoff, shentsize, shstrndx);
        long tableOffset = word(stringTableHeader, layout.shOffset());
        long tableSize = word(stringTableHeader, layout.shSize());
        if (!fits(tableOffset, tableSize)) {
            return hostElf("section name string table beyond end of file (truncated?)");
        }
        if (tableSize > MAX_STRING_TABLE) {
            return hostElf("section name string table too large (" + tableSize + " bytes)");
        }
        byte[] names = bytes(readAt(tableOffset, (int) tableSize));

        int perBlock = Math.max(1, BLOCK_BYTES / shentsize);
        java.util.Set<String> found = new java.util.TreeSet<>();
        for (long first = 0; first < shnum; first += perBlock) {
            int count = (int) Math.min(perBlock, shnum - first);
            ByteBuffer block = readAt(shoff + first * shentsize, count * shentsize);
            for (int i = 0; i < count; i++) {
                String name = deviceCodeSectionAt(names, u32(block, i * shentsize));
                if (name != null) {
                    found.add(name);
                }
            }
        }
        if (!found.isEmpty()) {
            // ".nv_fatbin" sorts before "__nv_relfatbin": "ELF64 with .nv_fatbin" or "... with .nv_fatbin, __nv_relfatbin"
            return new Result(BinaryKind.HOST_ELF, true, layout.name() + " with " + String.join(", ", found));
        }
        return hostElf(NO_DEVICE_SECTION);
    }

    /** The device-code section name stored at {@code offset} in the string table, or null. */
    private static String deviceCodeSectionAt(byte[] names, long offset) {
        for (int i = 0; i < DEVICE_CODE_SECTIONS.size(); i++) {
            byte[] wanted = DEVICE_CODE_SECTION_BYTES.get(i);
            long end = offset + wanted.length;
            if (end <= names.length
                    && Arrays.equals(names, (int) offset, (int) end, wanted, 0, wanted.length)
                    && (end == names.length || names[(int) end] == 0)) {
                return DEVICE_CODE_SECTIONS.get(i);
            }
        }
        return null;
    }

    private ByteBuffer sectionHeader(long shoff, int shentsize, long index) throws IOException {
        return readAt(shoff + index * shentsize, layout.sectionHeaderSize());
    }

    private static Result hostElf(String detail) {
        return new Result(BinaryKind.HOST_ELF, false, detail);
    }

    /** Whether {@code length} bytes at {@code offset} lie inside the image. */
    private boolean fits(long offset, long length) {
        return offset >= 0 && length >= 0 && offset <= size && length <= size - offset;
    }

    /** Reads {@code length} bytes at {@code offset} in the image; callers have bounds-checked them. */
    private ByteBuffer readAt(long offset, int length) throws IOException {
        ByteBuffer buffer = readFully(channel, base + offset, length);
        if (buffer.remaining() < length) {
            throw new EOFException("file shrank while being read: wanted " + length + " bytes at " + (base + offset));
        }
        return buffer.order(order == null ? ByteOrder.LITTLE_ENDIAN : order);
    }

    /**
     * Reads up to {@code length} bytes at {@code position}, fewer only at end of file.
     *
     * @return a buffer flipped for reading
     */
    static ByteBuffer readFully(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position + buffer.position());
            if (n < 0) {
                break;
            }
        }
        return buffer.flip();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] result = new byte[buffer.remaining()];
        buffer.get(result);
        return result;
    }

    private static int u16(ByteBuffer buffer, int index) {
        return Short.toUnsignedInt(buffer.getShort(index));
    }

    private static long u32(ByteBuffer buffer, int index) {
        return Integer.toUnsignedLong(buffer.getInt(index));
    }

    /** An address-sized field; a 64-bit value above {@code Long.MAX_VALUE} comes back negative. */
    private long word(ByteBuffer buffer, int index) {
        return layout.wordSize() == 8 ? buffer.getLong(index) : u32(buffer, index);
    }
}
