package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.binary.ArArchive;
import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.ByteRegion;
import io.github.cudastackbudget.core.binary.CubinReader;
import io.github.cudastackbudget.core.binary.ElfFile;
import io.github.cudastackbudget.core.binary.FatbinWalker;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads native libraries inside JAR files in place with the {@link NativeEngine} (cuobjdump needs a file on disk, and
 * the entries are never extracted). An entry matched by the patterns that is not ELF, an archive or a fatbin, or an
 * ELF without device-code sections, is skipped quietly, as pattern-matched files are.
 */
public final class JarEntryReads {

    private static final Set<String> DEVICE_CODE_SECTIONS = Set.of(".nv_fatbin", "__nv_relfatbin");

    private JarEntryReads() {
    }

    /** One read task per entry, for {@link LibraryScanner#run}. */
    public static List<LibraryScanner.ReadTask> tasks(List<JarEntryLibrary> entries, NativeEngine engine) {
        List<LibraryScanner.ReadTask> tasks = new ArrayList<>(entries.size());
        for (JarEntryLibrary entry : entries) {
            tasks.add(() -> read(entry, engine));
        }
        return tasks;
    }

    /**
     * Reads one entry.
     *
     * @return the scan (library label {@code app.jar!/path/lib.so}, used by the JAR's owner), or empty when the entry
     *         holds no device code
     * @throws EngineException naming the JAR and the entry when it cannot be read or its layout is unknown
     */
    public static Optional<LibraryScan> read(JarEntryLibrary entry, NativeEngine engine) throws EngineException {
        ByteBuffer content;
        try {
            content = entry.read();
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            throw new EngineException(message.startsWith(entry.location()) ? message
                    : entry.location() + ": cannot be read (" + e.getClass().getSimpleName() + ": " + message
                            + "); check that the JAR is complete and was not changed during the build", e);
        }
        if (!holdsDeviceCode(entry.location(), content)) {
            return Optional.empty();
        }
        LibraryScan scan = engine.read(entry.label(), entry.jar(), content);
        return Optional.of(scan.withUsedBy(entry.usedBy()));
    }

    /** Whether the bytes are a fatbin, a cubin, or an ELF file or archive member with a device-code section. */
    static boolean holdsDeviceCode(String source, ByteBuffer content) {
        try {
            ByteRegion region = ByteRegion.of(source, content.duplicate());
            if (FatbinWalker.isFatbin(region)) {
                return true;
            }
            if (ArArchive.isArchive(region)) {
                for (ArArchive.Member member : ArArchive.members(region)) {
                    ByteRegion body = region.sub(member.offset(), member.size(), source + "(" + member.name() + ")");
                    if (FatbinWalker.isFatbin(body) || elfWithDeviceCode(body)) {
                        return true;
                    }
                }
                return false;
            }
            return elfWithDeviceCode(region);
        } catch (BinaryFormatException e) {
            return false; // not a well-formed ELF or archive: like a non-ELF file matched by a pattern
        }
    }

    private static boolean elfWithDeviceCode(ByteRegion region) throws BinaryFormatException {
        if (!ElfFile.isElf(region)) {
            return false;
        }
        ElfFile elf = ElfFile.read(region);
        return CubinReader.isCubin(elf)
                || elf.sections().stream().anyMatch(section -> DEVICE_CODE_SECTIONS.contains(section.name()));
    }
}
