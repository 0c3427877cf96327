package io.github.cudastackbudget.core.scan;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The target of a bare cubin (a device ELF, {@code e_machine} 190), read from its header: the SM number from
 * {@code e_flags} (bits 8..15 for ABI version 8 and later, bits 0..7 before), and the {@code a} variant from the
 * {@code .nv.compat} attribute 9 (CUDA_ACCELERATOR_TARGET) or, in the old layout, {@code e_flags} bit 0x800. A bare
 * cubin does not record the {@code f} variant (see docs/cuda-binary-format.md, 4.1).
 */
public final class CubinArchReader {

    private static final int EM_CUDA = 190;
    private static final int ATTR_ACCELERATOR_TARGET = 9;

    private CubinArchReader() {
    }

    /**
     * @throws IOException when the file is not a readable 64-bit cubin, with the reason
     */
    public static GpuArch read(Path cubin) throws IOException {
        try (FileChannel channel = FileChannel.open(cubin, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer header = read(channel, 0, 64, size);
            if (header.getInt(0) != 0x464C457F || header.get(4) != 2) {
                throw new IOException("not a 64-bit ELF cubin");
            }
            header.order(header.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
            if (Short.toUnsignedInt(header.getShort(0x12)) != EM_CUDA) {
                throw new IOException("not a cubin (e_machine is not EM_CUDA)");
            }
            int abiVersion = Byte.toUnsignedInt(header.get(8));
            int flags = header.getInt(0x30);
            boolean newLayout = abiVersion >= 8;
            int sm = newLayout ? (flags >>> 8) & 0xFF : flags & 0xFF;
            boolean archSpecific = newLayout ? hasAcceleratorAttribute(channel, header, size) : (flags & 0x800) != 0;
            if (sm < 10) {
                throw new IOException("unexpected SM number " + sm + " in e_flags 0x" + Integer.toHexString(flags)
                        + " (ELF ABI version " + abiVersion + ")");
            }
            return new GpuArch(ComputeCapability.parse(Integer.toString(sm)),
                    archSpecific ? ArchVariant.ARCH_SPECIFIC : ArchVariant.BASE);
        }
    }

    private static boolean hasAcceleratorAttribute(FileChannel channel, ByteBuffer header, long size) throws IOException {
        long sectionTable = header.getLong(0x28);
        int entrySize = Short.toUnsignedInt(header.getShort(0x3A));
        int count = Short.toUnsignedInt(header.getShort(0x3C));
        int namesIndex = Short.toUnsignedInt(header.getShort(0x3E));
        if (sectionTable == 0 || entrySize < 64) {
            return false;
        }
        ByteOrder order = header.order();
        if (count == 0 || namesIndex == 0xFFFF) {
            ByteBuffer first = read(channel, sectionTable, 64, size).order(order);
            count = count == 0 ? (int) first.getLong(32) : count;
            namesIndex = namesIndex == 0xFFFF ? first.getInt(40) : namesIndex;
        }
        if (namesIndex >= count) {
            return false;
        }
        ByteBuffer sections = read(channel, sectionTable, (long) count * entrySize, size).order(order);
        ByteBuffer names = section(channel, sections, namesIndex, entrySize, size, order);
        for (int index = 0; index < count; index++) {
            int nameOffset = sections.getInt(index * entrySize);
            if (".nv.compat".equals(cString(names, nameOffset))) {
                return acceleratorFlag(section(channel, sections, index, entrySize, size, order));
            }
        }
        return false;
    }

    private static boolean acceleratorFlag(ByteBuffer records) {
        int position = 0;
        while (position + 4 <= records.limit()) {
            int format = Byte.toUnsignedInt(records.get(position));
            int attribute = Byte.toUnsignedInt(records.get(position + 1));
            if (format == 2 && attribute == ATTR_ACCELERATOR_TARGET) {
                return records.get(position + 2) != 0;
            }
            position += format == 4 ? 4 + Short.toUnsignedInt(records.getShort(position + 2)) : 4;
        }
        return false;
    }

    private static ByteBuffer section(FileChannel channel, ByteBuffer sections, int index, int entrySize, long size,
            ByteOrder order) throws IOException {
        int base = index * entrySize;
        return read(channel, sections.getLong(base + 24), sections.getLong(base + 32), size).order(order);
    }

    private static String cString(ByteBuffer table, int offset) {
        if (offset < 0 || offset >= table.limit()) {
            return "";
        }
        int end = offset;
        while (end < table.limit() && table.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - offset];
        table.get(offset, bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static ByteBuffer read(FileChannel channel, long offset, long length, long size) throws IOException {
        if (offset < 0 || length < 0 || length > Integer.MAX_VALUE || offset + length > size) {
            throw new IOException("truncated cubin: " + length + " bytes at offset " + offset + " are past the end ("
                    + size + " bytes)");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, offset + buffer.position()) < 0) {
                throw new IOException("unexpected end of file");
            }
        }
        return buffer.flip();
    }
}
