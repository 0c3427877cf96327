package io.github.cudastackbudget.core.binary;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a cubin (device ELF, {@code e_machine} 190) into the figures cuobjdump prints (docs/cuda-binary-format.md
 * section 4; every rule there was byte-identical to cuobjdump 13.0 on about 350,000 function lines).
 *
 * <ul>
 *   <li>Global {@code .nv.info}: records with format 4 (SVAL) and attribute 0x2F (REGCOUNT) or 0x12
 *       (MIN_STACK_SIZE) carry {@code {u32 symbol index, u32 value}}; other records are skipped by their length.</li>
 *   <li>Functions: every STT_FUNC symbol defined in a section named {@code .text.<its name>}, by ascending index of
 *       that section (duplicate names stay separate functions).</li>
 *   <li>REG: REGCOUNT of the symbol if it is a kernel entry and has one, else the top byte of the {@code .text}
 *       section's {@code sh_info}. STACK: MIN_STACK_SIZE or 0; 0xFFFFFFFF is UNKNOWN.</li>
 *   <li>SHARED / LOCAL / CONSTANT[n]: {@code sh_size} of the {@code .nv.shared.*} (not {@code .nv.shared.reserved.*}),
 *       {@code .nv.local.*} and {@code .nv.constant<n>.*} sections whose {@code sh_info} is the function's
 *       {@code .text} section index.</li>
 *   <li>Common: {@code .nv.global} + {@code .nv.global.init}, then each unsuffixed {@code .nv.constant<n>}.</li>
 * </ul>
 *
 * <p>Open questions of the format document (section 10) and what this reader does about them:
 * (1) TEXTURE/SURFACE/SAMPLER are printed 0 as cuobjdump 13.0 did on every known input; the reader has no source for
 * them, so a binary with bindful texture references (pre-CUDA 12) could differ there, never in REG/STACK/SHARED;
 * (2) LOCAL follows the unproven {@code .nv.local.<f>} rule; CUDA 13 never emits such sections;
 * (3) the text is cuobjdump 13.0's; (4) the {@code a}/{@code f} label comes from the fatbin flags, not e_flags;
 * (5) ABI v1 (version 7) cubins use the SM byte of e_flags bits 0..7 and are otherwise read like v2; ABI versions
 * other than 7 and 8 fail the read; (6) host flags 0x20/0x40 print mac/windows (unverified), flag 0x1000000 is only
 * accepted, kind 4 (legacy cubin) fails the read; (7) an object holding both {@code .nv_fatbin} and
 * {@code __nv_relfatbin} is read from {@code .nv_fatbin} only, as for libraries; (8) MAX_STACK_SIZE (0x23) is ignored
 * as cuobjdump ignored it on every input seen; (9) 8-byte zero words between containers and entries are skipped;
 * (10) whole-program recursion stores MIN_STACK 0: the reader reports 0 like cuobjdump, it cannot tell.
 */
public final class CubinReader {

    private static final int FORMAT_SVAL = 4;
    private static final int ATTR_MIN_STACK_SIZE = 0x12;
    private static final int ATTR_REGCOUNT = 0x2F;
    private static final int ATTR_ACCELERATOR_TARGET = 9;
    private static final int STT_FUNC = 2;
    private static final int ST_OTHER_ENTRY = 0x10;
    private static final long UNKNOWN_STACK = 0xFFFFFFFFL;

    private static final String TEXT = ".text.";

    // the section names the passes test, as bytes (ElfFile.Section#nameStartsWith(byte[]))
    private static final byte[] NV = ascii(".nv.");
    private static final byte[] NV_INFO = ascii(".nv.info");
    private static final byte[] NV_GLOBAL = ascii(".nv.global");
    private static final byte[] NV_GLOBAL_INIT = ascii(".nv.global.init");
    private static final byte[] NV_SHARED = ascii(".nv.shared.");
    private static final byte[] NV_SHARED_RESERVED = ascii(".nv.shared.reserved.");
    private static final byte[] NV_LOCAL = ascii(".nv.local.");
    private static final byte[] NV_CONSTANT = ascii(".nv.constant");
    private static final byte[] TEXT_BYTES = ascii(TEXT);

