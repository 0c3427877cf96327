package io.github.cudastackbudget.core.binary;

import io.github.cudastackbudget.core.text.Printable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The section-level view of one PE/COFF image (a Windows {@code .dll} or {@code .exe}, PE32 or PE32+): the DOS header's
 * {@code e_lfanew}, the {@code PE\0\0} signature, the COFF file header, the optional header's magic and the section
 * table. The one PE reader: the device-code detector and the native reader both use it.
 *
 * <p>nvcc on Windows puts the fatbin containers in a section named {@code .nv_fatb} (the 8-byte truncation of
 * {@code .nv_fatbin}; the wrapper records go to {@code .nvFatBi}). A section's bytes in the file are its first
 * {@code min(VirtualSize, SizeOfRawData)} raw bytes: an image pads raw data to its file alignment (the ONNX Runtime DLL:
 * 0x10e2b600 raw bytes for 0x10e2b568 of content); where the virtual size is larger the rest is zero-filled memory, not
 * in the file; object files have a virtual size of 0 and use the raw size. Long section names ({@code /nnn}, an offset
 * into the COFF string table after the symbol table, as MinGW writes them) are resolved.
 *
 * <p>Every offset is checked against the image; anything that does not fit fails with the file and the offset.
 */
public final class PeFile {

    /** The fatbin section of nvcc-built Windows images. */
    public static final String NV_FATBIN = ".nv_fatb";

    public static final int MACHINE_I386 = 0x14C;
    public static final int MACHINE_AMD64 = 0x8664;
    public static final int MACHINE_ARM64 = 0xAA64;
    public static final int PE32 = 0x10B;
    public static final int PE32_PLUS = 0x20B;

    private static final int DOS_HEADER = 0x40;
    private static final int COFF_HEADER = 20;
    private static final int SECTION_HEADER = 40;
    /** The PE format's own limit on sections. */
    private static final int MAX_SECTIONS = 96 * 1024;

    /**
     * One section header.
     *
     * @param index       0-based position in the section table
     * @param name        the name (up to 8 bytes, or the long name from the string table)
     * @param virtualSize {@code VirtualSize} (0 in object files)
     * @param rawSize     {@code SizeOfRawData}
     * @param rawOffset   {@code PointerToRawData}
     * @param headerOffset the offset of this section header in the image (for messages)
     */
    public record Section(int index, String name, long virtualSize, long rawSize, long rawOffset, long headerOffset) {

        /** The bytes of the section present in the file: {@code min(VirtualSize, SizeOfRawData)}, or the raw size. */
        public long fileSize() {
            return virtualSize == 0 ? rawSize : Math.min(virtualSize, rawSize);
        }
    }

    private final ByteRegion region;
    private final int machine;
    private final int optionalMagic;
    private final List<Section> sections;

    private PeFile(ByteRegion region, int machine, int optionalMagic, List<Section> sections) {
        this.region = region;
        this.machine = machine;
        this.optionalMagic = optionalMagic;
        this.sections = sections;
    }

    /** Whether the region starts with the DOS magic {@code MZ} (every PE image does). */
    public static boolean isPe(ByteRegion region) throws BinaryFormatException {
        return region.size() >= 2 && ElfFile.u16(region.slice(0, 2), 0) == 0x5A4D;
    }

