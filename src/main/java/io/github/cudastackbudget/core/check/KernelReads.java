package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.KernelEngine;
import io.github.cudastackbudget.core.engine.LibraryScanner;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.text.Option;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stage 2: reads the kernels of the inputs, files with the configured engine and JAR entries in place with the native
 * reader, and attributes the files to their file set's owner or the project (JAR entries already carry their JAR's
 * owner).
 */
final class KernelReads {

    private KernelReads() {
    }

    /**
     * The one policy for unreadable input (issue 10). A file that only looks like a host file (no ELF, {@code ar} or
     * fatbin magic) never gets here: discovery skips it quietly. A file with ELF, {@code ar} or fatbin structure that
     * the readers refuse, or that holds the fatbin magic where no reader finds it, is device code that could not be
     * read: with failOnUnreadable (the default) the check fails with one line naming the file, the offset and the
     * problem; without it that line is a warning and the report lists the file under {@code unreadable}.
     */
    static final class Unreadable {
        private final CheckRequest request;
        private final CheckWarnings warnings;
        private final List<DeviceCodeProbe.Unreadable> found = new ArrayList<>();

        Unreadable(CheckRequest request, CheckWarnings warnings) {
            this.request = request;
            this.warnings = warnings;
        }

        /** Fails, or records and warns. */
        synchronized void add(DeviceCodeProbe.Unreadable why, String message, Exception cause) throws CheckProblem {
            if (request.failOnUnreadable()) {
                throw new CheckProblem(message + " (device code that cannot be read; "
                        + request.frontend().howToSet(Option.FAIL_ON_UNREADABLE, "false") + " only warns)", cause);
            }
            found.add(why);
            warnings.warn(message + ": device code that cannot be read, left out of the check");
        }

        List<DeviceCodeProbe.Unreadable> found() {
            return List.copyOf(found);
        }
    }

    /** The scans of every input that holds device code, files first, in input order. */
    static List<LibraryScan> read(CheckRequest request, Inputs inputs, Engines engines, CheckProgress listener)
            throws CheckProblem {
        return read(request, inputs, engines, listener, new Unreadable(request, new CheckWarnings(listener)));
    }

    /** The scans of every input that holds device code, files first, in input order; unreadable ones by policy. */
    static List<LibraryScan> read(CheckRequest request, Inputs inputs, Engines engines, CheckProgress listener,
            Unreadable unreadable) throws CheckProblem {
        List<DeviceCodeProbe> readable = new ArrayList<>();
        for (DeviceCodeProbe file : inputs.files()) {
            if (file.isUnreadable()) {
                unreadable.add(file.unreadable(), file.unreadable().message(), null);
            } else {
                readable.add(file);
            }
        }
        inputs = inputs.withFiles(readable);
        try {
            KernelEngine fileEngine = null;
            if (!inputs.files().isEmpty()) {
                fileEngine = engines.files();
                listener.info("Reading " + inputs.files().size() + " file(s) with device code using "
                        + fileEngine.description());
            }
            NativeEngine jarEngine = null;
            if (!inputs.jarEntries().isEmpty()) {
                jarEngine = engines.jarEntries();
                listener.info("Reading " + inputs.jarEntries().size() + " library entr"
                        + (inputs.jarEntries().size() == 1 ? "y" : "ies") + " of " + inputs.jars() + " JAR(s) in place "
                        + "using " + jarEngine.description());
            }
            if (fileEngine == null && jarEngine == null) {
                return List.of();
            }
            List<LibraryScanner.ReadTask> tasks = new ArrayList<>();
            KernelEngine readFiles = fileEngine;
            CachedReads reads = engines.reads();
            inputs.files().forEach(file -> tasks.add(() -> orUnreadable(unreadable,
                    () -> Optional.of(reads.readFile(readFiles, file)))));
            NativeEngine readEntries = jarEngine;
            inputs.jarEntries().forEach(entry -> tasks.add(() -> orUnreadable(unreadable,
                    () -> reads.readEntry(entry, readEntries)
                            .map(scan -> reads.markIfHit(scan, scan.fromJarEntry(jarEntry(entry)))))));
            List<LibraryScan> scans = new LibraryScanner(fileEngine != null ? fileEngine : jarEngine,
                    request.parallelism()).run(tasks, (scan, done, total) -> progress(listener, scan, done, total,
                            reads.hit(scan)));
            // files belong to their file set's owner (aggregate: the module), else to the project; JAR entries already
            // carry their JAR's owner
            Inputs owned = inputs;
            return scans.stream().map(scan -> scan.jarEntry() == null
                    ? scan.withUsedBy(owned.owner(scan.path(), request.usedBy())) : scan).toList();
        } catch (EngineException e) {
            if (e.getCause() instanceof CheckProblem problem) {
                throw problem;
            }
            throw new CheckProblem(e.getMessage(), e);
        }
    }

    /** A read whose format error (the reader refused the bytes) goes by the unreadable policy. */
    private static Optional<LibraryScan> orUnreadable(Unreadable unreadable, LibraryScanner.ReadTask read)
            throws EngineException {
        try {
            return read.read();
        } catch (EngineException e) {
            if (!(e.getCause() instanceof BinaryFormatException format)) {
                throw e;
            }
            try {
                unreadable.add(DeviceCodeProbe.Unreadable.of(format), e.getMessage(), e);
            } catch (CheckProblem problem) {
                throw new EngineException(problem.getMessage(), problem);
            }
            return Optional.empty();
        }
    }

    /** Reads one more file (found through the library log) with the file engine. */
    static List<LibraryScan> readFile(Engines engines, DeviceCodeProbe file, CheckProgress listener)
            throws CheckProblem {
        try {
            KernelEngine engine = engines.files();
            listener.info("Reading 1 file(s) with device code using " + engine.description());
            CachedReads reads = engines.reads();
            return new LibraryScanner(engine, 1).run(List.of(() -> Optional.of(reads.readFile(engine, file))),
                    (scan, done, total) -> progress(listener, scan, done, total, reads.hit(scan)));
        } catch (EngineException e) {
            throw new CheckProblem(e.getMessage(), e);
        }
    }

    private static LibraryScan.JarEntry jarEntry(JarEntryLibrary entry) {
        String name = entry.entryName();
        return new LibraryScan.JarEntry(entry.label(), name.substring(name.lastIndexOf('/') + 1));
    }

    private static void progress(CheckProgress listener, LibraryScan scan, int done, int total, boolean cached) {
        listener.info("  [" + done + "/" + total + "] " + scan.displayName() + ": " + scan.records().size()
                + " kernel records, " + scan.libraries().size() + " librar" + (scan.libraries().size() == 1 ? "y" : "ies")
                + ", " + scan.elapsedMillis() + " ms" + (cached ? " (cached)" : ""));
    }
}