    private static byte[] ascii(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private CubinReader() {
    }

    /** Whether an ELF image is a cubin ({@code e_machine} 190). */
    public static boolean isCubin(ElfFile elf) {
        return elf.machine() == ElfFile.EM_CUDA;
    }

    /**
     * Checks the header of a cubin: ELF64, {@code e_machine} 190, ELF ABI version 7 (v1) or 8 (v2).
     *
     * @throws BinaryFormatException naming what is unknown
     */
    public static void checkHeader(ElfFile elf) throws BinaryFormatException {
        String source = elf.region().source();
        if (elf.machine() != ElfFile.EM_CUDA) {
            throw new BinaryFormatException(source, elf.region().fileOffset(0x12), "device code ELF has e_machine "
                    + elf.machine() + ", not 190 (EM_CUDA)");
        }
        if (!elf.isElf64()) {
            throw new BinaryFormatException(source, elf.region().fileOffset(4), "32-bit cubin (only ELF64 device "
                    + "code is known)");
        }
        if (elf.abiVersion() != 7 && elf.abiVersion() != 8) {
            throw new BinaryFormatException(source, elf.region().fileOffset(8), "cubin ELF ABI version "
                    + elf.abiVersion() + " (known: 7 = CUDA ABI v1, 8 = CUDA ABI v2)");
        }
    }

    /**
     * Reads the resource figures of one cubin.
     *
     * <p>Its three passes (the sections, the function symbols, the functions) are methods of their own (issue 11):
     * as one method called once per cubin, the JIT compiled it on stack replacement at each of its loops in turn,
     * each time with every pass after that loop inlined (four C2 compilations of 0.04-0.27 s each in a cold check).
     */
    public static CubinResources read(ElfFile elf) throws BinaryFormatException {
        checkHeader(elf);
        List<ElfFile.Section> sections = elf.sections();
        if (sections.isEmpty()) {
            // issue 10: such a cubin read as a valid one without kernels
            throw new BinaryFormatException(elf.region().source(), elf.region().fileOffset(0x28), "the cubin has no "
                    + "section header table (e_shoff 0): its kernels cannot be read");
        }
        ElfFile.Symbols symbols = elf.symbols();
        SectionFigures figures = sectionFigures(elf, sections, symbols.count());
        long[] found = functionSymbols(sections, symbols);
        // sorted here, not in the symbol loop's method: compiled hot, that loop inlined the JDK's whole sort
        Arrays.sort(found);
        return new CubinResources(figures.global, figures.common, functions(sections, symbols, figures, found));
    }

    /** What the sections say, by the index of the {@code .text} section (or symbol) it belongs to. */
    private static final class SectionFigures {
        final long[] regCount;
        final long[] minStack;
        final long[] shared;
        final long[] local;
        final List<CubinResources.ConstantBank>[] constants;
        final List<CubinResources.ConstantBank> common = new ArrayList<>();
        long global;

        @SuppressWarnings("unchecked")
        SectionFigures(int sectionCount, int symbolCount) {
            regCount = new long[symbolCount];
            minStack = new long[symbolCount];
            Arrays.fill(regCount, -1);
            Arrays.fill(minStack, -1);
            shared = new long[sectionCount];
            local = new long[sectionCount];
            constants = new List[sectionCount];
        }
    }

    private static SectionFigures sectionFigures(ElfFile elf, List<ElfFile.Section> sections, int symbolCount)
            throws BinaryFormatException {
        int sectionCount = sections.size();
        SectionFigures figures = new SectionFigures(sectionCount, symbolCount);
        // issue 11: the names are tested on the section-name table's text, never made Strings (a cubin has several
        // sections per function)
        for (ElfFile.Section section : sections) {
            if (section.nameStartsWith(NV)) {
                section(elf, section, sectionCount, figures);
            }
        }
        return figures;
    }

    private static void section(ElfFile elf, ElfFile.Section section, int sectionCount, SectionFigures figures)
            throws BinaryFormatException {
        if (section.nameIs(NV_INFO)) {
            readInfo(elf, section, figures.regCount, figures.minStack);
        } else if (section.nameIs(NV_GLOBAL) || section.nameIs(NV_GLOBAL_INIT)) {
            figures.global += section.size();
        } else if (section.nameStartsWith(NV_SHARED)) {
            if (!section.nameStartsWith(NV_SHARED_RESERVED) && owner(section, sectionCount) > 0) {
                figures.shared[owner(section, sectionCount)] = section.size();
            }
        } else if (section.nameStartsWith(NV_LOCAL)) {
            if (owner(section, sectionCount) > 0) {
                figures.local[owner(section, sectionCount)] = section.size();
            }
        } else if (section.nameStartsWith(NV_CONSTANT)) {
            constant(section, sectionCount, figures);
        }
    }

    private static void constant(ElfFile.Section section, int sectionCount, SectionFigures figures) {
        int digitsEnd = NV_CONSTANT.length;
        while (isDigit(section.nameByte(digitsEnd))) {
            digitsEnd++;
        }
        if (digitsEnd == NV_CONSTANT.length || digitsEnd - NV_CONSTANT.length > 4) {
            return;
        }
        int bank = 0; // at most four digits (checked above): no overflow, no substring
        for (int digit = NV_CONSTANT.length; digit < digitsEnd; digit++) {
            bank = bank * 10 + section.nameByte(digit) - '0';
        }
        CubinResources.ConstantBank figure = new CubinResources.ConstantBank(bank, section.size());
        int after = section.nameByte(digitsEnd);
        if (after == 0) {
            figures.common.add(figure);
        } else if (after == '.' && owner(section, sectionCount) > 0) {
            int owner = owner(section, sectionCount);
            if (figures.constants[owner] == null) {
                figures.constants[owner] = new ArrayList<>(2);
            }
            figures.constants[owner].add(figure);
        }
    }

    /** An ASCII digit (what {@link Character#isDigit} said of the name's chars, which are bytes: 0-255). */
    private static boolean isDigit(int b) {
        return b >= '0' && b <= '9';
    }

    /**
     * Functions: STT_FUNC symbols whose section is named ".text.<symbol name>", as {@code section << 32 | symbol}
     * in symbol order (the caller sorts them: by section, then symbol). Primitive longs sorted by the JDK, not pairs
     * sorted by a comparator (issue 11: the sort's code and the comparator were most of what the JIT inlined into this
     * loop).
     */
    private static long[] functionSymbols(List<ElfFile.Section> sections, ElfFile.Symbols symbols)
            throws BinaryFormatException {
        int symbolCount = symbols.count();
        long[] found = new long[Math.min(symbolCount, 64)];
        int count = 0;
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            if (symbols.type(symbol) != STT_FUNC) {
                continue;
            }
            int text = symbols.sectionIndex(symbol);
            if (text <= 0) {
                continue;
            }
            ElfFile.Section textSection = sections.get(text);
            if (textSection.nameStartsWith(TEXT_BYTES) && symbols.nameEquals(symbol, textSection, TEXT.length())) {
                if (count == found.length) {
                    found = Arrays.copyOf(found, Math.max(16, count * 2));
                }
                found[count++] = (long) text << 32 | symbol;
            }
        }
        return count == found.length ? found : Arrays.copyOf(found, count);
    }

