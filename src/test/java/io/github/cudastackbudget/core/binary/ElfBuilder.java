package io.github.cudastackbudget.core.binary;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes minimal ELF files: header, optional payload, section-name string table and section
 * headers (null section, the named sections, then {@code .shstrtab}).
 */
public final class ElfBuilder {
    private ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    private boolean elf64 = true;
    private int machine = 62; // EM_X86_64
    private boolean extended;
    private byte[] payload = new byte[0];
    private final List<String> names = new ArrayList<>();
    /** For each section: -1 for its own name, else "suffix of the previous name, skipping n chars". */
    private final List<Integer> suffixOf = new ArrayList<>();

    public ElfBuilder order(ByteOrder value) {
        order = value;
        return this;
    }

    public ElfBuilder elf32() {
        elf64 = false;
        return this;
    }

    public ElfBuilder machine(int value) {
        machine = value;
        return this;
    }

    public ElfBuilder extendedNumbering() {
        extended = true;
        return this;
    }

    public ElfBuilder payload(String text) {
        payload = text.getBytes(StandardCharsets.US_ASCII);
        return this;
    }

    public ElfBuilder section(String name) {
        names.add(name);
        suffixOf.add(-1);
        return this;
    }

    public ElfBuilder sectionNamedAtSuffixOfPrevious(int skip) {
        names.add(null);
        suffixOf.add(skip);
        return this;
    }

    public byte[] build() {
        int headerSize = elf64 ? 64 : 52;
        int shentsize = elf64 ? 64 : 40;

        ByteArrayOutputStream strtab = new ByteArrayOutputStream();
        strtab.write(0);
        int[] nameOffsets = new int[names.size() + 1];
        int previous = 0;
        for (int i = 0; i < names.size(); i++) {
            if (suffixOf.get(i) >= 0) {
                nameOffsets[i] = previous + suffixOf.get(i);
            } else {
                nameOffsets[i] = strtab.size();
                strtab.writeBytes((names.get(i) + "\0").getBytes(StandardCharsets.US_ASCII));
            }
            previous = nameOffsets[i];
        }
        nameOffsets[names.size()] = strtab.size();
        strtab.writeBytes(".shstrtab\0".getBytes(StandardCharsets.US_ASCII));

        int payloadOffset = headerSize;
        int strtabOffset = payloadOffset + payload.length;
        int shoff = align8(strtabOffset + strtab.size());
        int sectionCount = names.isEmpty() && machine == 190 ? 0 : names.size() + 2;
        int shstrndx = sectionCount == 0 ? 0 : names.size() + 1;

        ByteBuffer out = ByteBuffer.allocate(shoff + sectionCount * shentsize).order(order);
        out.put(new byte[] {0x7F, 'E', 'L', 'F', (byte) (elf64 ? 2 : 1),
            (byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 2), 1});
        out.putShort(16, (short) 1); // e_type ET_REL
        out.putShort(18, (short) machine);
        out.putInt(20, 1); // e_version
        if (elf64) {
            out.putLong(0x28, sectionCount == 0 ? 0 : shoff);
            out.putShort(0x34, (short) headerSize);
        } else {
            out.putInt(0x20, sectionCount == 0 ? 0 : shoff);
            out.putShort(0x28, (short) headerSize);
        }
        int fieldBase = elf64 ? 0x3A : 0x2E;
        out.putShort(fieldBase, (short) shentsize);
        out.putShort(fieldBase + 2, (short) (extended ? 0 : sectionCount));
        out.putShort(fieldBase + 4, (short) (extended ? 0xFFFF : shstrndx));
        out.put(payloadOffset, payload);
        out.put(strtabOffset, strtab.toByteArray());

        for (int i = 0; i < sectionCount; i++) {
            int at = shoff + i * shentsize;
            if (i == 0) {
                if (extended) {
                    putWord(out, at + (elf64 ? 0x20 : 0x14), sectionCount); // sh_size
                    out.putInt(at + (elf64 ? 0x28 : 0x18), shstrndx); // sh_link
                }
                continue;
            }
            boolean isStrtab = i == shstrndx;
            out.putInt(at, nameOffsets[i - 1]); // sh_name
            out.putInt(at + 4, isStrtab ? 3 : 1); // sh_type STRTAB / PROGBITS
            putWord(out, at + (elf64 ? 0x18 : 0x10), isStrtab ? strtabOffset : payloadOffset); // sh_offset
            putWord(out, at + (elf64 ? 0x20 : 0x14), isStrtab ? strtab.size() : payload.length); // sh_size
        }
        return out.array();
    }

    private void putWord(ByteBuffer out, int at, long value) {
        if (elf64) {
            out.putLong(at, value);
        } else {
            out.putInt(at, (int) value);
        }
    }

    /** Points the {@code .shstrtab} section's sh_offset (little-endian ELF64, last section) elsewhere. */
    static void patchStringTableOffset(byte[] elf, long offset) {
        ByteBuffer buffer = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = buffer.getLong(0x28);
        int shstrndx = buffer.getShort(0x3E);
        buffer.putLong((int) shoff + shstrndx * 64 + 0x18, offset);
    }

    private static int align8(int value) {
        return (value + 7) & ~7;
    }
}
