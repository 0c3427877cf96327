package io.github.cudastackbudget.core.binary;

import io.github.cudastackbudget.core.text.Printable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The section-level view of one ELF image (ELF64 or ELF32): header fields, section headers with their names, section
 * contents, and the symbol table. This is the one ELF reader: the device-code detector and the native reader both use
 * it. {@link #read} accepts little-endian images only (CUDA device code and every fatbin seen are little-endian, so the
 * readers of device code refuse anything else with a clear message); {@link #readAnyByteOrder} also accepts big-endian
 * ones, for deciding from the section names whether a file carries device code at all. Extended numbering (gABI) is
 * understood: {@code e_shnum == 0} takes the count from section 0's {@code sh_size}, {@code e_shstrndx == SHN_XINDEX}
 * the index from its {@code sh_link}, and symbols with {@code st_shndx == SHN_XINDEX} take theirs from the
 * {@code SHT_SYMTAB_SHNDX} section.
 *
 * <p>Every offset is checked against the image; anything that does not fit fails with the file and the offset.
 */
public final class ElfFile {

    /** {@code e_machine} of CUDA device code. */
    public static final int EM_CUDA = 190;

    public static final long SHT_SYMTAB = 2;
    public static final long SHT_NOBITS = 8;
    public static final long SHT_SYMTAB_SHNDX = 18;

    private static final int SHN_LORESERVE = 0xFF00;
    private static final int SHN_XINDEX = 0xFFFF;
    /** More sections than any real file has (the largest seen: 66,012 in a host object); guards corrupt counts. */
    private static final long MAX_SECTIONS = 1L << 24;
    /** A larger section-name string table than any real file has (they are kilobytes); guards corrupt sizes. */
    private static final long MAX_SECTION_NAMES = 64L << 20;

    /**
     * One section header. Sizes and offsets are unsigned 64-bit values; over {@code Long.MAX_VALUE} they fail.
     *
     * <p>The name is checked when the headers are read (its offset lies inside the section-name table) but made into a
     * String only when {@link #name()} asks for it: a cubin has several sections per function, each named after it,
     * and the readers only test most names for a prefix ({@link #nameStartsWith}, {@link #nameIs}), on the table's
     * text (issue 11: a String per section name was a large share of reading the decoded cubins in a cold run).
     */
    public static final class Section {
        private final int index;
        private final long type;
        private final long flags;
        private final long offset;
        private final long size;
        private final long link;
        private final long info;
        private final long entrySize;
        /** The section-name table as ISO-8859-1 text (one char per byte), and where this name starts in it. */
        private String names = "";
        private byte[] nameBytes = new byte[0];
        private int nameOffset;
        private String name;

        Section(int index, long type, long flags, long offset, long size, long link, long info, long entrySize) {
            this.index = index;
            this.type = type;
            this.flags = flags;
            this.offset = offset;
            this.size = size;
            this.link = link;
            this.info = info;
            this.entrySize = entrySize;
        }

        /** Set once by the reader, before the section is published (through the final list of its image). */
        private void name(String table, byte[] bytes, int at) {
            this.names = table;
            this.nameBytes = bytes;
            this.nameOffset = at;
        }

        public int index() {
            return index;
        }

        /** The name: the NUL-terminated text at {@code sh_name} (the rest of the table where no NUL follows). */
        public String name() {
            String cut = name;
            if (cut == null) {
                cut = names.substring(nameOffset, nameEnd());
                name = cut;
            }
            return cut;
        }

        /** {@link #nameEnd()} found with a byte loop (for {@link Symbols#nameEquals}'s hot loop). */
        int nameEndByte() {
            byte[] table = nameBytes;
            for (int i = nameOffset; i < table.length; i++) {
                if (table[i] == 0) {
                    return i;
                }
            }
            return table.length;
        }

        /** Where the name ends in the table: its NUL, or the table's end where none follows. */
        int nameEnd() {
            int end = names.indexOf('\0', nameOffset);
            return end < 0 ? names.length() : end;
        }

        /**
         * Whether the name starts with the ASCII bytes of {@code prefix}: the form for a reader's hot loop (issue 11:
         * a plain byte loop the JIT inlines small, where {@link String#startsWith} brought its whole chain of calls
         * into every compilation of the loop: 188 inlined methods in one of the cubin reader's).
         */
        public boolean nameStartsWith(byte[] prefix) {
            byte[] bytes = nameBytes;
            int at = nameOffset;
            if (prefix.length > bytes.length - at) {
                return false;
            }
            for (int i = 0; i < prefix.length; i++) {
                if (bytes[at + i] != prefix[i]) {
                    return false;
                }
            }
            return true;
        }

        /** Whether the name is the ASCII bytes of {@code text} (no NUL), as {@link #nameStartsWith(byte[])} tests. */
        public boolean nameIs(byte[] text) {
            int end = nameOffset + text.length;
            return nameStartsWith(text) && (end == nameBytes.length || nameBytes[end] == 0);
        }

        /** The name's byte at {@code at} (an unsigned value), or 0 at and past its end. */
        public int nameByte(int at) {
            byte[] bytes = nameBytes;
            int position = nameOffset + at;
            if (at < 0 || position >= bytes.length) {
                return 0;
            }
            for (int i = nameOffset; i < position; i++) {
                if (bytes[i] == 0) {
                    return 0; // past the NUL that ends the name the table holds the next names
                }
            }
            return bytes[position] & 0xFF;
        }

        /** Whether the name starts with {@code prefix} (ASCII), without making the name a String. */
        public boolean nameStartsWith(String prefix) {
            return names.startsWith(prefix, nameOffset);
        }

        /** Whether the name is {@code text} (ASCII, no NUL), without making the name a String. */
        public boolean nameIs(String text) {
            int end = nameOffset + text.length();
            return names.startsWith(text, nameOffset) && (end == names.length() || names.charAt(end) == 0);
        }

        /** The name's char at {@code at}, or 0 at and past its end. */
        public char nameChar(int at) {
            int position = nameOffset + at;
            if (at < 0 || position >= names.length()) {
                return 0;
            }
            // past the NUL that ends the name the table holds the next names
            return at > 0 && names.lastIndexOf('\0', position - 1) >= nameOffset ? 0 : names.charAt(position);
        }

        /** The name from its char {@code from} on (at most its length), without making the whole name a String. */
        public String nameFrom(int from) {
            if (name != null) {
                return name.substring(Math.min(from, name.length()));
            }
            int end = nameEnd();
            return names.substring(Math.min(nameOffset + from, end), end);
        }

        /** The length of the name, without making it a String. */
        public int nameLength() {
            if (name != null) {
                return name.length();
            }
            return nameEnd() - nameOffset;
        }

        /** The section-name table's text and where the name starts in it: for comparing names without Strings. */
        String nameTable() {
            return names;
        }

        int nameOffset() {
            return nameOffset;
        }

        /** The section-name table's bytes (the text {@link #nameTable()} holds, one char per byte). */
        byte[] nameTableBytes() {
            return nameBytes;
        }

        public long type() {
            return type;
        }

        public long flags() {
            return flags;
        }

        public long offset() {
            return offset;
        }

        public long size() {
            return size;
        }

        public long link() {
            return link;
        }

        public long info() {
            return info;
        }

        public long entrySize() {
            return entrySize;
        }

        @Override
        public String toString() {
            return "Section[index=" + index + ", name=" + name() + ", type=" + type + ", flags=" + flags + ", offset="
                    + offset + ", size=" + size + ", link=" + link + ", info=" + info + ", entrySize=" + entrySize
                    + "]";
        }
    }

    private final ByteRegion region;
    private final boolean elf64;
    private final ByteOrder order;
    private final int type;
    private final int machine;
    private final int osAbi;
    private final int abiVersion;
    private final long flags;
    private final List<Section> sections;

    private ElfFile(ByteRegion region, boolean elf64, ByteOrder order, int type, int machine, int osAbi,
            int abiVersion, long flags, List<Section> sections) {
        this.region = region;
        this.elf64 = elf64;
        this.order = order;
        this.type = type;
        this.machine = machine;
        this.osAbi = osAbi;
        this.abiVersion = abiVersion;
        this.flags = flags;
        this.sections = sections;
    }

    /** Whether the region starts with the ELF magic. */
    public static boolean isElf(ByteRegion region) throws BinaryFormatException {
        return region.size() >= 4 && region.slice(0, 4).getInt(0) == 0x464C457F;
    }

    /**
     * {@code e_machine} read in the image's byte order, or -1 when the header is too short or its byte order unknown:
     * for telling a cubin from a host file that cannot be read further.
     */
    public static int machine(ByteRegion region) throws BinaryFormatException {
        if (!isElf(region) || region.size() < 20) {
            return -1;
        }
        ByteBuffer header = region.slice(0, 20);
        int encoding = header.get(5);
        if (encoding != 1 && encoding != 2) {
            return -1;
        }
        return u16(header.order(encoding == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN), 0x12);
    }

    /**
     * Reads the header and the section headers (not the contents) of a little-endian image.
     *
     * @throws BinaryFormatException for a big-endian or unknown-class ELF, or headers that do not fit the image
     */
    public static ElfFile read(ByteRegion region) throws BinaryFormatException {
        return read(region, false, true);
    }

    /**
     * Reads the header and the section headers (not the contents) of an image in either byte order.
     *
     * @throws BinaryFormatException for an unknown class or data encoding, or headers that do not fit the image
     */
    public static ElfFile readAnyByteOrder(ByteRegion region) throws BinaryFormatException {
        return read(region, true, true);
    }

    /**
     * Reads only the ELF header, in either byte order: {@link #sections()} is empty. For telling what a file is from
     * its header alone (a cubin is device code by its {@code e_machine}).
     *
     * @throws BinaryFormatException for an unknown class or data encoding, or a truncated header
     */
    public static ElfFile readHeader(ByteRegion region) throws BinaryFormatException {
        return read(region, true, false);
    }

    private static ElfFile read(ByteRegion region, boolean anyByteOrder, boolean withSections)
            throws BinaryFormatException {
        String source = region.source();
        if (!isElf(region)) {
            throw new BinaryFormatException(source, region.fileOffset(0), "not an ELF file (no 0x7F 'ELF' magic)");
        }
        ByteBuffer ident = region.slice(0, Math.min(region.size(), 16));
        if (ident.limit() < 16) {
            throw new BinaryFormatException(source, region.fileOffset(0), "truncated ELF header");
        }
        int elfClass = ident.get(4);
        int encoding = ident.get(5);
        if (elfClass != 1 && elfClass != 2) {
            throw new BinaryFormatException(source, region.fileOffset(4), "unknown ELF class " + elfClass
                    + " (1 = ELF32 and 2 = ELF64 are known)");
        }
        if (encoding != 1 && !(anyByteOrder && encoding == 2)) {
            throw new BinaryFormatException(source, region.fileOffset(5), anyByteOrder
                    ? "unknown ELF data encoding " + encoding + " (1 = little-endian and 2 = big-endian are known)"
                    : "ELF data encoding " + encoding + " (only 1 = little-endian is read; CUDA device code is "
                            + "little-endian)");
        }
        ByteOrder order = encoding == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        boolean elf64 = elfClass == 2;
        int headerSize = elf64 ? 64 : 52;
        ByteBuffer header = region.slice(0, Math.min(region.size(), headerSize)).order(order);
        if (header.limit() < headerSize) {
            throw new BinaryFormatException(source, region.fileOffset(0), "truncated ELF header ("
                    + header.limit() + " of " + headerSize + " bytes)");
        }
        int osAbi = Byte.toUnsignedInt(header.get(7));
        int abiVersion = Byte.toUnsignedInt(header.get(8));
        int type = u16(header, 0x10);
        int machine = u16(header, 0x12);
        long flags = u32(header, elf64 ? 0x30 : 0x24);
        long shoff = elf64 ? header.getLong(0x28) : u32(header, 0x20);
        int shentsize = u16(header, elf64 ? 0x3A : 0x2E);
        long shnum = u16(header, elf64 ? 0x3C : 0x30);
        long shstrndx = u16(header, elf64 ? 0x3E : 0x32);
        int sectionHeaderSize = elf64 ? 64 : 40;
        if (shoff == 0 || !withSections) {
            return new ElfFile(region, elf64, order, type, machine, osAbi, abiVersion, flags, List.of());
        }
        if (shentsize < sectionHeaderSize) {
            throw new BinaryFormatException(source, region.fileOffset(elf64 ? 0x3A : 0x2E), "section header size "
                    + shentsize + " is smaller than " + sectionHeaderSize);
        }
        if (shoff < 0 || !region.contains(shoff, sectionHeaderSize)) {
            throw new BinaryFormatException(source, region.fileOffset(elf64 ? 0x28 : 0x20), "section header table "
                    + "offset 0x" + Long.toHexString(shoff) + " lies beyond the end of the " + region.size()
                    + "-byte image (truncated?)");
        }
        // where e_shnum and e_shstrndx come from: the header, or section 0 under extended numbering (gABI)
        long shnumAt = elf64 ? 0x3C : 0x30;
        long shstrndxAt = elf64 ? 0x3E : 0x32;
        String shstrndxFrom = "";
        if (shnum == 0 || shstrndx == SHN_XINDEX) {
            ByteBuffer section0 = region.slice(shoff, sectionHeaderSize).order(order);
            if (shnum == 0) {
                shnum = elf64 ? section0.getLong(0x20) : u32(section0, 0x14);
                shnumAt = shoff + (elf64 ? 0x20 : 0x14);
            }
            if (shstrndx == SHN_XINDEX) {
                shstrndx = u32(section0, elf64 ? 0x28 : 0x18);
                shstrndxAt = shoff + (elf64 ? 0x28 : 0x18);
                shstrndxFrom = " (e_shstrndx SHN_XINDEX: section 0's sh_link)";
            }
        }
        if (shnum < 0 || shnum > MAX_SECTIONS || !region.contains(shoff, shnum * shentsize)) {
            throw new BinaryFormatException(source, region.fileOffset(shnumAt), Long.toUnsignedString(shnum)
                    + " section headers of " + shentsize + " bytes at 0x" + Long.toHexString(shoff)
                    + " do not fit the " + region.size() + "-byte image (truncated?)");
        }
        ByteBuffer table = region.slice(shoff, shnum * shentsize).order(order);
        int count = (int) shnum;
        long[] nameOffsets = new long[count];
        List<Section> sections = sectionHeaders(table, count, shentsize, elf64, nameOffsets);
        if (shstrndx == 0 || shstrndx >= count) {
            throw new BinaryFormatException(source, region.fileOffset(shstrndxAt), "section name string "
                    + "table index " + shstrndx + shstrndxFrom + " is not one of the " + count + " sections");
        }
        ElfFile unnamed = new ElfFile(region, elf64, order, type, machine, osAbi, abiVersion, flags, sections);
        Section nameTable = sections.get((int) shstrndx);
        if (nameTable.type() != SHT_NOBITS && !region.contains(nameTable.offset(), nameTable.size())) {
            throw new BinaryFormatException(source, region.fileOffset(Math.max(0, nameTable.offset())), "section name "
                    + "string table (section " + shstrndx + ", " + Long.toUnsignedString(nameTable.size()) + " bytes at 0x"
                    + Long.toHexString(nameTable.offset()) + ") reaches beyond the end of the " + region.size()
                    + "-byte image (truncated?)");
        }
        if (nameTable.size() > MAX_SECTION_NAMES) {
            throw new BinaryFormatException(source, unnamed.fileOffset(nameTable), "section name string table of "
                    + Long.toUnsignedString(nameTable.size()) + " bytes, more than any real file has (corrupt?)");
        }
        ByteBuffer names = unnamed.contents(nameTable);
        // issue 11: the table as one ISO-8859-1 string (one char per byte); each name is checked to start inside it
        // here and cut from it only when asked for (Section#name)
        byte[] nameBytes = new byte[names.remaining()];
        names.get(names.position(), nameBytes);
        String nameText = new String(nameBytes, StandardCharsets.ISO_8859_1);
        name(sections, nameOffsets, nameText, nameBytes, region, shoff);
        return new ElfFile(region, elf64, order, type, machine, osAbi, abiVersion, flags,
                Collections.unmodifiableList(sections));
    }

    /*
     * The loops over the sections are methods of their own (issue 11): inside read, whose error messages make it
     * large, the JIT compiled them with the whole method, on stack replacement and again in full (0.07 and 0.17 s of
     * C2 time in a cold check of 1,104 cubins).
     */

    /** The section headers of the table, their name offsets into {@code nameOffsets}. */
    private static List<Section> sectionHeaders(ByteBuffer table, int count, int shentsize, boolean elf64,
            long[] nameOffsets) {
        List<Section> sections = new ArrayList<>(count);
        if (elf64 && table.hasArray() && table.order() == ByteOrder.LITTLE_ENDIAN
                && (long) count * shentsize <= table.limit()) {
            // a decoded cubin: the array read with plain byte arithmetic (see Symbols#bytes)
            byte[] b = table.array();
            int base = table.arrayOffset();
            for (int i = 0; i < count; i++) {
                int at = base + i * shentsize;
                nameOffsets[i] = le32(b, at);
                sections.add(new Section(i, le32(b, at + 4), le64(b, at + 8), le64(b, at + 0x18), le64(b, at + 0x20),
                        le32(b, at + 0x28), le32(b, at + 0x2C), le64(b, at + 0x38)));
            }
            return sections;
        }
        for (int i = 0; i < count; i++) {
            int at = i * shentsize;
            nameOffsets[i] = u32(table, at);
            if (elf64) {
                sections.add(new Section(i, u32(table, at + 4), table.getLong(at + 8), table.getLong(at + 0x18),
                        table.getLong(at + 0x20), u32(table, at + 0x28), u32(table, at + 0x2C),
                        table.getLong(at + 0x38)));
            } else {
                sections.add(new Section(i, u32(table, at + 4), u32(table, at + 8), u32(table, at + 0x10),
                        u32(table, at + 0x14), u32(table, at + 0x18), u32(table, at + 0x1C), u32(table, at + 0x24)));
            }
        }
        return sections;
    }

    /** Gives each section its name in the table, each offset checked to lie inside it. */
    private static void name(List<Section> sections, long[] nameOffsets, String nameText, byte[] nameBytes,
            ByteRegion region, long shoff) throws BinaryFormatException {
        for (Section section : sections) {
            long at = nameOffsets[section.index()];
            if (at < 0 || at >= nameText.length()) {
                if (!(at == 0 && nameText.isEmpty())) {
                    throw new BinaryFormatException(region.source(), region.fileOffset(shoff), "name offset " + at
                            + " lies outside its " + nameText.length() + "-byte string table");
                }
            }
            section.name(nameText, nameBytes, (int) at);
        }
    }

    public ByteRegion region() {
        return region;
    }

    public boolean isElf64() {
        return elf64;
    }

    /** The image's byte order ({@code e_ident[EI_DATA]}); always little-endian for images from {@link #read}. */
    public ByteOrder order() {
        return order;
    }

    /** {@code e_type}: 1 REL, 2 EXEC, 3 DYN. */
    public int type() {
        return type;
    }

    public int machine() {
        return machine;
    }

    /** {@code e_ident[EI_OSABI]}. */
    public int osAbi() {
        return osAbi;
    }

    /** {@code e_ident[EI_ABIVERSION]}. */
    public int abiVersion() {
        return abiVersion;
    }

    /** {@code e_flags}. */
    public long flags() {
        return flags;
    }

    /** Every section header in index order (section 0 included); empty when the file has no section table. */
    public List<Section> sections() {
        return sections;
    }

    /**
     * The section's bytes in the image's byte order; empty for NOBITS sections (their {@code sh_size} has no bytes in
     * the file).
     */
    public ByteBuffer contents(Section section) throws BinaryFormatException {
        if (section.type() == SHT_NOBITS || section.size() == 0) {
            return ByteBuffer.allocate(0);
        }
        if (section.offset() < 0 || section.size() < 0 || !region.contains(section.offset(), section.size())) {
            throw new BinaryFormatException(region.source(), region.fileOffset(Math.max(0, section.offset())),
                    "section " + section.index() + " '" + Printable.of(section.name()) + "' ("
                    + Long.toUnsignedString(section.size())
                    + " bytes at 0x" + Long.toHexString(section.offset()) + ") reaches beyond the end of the "
                    + region.size() + "-byte image (truncated?)");
        }
        return region.slice(section.offset(), section.size()).order(order);
    }

    /** The absolute file offset of a section's first byte (for messages). */
    public long fileOffset(Section section) {
        return region.fileOffset(section.offset());
    }

    /** The first section of type SHT_SYMTAB, or null. */
    public Section symbolTableSection() {
        for (Section section : sections) {
            if (section.type() == SHT_SYMTAB) {
                return section;
            }
        }
        return null;
    }

    /** The symbol table of an ELF64 image (the only kind that holds device code symbols), or an empty one. */
    public Symbols symbols() throws BinaryFormatException {
        Section symtab = symbolTableSection();
        if (symtab == null) {
            return new Symbols(this, ByteBuffer.allocate(0), ByteBuffer.allocate(0), null, -1);
        }
        if (!elf64) {
            throw new BinaryFormatException(region.source(), fileOffset(symtab), "symbol table of an ELF32 image "
                    + "(device code is ELF64)");
        }
        if (symtab.link() <= 0 || symtab.link() >= sections.size()) {
            throw new BinaryFormatException(region.source(), fileOffset(symtab), "symbol table links to section "
                    + symtab.link() + ", not a string table of this image");
        }
        Section extended = extendedIndexSection(symtab);
        ByteBuffer shndx = extended == null ? null : contents(extended);
        return new Symbols(this, contents(symtab), contents(sections.get((int) symtab.link())), shndx,
                fileOffset(symtab));
    }

    /**
     * The last SHT_SYMTAB_SHNDX section linked to {@code symtab}, or null: a loop of its own, which the JIT compiles
     * small (issue 11: compiled hot inside {@link #symbols}, it took the section-contents code along, 3,353 inlined
     * bytes).
     */
    private Section extendedIndexSection(Section symtab) {
        Section found = null;
        for (int index = 0; index < sections.size(); index++) {
            Section section = sections.get(index);
            if (section.type() == SHT_SYMTAB_SHNDX && section.link() == symtab.index()) {
                found = section;
            }
        }
        return found;
    }

    /** The ELF64 symbol table: 24-byte entries read on demand. */
    public static final class Symbols {
        private static final int ENTRY = 24;
        private final ElfFile elf;
        private final ByteBuffer table;
        private final ByteBuffer strings;
        private final ByteBuffer extendedIndexes;
        private final long tableFileOffset;
        private final int count;

        /**
         * The table's bytes where it is a little-endian array (a decoded cubin), else null: the entries are then read
         * from the array with plain byte arithmetic, which the JIT inlines small (issue 11: the buffer's
         * {@code getShort}/{@code getInt} brought their memory-access chain into every compilation of the cubin
         * reader's symbol loop).
         */
        private final byte[] bytes;
        private final int base;

        private Symbols(ElfFile elf, ByteBuffer table, ByteBuffer strings, ByteBuffer extendedIndexes,
                long tableFileOffset) {
            this.elf = elf;
            this.table = table;
            this.strings = strings;
            this.extendedIndexes = extendedIndexes;
            this.tableFileOffset = tableFileOffset;
            this.count = table.limit() / ENTRY;
            boolean array = table.hasArray() && !table.isReadOnly() && table.order() == ByteOrder.LITTLE_ENDIAN;
            this.bytes = array ? table.array() : null;
            this.base = array ? table.arrayOffset() : 0;
        }

        /** The unsigned byte at {@code at} of the table (bounds-checked as the buffer checks them). */
        private int u8At(int at) {
            if (bytes == null) {
                return Byte.toUnsignedInt(table.get(at));
            }
            java.util.Objects.checkIndex(at, table.limit());
            return bytes[base + at] & 0xFF;
        }

        private int u16At(int at) {
            if (bytes == null) {
                return Short.toUnsignedInt(table.getShort(at));
            }
            java.util.Objects.checkFromIndexSize(at, 2, table.limit());
            int i = base + at;
            return (bytes[i] & 0xFF) | (bytes[i + 1] & 0xFF) << 8;
        }

        private long u32At(int at) {
            if (bytes == null) {
                return Integer.toUnsignedLong(table.getInt(at));
            }
            java.util.Objects.checkFromIndexSize(at, 4, table.limit());
            int i = base + at;
            return (bytes[i] & 0xFFL) | (bytes[i + 1] & 0xFFL) << 8 | (bytes[i + 2] & 0xFFL) << 16
                    | (bytes[i + 3] & 0xFFL) << 24;
        }

        public int count() {
            return count;
        }

        /** The low 4 bits of {@code st_info}: 2 = STT_FUNC. */
        public int type(int index) {
            return u8At(index * ENTRY + 4) & 0xF;
        }

        /** {@code st_other}; 0x10 marks a CUDA kernel entry. */
        public int other(int index) {
            return u8At(index * ENTRY + 5);
        }

        /**
         * The index of the section the symbol is defined in, or -1 for undefined and special ({@code 0xFF00..0xFFFE})
         * indexes; {@code SHN_XINDEX} is resolved through the {@code SHT_SYMTAB_SHNDX} section.
         */
        public int sectionIndex(int index) throws BinaryFormatException {
            int shndx = u16At(index * ENTRY + 6);
            if (shndx == SHN_XINDEX) {
                if (extendedIndexes == null || (long) index * 4 + 4 > extendedIndexes.limit()) {
                    throw new BinaryFormatException(elf.region.source(), tableFileOffset + (long) index * ENTRY,
                            "symbol " + index + " has st_shndx SHN_XINDEX but no SHT_SYMTAB_SHNDX entry");
                }
                long extended = u32(extendedIndexes, index * 4);
                return extended < elf.sections.size() ? (int) extended : -1;
            }
            if (shndx == 0 || shndx >= SHN_LORESERVE || shndx >= elf.sections.size()) {
                return -1;
            }
            return shndx;
        }

        /** The symbol's name. */
        public String name(int index) throws BinaryFormatException {
            return cString(stringsText(), u32At(index * ENTRY), elf.region.source(),
                    tableFileOffset + (long) index * ENTRY);
        }

        /**
         * Whether the symbol's name equals the section's name from its char {@code from} on, neither made a String:
         * both string tables are read once as ISO-8859-1 text (one char per byte) and compared with
         * {@link String#regionMatches(int, String, int, int)}: a char at a time through the buffer was the largest cost
         * of reading a cubin in a cold run (issue 11).
         */
        public boolean nameEquals(int index, Section section, int from) {
            String sectionNames = section.nameTable();
            int start = section.nameOffset() + from;
            int length = section.nameEndByte() - start;
            long offset = u32At(index * ENTRY);
            if (length < 0 || offset + length >= strings.limit()) {
                return false;
            }
            if (strings.hasArray()) {
                // the decoded cubin is on the heap: its bytes compared in place with the name table's (a vectorized
                // compare; no String of the symbol table, which holds every name of the cubin)
                byte[] bytes = strings.array();
                int at = strings.arrayOffset() + (int) offset;
                return Arrays.equals(bytes, at, at + length, section.nameTableBytes(), start, start + length)
                        && bytes[at + length] == 0;
            }
            String text = stringsText();
            return text.regionMatches((int) offset, sectionNames, start, length)
                    && text.charAt((int) offset + length) == 0;
        }

        private String stringsText;

        private String stringsText() {
            if (stringsText == null) {
                byte[] bytes = new byte[strings.limit()];
                strings.get(0, bytes);
                stringsText = new String(bytes, StandardCharsets.ISO_8859_1);
            }
            return stringsText;
        }
    }

    private static long le32(byte[] b, int i) {
        return (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24;
    }

    private static long le64(byte[] b, int i) {
        return le32(b, i) | le32(b, i + 4) << 32;
    }

    static int u16(ByteBuffer buffer, int index) {
        return Short.toUnsignedInt(buffer.getShort(index));
    }

    static long u32(ByteBuffer buffer, int index) {
        return Integer.toUnsignedLong(buffer.getInt(index));
    }

    /**
     * The NUL-terminated string at {@code offset} of a string table read as ISO-8859-1 text (one char per byte; the
     * rest of the table when no NUL follows).
     */
    static String cString(String table, long offset, String source, long where) throws BinaryFormatException {
        if (offset < 0 || offset >= table.length()) {
            if (offset == 0 && table.isEmpty()) {
                return "";
            }
            throw new BinaryFormatException(source, where, "name offset " + offset + " lies outside its "
                    + table.length() + "-byte string table");
        }
        int end = table.indexOf('\0', (int) offset);
        return table.substring((int) offset, end < 0 ? table.length() : end);
    }
}
