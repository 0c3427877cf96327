package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.binary.ByteRegion;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads native libraries inside JAR files in place with the {@link NativeEngine} (cuobjdump needs a file on disk, and
 * the entries are never extracted). An entry matched by the patterns that holds no device code by the
 * {@link DeviceCodeDetector} (the one that judges files) is skipped quietly, as pattern-matched files are.
 */
public final class JarEntryReads {

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
        Optional<ByteBuffer> content = deviceCode(entry, engine);
        return content.isEmpty() ? Optional.empty() : Optional.of(read(entry, content.get(), engine));
    }

    /**
     * The entry's bytes when they hold device code (the first half of {@link #read(JarEntryLibrary, NativeEngine)},
     * for a caller that looks at the bytes before reading them, e.g. the kernel cache).
     *
     * @return the bytes, or empty when the entry holds no device code
     * @throws EngineException naming the JAR and the entry when it cannot be read
     */
    public static Optional<ByteBuffer> deviceCode(JarEntryLibrary entry, NativeEngine engine) throws EngineException {
        if (entry.size() > JarEntryLibrary.MAX_ENTRY_BYTES) {
            Path name = Path.of(entry.entryName()).getFileName();
            throw new EngineException(entry.location() + " is " + entry.size() + " bytes, more than one buffer holds: "
                    + "unpack it and name the file in " + engine.frontend().howToSet(Option.LIBRARY_FILES,
                            name == null ? entry.entryName() : name.toString()));
        }
        ByteBuffer content;
        try {
            content = entry.read();
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            throw new EngineException(message.startsWith(entry.location()) ? message
                    : entry.location() + ": cannot be read (" + e.getClass().getSimpleName() + ": " + message
                            + "); check that the JAR is complete and was not changed during the build", e);
        }
        try {
            if (!DeviceCodeDetector.probe(entry.jar(), ByteRegion.of(entry.location(), content.duplicate()))
                    .hasDeviceCode()) {
                return Optional.empty();
            }
        } catch (IOException e) {
            throw new IllegalStateException("bytes in memory cannot fail to be read", e);
        }
        return Optional.of(content);
    }

    /**
     * Reads the bytes of an entry that {@link #deviceCode} returned (the second half of
     * {@link #read(JarEntryLibrary, NativeEngine)}).
     *
     * @throws EngineException naming the JAR and the entry when its layout is unknown
     */
    public static LibraryScan read(JarEntryLibrary entry, ByteBuffer content, NativeEngine engine)
            throws EngineException {
        LibraryScan scan = engine.read(entry.label(), entry.jar(), content.duplicate());
        return scan.withUsedBy(entry.usedBy());
    }
}
