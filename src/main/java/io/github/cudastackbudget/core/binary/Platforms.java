package io.github.cudastackbudget.core.binary;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;

/**
 * The platform a file with device code is built for, as reports name it: the operating system from the fatbin entries'
 * host flags ({@code host = linux}/{@code windows}/{@code mac}, docs/cuda-binary-format.md 3.3) and the processor from
 * the file format (ELF {@code e_machine}, PE {@code Machine}): {@code linux-x86_64}, {@code linux-aarch64},
 * {@code windows-x86_64}. A bare fatbin has no host processor ({@code linux}, {@code windows}); a bare cubin has no
 * host at all ({@link #UNKNOWN}). Entries of several hosts in one file give {@code linux+windows}.
 */
public final class Platforms {

    /** The platform of a file that says nothing about its host (a bare cubin). */
    public static final String UNKNOWN = "unknown";

    private Platforms() {
    }

    /** The processor of an ELF {@code e_machine}, as platform names spell it. */
    static String elfCpu(int machine) {
        return switch (machine) {
            case 62 -> "x86_64";
            case 183 -> "aarch64";
            case 21 -> "ppc64le";
            case 3 -> "x86";
            case 40 -> "arm";
            default -> "elf" + machine;
        };
    }

    /** The processor of a PE {@code Machine}. */
    static String peCpu(int machine) {
        return switch (machine) {
            case PeFile.MACHINE_AMD64 -> "x86_64";
            case PeFile.MACHINE_I386 -> "x86";
            case PeFile.MACHINE_ARM64 -> "arm64";
            default -> "pe0x" + Integer.toHexString(machine);
        };
    }

    /**
     * The platform from what the reader found.
     *
     * @param kind    the file's kind
     * @param cpu     the host processor from the file format, or null (fatbin, cubin)
     * @param hosts   the host names of the fatbin entries read ({@link FatbinEntry#host()}), possibly none
     */
    static String of(BinaryKind kind, String cpu, Collection<String> hosts) {
        String os;
        if (!hosts.isEmpty()) {
            os = String.join("+", hosts);
        } else if (kind == BinaryKind.PE_IMAGE) {
            os = "windows";
        } else if (kind == BinaryKind.HOST_ELF || kind == BinaryKind.AR_ARCHIVE) {
            os = "linux";
        } else {
            return UNKNOWN;
        }
        return cpu == null ? os : os + "-" + cpu;
    }

    /**
     * The host processor of a region by its format: ELF {@code e_machine}, PE {@code Machine}, the first ELF member of
     * an archive; null for fatbins, cubins and anything unreadable.
     */
    static String cpu(ByteRegion region) {
        try {
            BinaryKind kind = DeviceCodeDetector.kind(region);
            switch (kind) {
                case HOST_ELF -> {
                    int machine = ElfFile.machine(region);
                    return machine < 0 ? null : elfCpu(machine);
                }
                case PE_IMAGE -> {
                    return peCpu(PeFile.read(region).machine());
                }
                case AR_ARCHIVE -> {
                    ArArchive.Walk walk = ArArchive.walk(region);
                    for (ArArchive.Member member : walk.members()) {
                        ByteRegion body = region.sub(member.offset(), member.size(), region.source());
                        if (DeviceCodeDetector.kind(body) == BinaryKind.HOST_ELF) {
                            return cpu(body);
                        }
                    }
                    return null;
                }
                default -> {
                    return null;
                }
            }
        } catch (BinaryFormatException e) {
            return null;
        }
    }

    /**
     * The platform of a file by its format and the host flags of its first fatbin entry, without decoding any entry:
     * what the cuobjdump engine reports (the native reader takes every entry's flags, {@link DeviceCodeListing}).
     */
    public static String of(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteRegion region = ByteRegion.read(file.toString(), channel);
            BinaryKind kind;
            try {
                kind = DeviceCodeDetector.kind(region);
            } catch (BinaryFormatException e) {
                return UNKNOWN;
            }
            String cpu = cpu(region);
            String host = null;
            try {
                ByteRegion fatbin = null;
                if (kind == BinaryKind.FATBIN) {
                    fatbin = region;
                } else if (kind == BinaryKind.PE_IMAGE) {
                    PeFile pe = PeFile.read(region);
                    if (!pe.fatbinSections().isEmpty()) {
                        fatbin = pe.contents(pe.fatbinSections().get(0), file.toString());
                    }
                } else if (kind == BinaryKind.HOST_ELF) {
                    ElfFile elf = ElfFile.read(region);
                    var sections = DeviceCodeSections.of(elf).toRead();
                    if (!sections.isEmpty() && sections.get(0).type() != ElfFile.SHT_NOBITS) {
                        fatbin = region.sub(sections.get(0).offset(), sections.get(0).size(), file.toString());
                    }
                }
                if (fatbin != null) {
                    long flags = FatbinWalker.firstEntryFlags(fatbin);
                    if (flags != -1) {
                        host = new FatbinEntry(0, FatbinEntry.KIND_ELF, 0, 0, 0, 0, 0, 0, "", null, flags, 0).host();
                    }
                }
            } catch (BinaryFormatException e) {
                host = null;
            }
            return of(kind, cpu, host == null ? java.util.List.of() : java.util.List.of(host));
        }
    }
}