    private static List<CubinResources.Function> functions(List<ElfFile.Section> sections, ElfFile.Symbols symbols,
            SectionFigures figures, long[] found) {
        List<CubinResources.Function> functions = new ArrayList<>(found.length);
        for (long pair : found) {
            int text = (int) (pair >>> 32);
            int symbol = (int) pair;
            ElfFile.Section textSection = sections.get(text);
            boolean kernel = (symbols.other(symbol) & ST_OTHER_ENTRY) != 0;
            int registers = kernel && figures.regCount[symbol] >= 0 ? (int) figures.regCount[symbol]
                    : (int) (textSection.info() >>> 24);
            long stack = figures.minStack[symbol] < 0 ? 0 : figures.minStack[symbol];
            boolean unknown = stack == UNKNOWN_STACK;
            functions.add(new CubinResources.Function(textSection.nameFrom(TEXT.length()), kernel,
                    registers, unknown ? 0 : stack, unknown, figures.shared[text], figures.local[text],
                    figures.constants[text] == null ? List.of() : figures.constants[text]));
        }
        return functions;
    }

    /**
     * The target of a bare cubin from its header: SM number from e_flags (bits 8..15 for ABI version 8, bits 0..7
     * for 7), {@code a} variant from the {@code .nv.compat} attribute 9 (v2) or e_flags bit 0x800 (v1). A cubin does
     * not record the {@code f} variant.
     */
    public static GpuArch arch(ElfFile elf) throws BinaryFormatException {
        checkHeader(elf);
        boolean v2 = elf.abiVersion() >= 8;
        long flags = elf.flags();
        int sm = (int) (v2 ? (flags >>> 8) & 0xFF : flags & 0xFF);
        boolean archSpecific = v2 ? acceleratorTarget(elf) : (flags & 0x800) != 0;
        return archOf(sm, archSpecific ? ArchVariant.ARCH_SPECIFIC : ArchVariant.BASE, elf.region().source(),
                elf.region().fileOffset(0x30));
    }

