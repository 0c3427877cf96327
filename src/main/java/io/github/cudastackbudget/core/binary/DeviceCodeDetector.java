package io.github.cudastackbudget.core.binary;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Tells whether a file, an archive member or a JAR entry carries CUDA device code, by its magic bytes and, for ELF, by
 * its header and section names (read with {@link ElfFile}, the one ELF reader; archives walked with {@link ArArchive},
 * the one {@code ar} walker). The one device-code detector: library discovery, JAR entries and the launched-mode
 * library log all ask it.
 *
 * <ul>
 *   <li>ELF with {@code e_machine == EM_CUDA}: a {@linkplain BinaryKind#CUBIN cubin}, device code (the header
 *       decides; whether its layout is known is the reader's question).</li>
 *   <li>Other ELF, in either byte order: {@linkplain BinaryKind#HOST_ELF host ELF}, device code iff it has a section
 *       named exactly {@code .nv_fatbin} or {@code __nv_relfatbin} ({@link DeviceCodeSections}).</li>
 *   <li>Fatbin magic {@code 0xBA55ED50}: a {@linkplain BinaryKind#FATBIN fatbin}, device code.</li>
 *   <li>{@code ar} archive: device code iff any ELF or fatbin member has it by the rules above; the members' names are
 *       listed in {@link DeviceCodeProbe#membersWithDeviceCode()}. A thin archive holds no members to look at: no
 *       device code, and the detail says to give the member files.</li>
 *   <li>Anything else: {@linkplain BinaryKind#UNKNOWN unknown}, no device code.</li>
 * </ul>
 *
 * <p>Files are read with positional reads of the headers and the section-name string tables only (nothing is
 * mapped), so probing a 500 MB library costs a few kilobytes of I/O. Malformed or truncated content never throws: the
 * probe says {@code hasDeviceCode == false} and why, in the words of the reader that refused it.
 */
public final class DeviceCodeDetector {

    static final String NOT_RECOGNISED = "not an ELF file, PE image, fatbin or ar archive";
    static final String NO_PE_DEVICE_SECTION = "PE image without a .nv_fatb section";
    static final String NO_DEVICE_SECTION = "no .nv_fatbin/__nv_relfatbin section";

    private DeviceCodeDetector() {
    }

    /** The verdict on one file or member, before it is tied to a path. */
    private record Verdict(BinaryKind kind, boolean hasDeviceCode, String detail, List<String> members,
            boolean onlyRelocatable, DeviceCodeProbe.Unreadable unreadable) {
        Verdict(BinaryKind kind, boolean hasDeviceCode, String detail, List<String> members, boolean onlyRelocatable) {
            this(kind, hasDeviceCode, detail, members, onlyRelocatable, null);
        }

        static Verdict of(BinaryKind kind, boolean hasDeviceCode, String detail) {
            return new Verdict(kind, hasDeviceCode, detail, List.of(), false);
        }

        /** Device code (by its structure) that cannot be read: counted as device code, so that it is never skipped. */
        static Verdict unreadable(BinaryKind kind, DeviceCodeProbe.Unreadable why) {
            return new Verdict(kind, true, why.problem(), List.of(), false, why);
        }
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
            return probe(file, ByteRegion.read(file.toString(), channel));
        }
    }

    /**
     * Probes bytes already at hand, e.g. a library inside a JAR file.
     *
     * @param file   the path the probe reports (for a JAR entry: the JAR)
     * @param region the bytes, named in its {@link ByteRegion#source()} as the user would find them
     * @throws IOException when a read of a file-backed region fails (not for malformed content)
     */
    public static DeviceCodeProbe probe(Path file, ByteRegion region) throws IOException {
        Verdict verdict;
        try {
            verdict = verdict(region);
        } catch (BinaryFormatException e) {
            refused(e);
            verdict = Verdict.unreadable(BinaryKind.UNKNOWN, DeviceCodeProbe.Unreadable.of(e));
        }
        return new DeviceCodeProbe(file, verdict.kind(), verdict.hasDeviceCode(), verdict.detail(), verdict.members(),
                verdict.onlyRelocatable(), verdict.unreadable());
    }

    /**
     * The kind of a file or archive member by its magic bytes and, for ELF, its {@code e_machine}; what the native
     * reader also goes by.
     */
    public static BinaryKind kind(ByteRegion region) throws BinaryFormatException {
        if (FatbinWalker.isFatbin(region)) {
            return BinaryKind.FATBIN;
        }
        if (ElfFile.isElf(region)) {
            return ElfFile.machine(region) == ElfFile.EM_CUDA ? BinaryKind.CUBIN : BinaryKind.HOST_ELF;
        }
        if (ArArchive.isArchive(region)) {
            return BinaryKind.AR_ARCHIVE;
        }
        if (PeFile.isPe(region)) {
            return BinaryKind.PE_IMAGE;
        }
        return BinaryKind.UNKNOWN;
    }

    private static Verdict verdict(ByteRegion region) throws BinaryFormatException, IOException {
        BinaryKind kind = kind(region);
        return switch (kind) {
            case HOST_ELF, CUBIN -> elf(region, kind);
            case FATBIN -> Verdict.of(kind, true, "fatbin (magic 0xBA55ED50)");
            case AR_ARCHIVE -> archive(region);
            case PE_IMAGE -> pe(region);
            case UNKNOWN -> Verdict.of(kind, false, NOT_RECOGNISED);
        };
    }

    /** An ELF image: a cubin by its header, a host file by its section names. */
    private static Verdict elf(ByteRegion region, BinaryKind kind) throws IOException {
        ElfFile elf;
        try {
            elf = ElfFile.readAnyByteOrder(region);
        } catch (BinaryFormatException e) {
            refused(e);
            // ELF structure that cannot be read: device code we could not read (issue 10), never "no device code"
            return Verdict.unreadable(kind, DeviceCodeProbe.Unreadable.of(e));
        }
        String elfClass = elf.isElf64() ? "ELF64" : "ELF32";
        if (kind == BinaryKind.CUBIN) {
            if (elf.sections().isEmpty()) {
                return Verdict.unreadable(kind, new DeviceCodeProbe.Unreadable(region.source(),
                        region.fileOffset(elf.isElf64() ? 0x28 : 0x20), "the cubin has no section header table "
                                + "(e_shoff 0): its kernels cannot be read"));
            }
            return Verdict.of(kind, true, elfClass + " CUDA device code (e_machine EM_CUDA)");
        }
        if (elf.sections().isEmpty()) {
            long magic;
            try {
                magic = fatbinMagicOffset(region);
            } catch (BinaryFormatException e) {
                refused(e);
                return Verdict.unreadable(kind, DeviceCodeProbe.Unreadable.of(e));
            }
            if (magic >= 0) {
                return Verdict.unreadable(kind, new DeviceCodeProbe.Unreadable(region.source(), region.fileOffset(magic),
                        "fatbin magic 0xBA55ED50 in an ELF file without a section header table (e_shoff 0): its device "
                                + "code cannot be found"));
            }
            return Verdict.of(kind, false, "no section header table");
        }
        DeviceCodeSections sections = DeviceCodeSections.of(elf);
        if (!sections.any()) {
            return Verdict.of(kind, false, NO_DEVICE_SECTION);
        }
        return new Verdict(kind, true, elfClass + " with " + sections.names(), List.of(), sections.onlyRelocatable());
    }

    /** A PE image: device code iff it has a {@code .nv_fatb} section with bytes in the file. */
    private static Verdict pe(ByteRegion region) throws IOException {
        PeFile pe;
        try {
            pe = PeFile.read(region);
        } catch (BinaryFormatException e) {
            String why = refused(e);
            // PE headers that cannot be read around fatbin magic bytes: device code we could not read (issue 10),
            // never "no device code"; without the magic, a damaged host DLL
            try {
                if (fatbinMagicOffset(region) >= 0) {
                    return Verdict.unreadable(BinaryKind.PE_IMAGE, DeviceCodeProbe.Unreadable.of(e));
                }
            } catch (BinaryFormatException scan) {
                refused(scan);
                return Verdict.unreadable(BinaryKind.PE_IMAGE, DeviceCodeProbe.Unreadable.of(scan));
            }
            return Verdict.of(BinaryKind.PE_IMAGE, false, why);
        }
        String format = pe.isPe32Plus() ? "PE32+" : "PE32";
        boolean any = pe.fatbinSections().stream().anyMatch(section -> section.fileSize() > 0);
        return any ? Verdict.of(BinaryKind.PE_IMAGE, true, format + " (" + pe.platform() + ") with " + PeFile.NV_FATBIN)
                : Verdict.of(BinaryKind.PE_IMAGE, false, NO_PE_DEVICE_SECTION);
    }

    /** An archive: each ELF or fatbin member is judged like a file; a problem ends the walk, keeping what was found. */
    private static Verdict archive(ByteRegion region) throws BinaryFormatException, IOException {
        ArArchive.Walk walk = ArArchive.walk(region);
        if (walk.thin()) {
            return Verdict.of(BinaryKind.AR_ARCHIVE, false, refused(walk.problem()));
        }
        if (walk.problem() != null) {
            refused(walk.problem());
            return Verdict.unreadable(BinaryKind.AR_ARCHIVE, DeviceCodeProbe.Unreadable.of(walk.problem()));
        }
        List<String> withDeviceCode = new ArrayList<>();
        int candidates = 0;
        for (ArArchive.Member member : walk.members()) {
            ByteRegion body = region.sub(member.offset(), member.size(), region.source() + "(" + member.name() + ")");
            BinaryKind kind = kind(body);
            if (kind == BinaryKind.HOST_ELF || kind == BinaryKind.CUBIN || kind == BinaryKind.FATBIN) {
                candidates++;
                Verdict judged = kind == BinaryKind.FATBIN ? null : elf(body, kind);
                if (judged != null && judged.unreadable() != null) {
                    return Verdict.unreadable(BinaryKind.AR_ARCHIVE, judged.unreadable());
                }
                if (judged == null || judged.hasDeviceCode()) {
                    withDeviceCode.add(member.name());
                }
            }
        }
        String detail = withDeviceCode.isEmpty()
                ? "ar archive, no member with device code (" + candidates + " ELF members)"
                : "ar archive, " + withDeviceCode.size() + " of " + candidates + " ELF members with device code";
        if (walk.problem() != null) {
            detail += "; " + refusedAt(walk.problem());
        }
        return new Verdict(BinaryKind.AR_ARCHIVE, !withDeviceCode.isEmpty(), detail, withDeviceCode, false);
    }

    /**
     * The offset of the first fatbin container magic (0xBA55ED50, little-endian) in the region, or -1; read in 1 MiB
     * pieces.
     */
    static long fatbinMagicOffset(ByteRegion region) throws BinaryFormatException {
        final int piece = 1 << 20;
        for (long at = 0; at + 4 <= region.size(); at += piece - 3) {
            java.nio.ByteBuffer bytes = region.slice(at, Math.min(piece, region.size() - at));
            for (int i = 0; i + 4 <= bytes.limit(); i++) {
                if (bytes.get(i) == 0x50 && bytes.getInt(i) == FatbinWalker.MAGIC) {
                    return at + i;
                }
            }
            if (at + piece >= region.size()) {
                break;
            }
        }
        return -1;
    }

    /** What a reader refused, for the detail; a failed read of the file itself is rethrown. */
    private static String refused(BinaryFormatException e) throws IOException {
        if (e.getCause() instanceof IOException io) {
            throw io;
        }
        return e.what();
    }

    private static String refusedAt(BinaryFormatException e) throws IOException {
        refused(e);
        return e.located();
    }
}