    /**
     * Reads the headers and the section table (not the contents).
     *
     * @throws BinaryFormatException for anything that is not a PE32/PE32+ image or does not fit the file
     */
    public static PeFile read(ByteRegion region) throws BinaryFormatException {
        String source = region.source();
        if (!isPe(region)) {
            throw new BinaryFormatException(source, region.fileOffset(0), "not a PE image (no 'MZ' DOS magic)");
        }
        if (region.size() < DOS_HEADER) {
            throw new BinaryFormatException(source, region.fileOffset(0), "truncated DOS header (" + region.size()
                    + " of 64 bytes)");
        }
        long peOffset = ElfFile.u32(region.slice(0, DOS_HEADER), 0x3C);
        if (peOffset < 4 || peOffset % 4 != 0 || !region.contains(peOffset, 4 + COFF_HEADER)) {
            throw new BinaryFormatException(source, region.fileOffset(0x3C), "DOS header points to the PE header at 0x"
                    + Long.toHexString(peOffset) + ", which is not a 4-byte aligned offset inside the "
                    + region.size() + "-byte image (truncated or not a PE image?)");
        }
        ByteBuffer coff = region.slice(peOffset, 4 + COFF_HEADER);
        int signature = coff.getInt(0);
        if (signature != 0x00004550) {
            throw new BinaryFormatException(source, region.fileOffset(peOffset), "expected the PE signature 'PE\\0\\0' "
                    + "(0x00004550), found 0x" + Integer.toHexString(signature));
        }
        int machine = ElfFile.u16(coff, 4);
        int sectionCount = ElfFile.u16(coff, 6);
        long symbolTable = ElfFile.u32(coff, 12);
        long symbolCount = ElfFile.u32(coff, 16);
        int optionalSize = ElfFile.u16(coff, 20);
        long optionalAt = peOffset + 4 + COFF_HEADER;
        if (optionalSize < 2 || !region.contains(optionalAt, optionalSize)) {
            throw new BinaryFormatException(source, region.fileOffset(peOffset + 4 + 16), "optional header of "
                    + optionalSize + " bytes " + (optionalSize < 2 ? "is too small for its magic (an image has one)"
                            : "does not fit the " + region.size() + "-byte image (truncated?)"));
        }
        int magic = ElfFile.u16(region.slice(optionalAt, 2), 0);
        int minimum = magic == PE32 ? 96 : 112;
        if (magic != PE32 && magic != PE32_PLUS) {
            throw new BinaryFormatException(source, region.fileOffset(optionalAt), "optional header magic 0x"
                    + Integer.toHexString(magic) + " (only 0x10b = PE32 and 0x20b = PE32+ are known)");
        }
        if (optionalSize < minimum) {
            throw new BinaryFormatException(source, region.fileOffset(peOffset + 4 + 16), "optional header of "
                    + optionalSize + " bytes is smaller than the " + minimum + " bytes of a "
                    + (magic == PE32 ? "PE32" : "PE32+") + " header");
        }
        long tableAt = optionalAt + optionalSize;
        if (sectionCount > MAX_SECTIONS || !region.contains(tableAt, (long) sectionCount * SECTION_HEADER)) {
            throw new BinaryFormatException(source, region.fileOffset(peOffset + 6), sectionCount + " section headers "
                    + "of 40 bytes at 0x" + Long.toHexString(tableAt) + " do not fit the " + region.size()
                    + "-byte image (truncated?)");
        }
        ByteBuffer table = region.slice(tableAt, (long) sectionCount * SECTION_HEADER);
        List<Section> sections = new ArrayList<>(sectionCount);
        for (int i = 0; i < sectionCount; i++) {
            int at = i * SECTION_HEADER;
            long headerOffset = tableAt + at;
            byte[] rawName = new byte[8];
            table.get(at, rawName);
            int length = 0;
            while (length < 8 && rawName[length] != 0) {
                length++;
            }
            String name = new String(rawName, 0, length, StandardCharsets.ISO_8859_1);
            if (name.startsWith("/") && name.length() > 1 && name.substring(1).chars().allMatch(Character::isDigit)) {
                name = longName(region, symbolTable, symbolCount, Long.parseLong(name.substring(1)), headerOffset);
            }
            long virtualSize = ElfFile.u32(table, at + 8);
            long rawSize = ElfFile.u32(table, at + 16);
            long rawOffset = ElfFile.u32(table, at + 20);
            sections.add(new Section(i, name, virtualSize, rawSize, rawOffset, headerOffset));
        }
        return new PeFile(region, machine, magic, Collections.unmodifiableList(sections));
    }

    /** A {@code /nnn} name: the NUL-terminated string at offset nnn of the string table after the COFF symbols. */
    private static String longName(ByteRegion region, long symbolTable, long symbolCount, long offset,
            long headerOffset) throws BinaryFormatException {
        String source = region.source();
        long strings = symbolTable + symbolCount * 18;
        if (symbolTable == 0 || !region.contains(strings, 4)) {
            throw new BinaryFormatException(source, region.fileOffset(headerOffset), "section name '/" + offset
                    + "' refers to a string table, but the COFF header's symbol table (0x" + Long.toHexString(symbolTable)
                    + ", " + symbolCount + " symbols) does not place one inside the image");
        }
        long tableSize = ElfFile.u32(region.slice(strings, 4), 0);
        if (offset < 4 || offset >= tableSize || !region.contains(strings, tableSize)) {
            throw new BinaryFormatException(source, region.fileOffset(headerOffset), "section name '/" + offset
                    + "' is not inside the " + tableSize + "-byte string table at 0x" + Long.toHexString(strings));
        }
        long end = Math.min(tableSize - offset, 1024);
        ByteBuffer name = region.slice(strings + offset, end);
        int length = 0;
        while (length < end && name.get(length) != 0) {
            length++;
        }
        byte[] bytes = new byte[length];
        name.get(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    public ByteRegion region() {
        return region;
    }

    /** The COFF {@code Machine}: 0x8664 x86-64, 0x14c i386, 0xaa64 ARM64. */
    public int machine() {
        return machine;
    }

    /** Whether the optional header is PE32+ (64-bit images). */
    public boolean isPe32Plus() {
        return optionalMagic == PE32_PLUS;
    }

    /** Every section header in table order. */
    public List<Section> sections() {
        return sections;
    }

    /** The {@code .nv_fatb} sections in table order. */
    public List<Section> fatbinSections() {
        List<Section> found = new ArrayList<>();
        for (Section section : sections) {
            if (section.name().equals(NV_FATBIN)) {
                found.add(section);
            }
        }
        return found;
    }

    /** The section's bytes present in the file ({@link Section#fileSize()}), named by {@code source}. */
    public ByteRegion contents(Section section, String source) throws BinaryFormatException {
        long size = section.fileSize();
        if (size == 0) {
            return region.sub(0, 0, source);
        }
        if (!region.contains(section.rawOffset(), size)) {
            throw new BinaryFormatException(region.source(), region.fileOffset(section.headerOffset() + 16), "section "
                    + section.index() + " '" + Printable.of(section.name()) + "' (" + size + " bytes at 0x"
                    + Long.toHexString(section.rawOffset()) + ") reaches beyond the end of the " + region.size()
                    + "-byte image (truncated?)");
        }
        return region.sub(section.rawOffset(), size, source);
    }

    /** The platform name of the image's machine: {@code windows-x86_64}, {@code windows-x86}, {@code windows-arm64}. */
    public String platform() {
        return switch (machine) {
            case MACHINE_AMD64 -> "windows-x86_64";
            case MACHINE_I386 -> "windows-x86";
            case MACHINE_ARM64 -> "windows-arm64";
            default -> "windows-0x" + Integer.toHexString(machine);
        };
    }
}