    /**
     * The target of a bare cubin file, by {@link #arch(ElfFile)}: what cuobjdump does not print for one. Only the ELF
     * header and the {@code .nv.compat} section are read.
     *
     * @throws IOException           when the file cannot be opened
     * @throws BinaryFormatException when it is no cubin of a known layout, or cannot be read
     */
    public static GpuArch arch(Path cubin) throws IOException, BinaryFormatException {
        try (FileChannel channel = FileChannel.open(cubin, StandardOpenOption.READ)) {
            return arch(ElfFile.read(ByteRegion.read(cubin.toString(), channel)));
        }
    }

    /** A {@link GpuArch} for an SM number, or a format error for a number no GPU has. */
    public static GpuArch archOf(int sm, ArchVariant variant, String source, long offset) throws BinaryFormatException {
        if (sm < 10 || sm > 999) {
            throw new BinaryFormatException(source, offset, "architecture number " + sm + " is not a CUDA SM number");
        }
        return new GpuArch(ComputeCapability.parse(Integer.toString(sm)), variant);
    }

    private static boolean acceleratorTarget(ElfFile elf) throws BinaryFormatException {
        for (ElfFile.Section section : elf.sections()) {
            if (section.nameIs(".nv.compat")) {
                ByteBuffer records = elf.contents(section);
                int position = 0;
                while (position + 4 <= records.limit()) {
                    int format = Byte.toUnsignedInt(records.get(position));
                    int attribute = Byte.toUnsignedInt(records.get(position + 1));
                    if (format == 2 && attribute == ATTR_ACCELERATOR_TARGET) {
                        return records.get(position + 2) != 0;
                    }
                    position += format == FORMAT_SVAL ? 4 + ElfFile.u16(records, position + 2) : 4;
                }
            }
        }
        return false;
    }

    /** The {@code .text} section a per-function section belongs to ({@code sh_info}), or -1. */
    private static int owner(ElfFile.Section section, int sectionCount) {
        long info = section.info();
        return info > 0 && info < sectionCount ? (int) info : -1;
    }

    /** Reads REGCOUNT and MIN_STACK_SIZE records of the global {@code .nv.info} section; last record wins. */
    private static void readInfo(ElfFile elf, ElfFile.Section section, long[] regCount, long[] minStack)
            throws BinaryFormatException {
        ByteBuffer records = elf.contents(section);
        long base = elf.fileOffset(section);
        String source = elf.region().source();
        int limit = records.limit();
        int position = 0;
        while (position < limit) {
            if (limit - position < 4) {
                throw new BinaryFormatException(source, base + position, ".nv.info ends inside a record header ("
                        + (limit - position) + " bytes left)");
            }
            int format = Byte.toUnsignedInt(records.get(position));
            int attribute = Byte.toUnsignedInt(records.get(position + 1));
            if (format < 1 || format > FORMAT_SVAL) {
                throw new BinaryFormatException(source, base + position, ".nv.info record format " + format
                        + " (known: 1 NVAL, 2 BVAL, 3 HVAL, 4 SVAL); the records cannot be walked further");
            }
            if (format != FORMAT_SVAL) {
                position += 4;
                continue;
            }
            int length = ElfFile.u16(records, position + 2);
            if (length > limit - position - 4) {
                throw new BinaryFormatException(source, base + position, ".nv.info record of attribute 0x"
                        + Integer.toHexString(attribute) + " declares " + length + " bytes but only "
                        + (limit - position - 4) + " are left");
            }
            if (attribute == ATTR_REGCOUNT || attribute == ATTR_MIN_STACK_SIZE) {
                if (length < 8) {
                    throw new BinaryFormatException(source, base + position, ".nv.info record of attribute 0x"
                            + Integer.toHexString(attribute) + " has " + length + " bytes, not {u32 symbol, u32 value}");
                }
                long symbol = ElfFile.u32(records, position + 4);
                long value = ElfFile.u32(records, position + 8);
                if (symbol >= regCount.length) {
                    throw new BinaryFormatException(source, base + position, ".nv.info record of attribute 0x"
                            + Integer.toHexString(attribute) + " names symbol " + symbol + " of "
                            + regCount.length);
                }
                (attribute == ATTR_REGCOUNT ? regCount : minStack)[(int) symbol] = value;
            }
            position += 4 + length;
        }
    }
}
