package io.github.cudastackbudget.core.binary;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small PE/COFF images (what MSVC's linker makes, reduced to what a reader looks at) around real nvcc-made
 * fatbins, for tests without MSVC: a 0x80-byte DOS header ({@code e_lfanew} = 0x80), {@code PE\0\0}, the COFF header,
 * a PE32 (224-byte) or PE32+ (240-byte) optional header and the section table, sections at file alignment 0x200.
 * The layout follows the ONNX Runtime DLL: raw sizes rounded up to 0x200, the virtual size the exact content size.
 */
public final class PeBuilder {

    static final int FILE_ALIGNMENT = 0x200;

    /** One section; {@code virtualSize}/{@code rawSize} of -1 mean the content size / rounded to file alignment. */
    record Section(String name, byte[] data, long virtualSize, long rawSize) {
        Section(String name, byte[] data) {
            this(name, data, -1, -1);
        }
    }

    private final List<Section> sections = new ArrayList<>();
    private boolean pe32Plus = true;
    private int machine = PeFile.MACHINE_AMD64;
    private boolean longNames;

    public PeBuilder section(String name, byte[] data) {
        sections.add(new Section(name, data));
        return this;
    }

    PeBuilder section(Section section) {
        sections.add(section);
        return this;
    }

    /** A PE32 (32-bit, optional header magic 0x10b) image. */
    PeBuilder pe32(int machine) {
        this.pe32Plus = false;
        this.machine = machine;
        return this;
    }

    /** Names longer than 8 bytes, and every name when set, go to a COFF string table as {@code /nnn} (MinGW style). */
    PeBuilder longNames() {
        this.longNames = true;
        return this;
    }

    /** The offset of the COFF header's {@code NumberOfSections} etc.: the PE signature is at 0x80. */
    static final int PE_OFFSET = 0x80;

    /** The offset of the first section header. */
    int sectionTableOffset() {
        return PE_OFFSET + 4 + 20 + (pe32Plus ? 240 : 224);
    }

    public byte[] build() {
        int optionalSize = pe32Plus ? 240 : 224;
        int headersEnd = sectionTableOffset() + 40 * sections.size();
        long raw = align(headersEnd, FILE_ALIGNMENT);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ByteArrayOutputStream strings = new ByteArrayOutputStream();
        ByteBuffer table = ByteBuffer.allocate(40 * sections.size()).order(ByteOrder.LITTLE_ENDIAN);
        long virtualAddress = 0x1000;
        List<Long> offsets = new ArrayList<>();
        for (Section section : sections) {
            long rawSize = section.rawSize() >= 0 ? section.rawSize() : align(section.data().length, FILE_ALIGNMENT);
            long virtualSize = section.virtualSize() >= 0 ? section.virtualSize() : section.data().length;
            offsets.add(raw + body.size());
            byte[] name = new byte[8];
            byte[] nameBytes = section.name().getBytes(StandardCharsets.ISO_8859_1);
            if (longNames || nameBytes.length > 8) {
                byte[] ref = ("/" + (4 + strings.size())).getBytes(StandardCharsets.ISO_8859_1);
                System.arraycopy(ref, 0, name, 0, ref.length);
                strings.writeBytes(nameBytes);
                strings.write(0);
            } else {
                System.arraycopy(nameBytes, 0, name, 0, nameBytes.length);
            }
            table.put(name).putInt((int) virtualSize).putInt((int) virtualAddress).putInt((int) rawSize)
                    .putInt((int) (raw + body.size())).putInt(0).putInt(0).putShort((short) 0).putShort((short) 0)
                    .putInt(0x40000040);
            byte[] stored = new byte[(int) rawSize];
            System.arraycopy(section.data(), 0, stored, 0, (int) Math.min(rawSize, section.data().length));
            body.writeBytes(stored);
            virtualAddress += align(Math.max(virtualSize, 1), 0x1000);
        }
        long symbolTable = strings.size() > 0 ? raw + body.size() : 0;
        ByteBuffer head = ByteBuffer.allocate((int) raw).order(ByteOrder.LITTLE_ENDIAN);
        head.putShort(0, (short) 0x5A4D).putInt(0x3C, PE_OFFSET);
        head.putInt(PE_OFFSET, 0x00004550);
        head.putShort(PE_OFFSET + 4, (short) machine).putShort(PE_OFFSET + 6, (short) sections.size())
                .putInt(PE_OFFSET + 12, (int) symbolTable).putInt(PE_OFFSET + 16, 0)
                .putShort(PE_OFFSET + 20, (short) optionalSize).putShort(PE_OFFSET + 22, (short) 0x2022);
        int optional = PE_OFFSET + 24;
        head.putShort(optional, (short) (pe32Plus ? PeFile.PE32_PLUS : PeFile.PE32));
        head.putInt(optional + 32, 0x1000).putInt(optional + 36, FILE_ALIGNMENT)
                .putInt(optional + 56, (int) virtualAddress).putInt(optional + 60, (int) raw)
                .putShort(optional + 68, (short) 3).putInt(optional + (pe32Plus ? 108 : 92), 16);
        head.put(sectionTableOffset(), table.array());
        ByteArrayOutputStream image = new ByteArrayOutputStream();
        image.writeBytes(head.array());
        image.writeBytes(body.toByteArray());
        if (strings.size() > 0) {
            ByteBuffer size = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 4 + strings.size());
            image.writeBytes(size.array());
            image.writeBytes(strings.toByteArray());
        }
        return image.toByteArray();
    }

    /** Where the builder put each section's raw data (after {@link #build}, same order). */
    long rawOffset(int index) {
        long raw = align(sectionTableOffset() + 40L * sections.size(), FILE_ALIGNMENT);
        for (int i = 0; i < index; i++) {
            Section section = sections.get(i);
            raw += section.rawSize() >= 0 ? section.rawSize() : align(section.data().length, FILE_ALIGNMENT);
        }
        return raw;
    }

    static long align(long value, long alignment) {
        return (value + alignment - 1) / alignment * alignment;
    }
}
