package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.BinaryKind;
import io.github.cudastackbudget.core.binary.ByteRegion;
import io.github.cudastackbudget.core.binary.CubinReader;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.binary.PeFile;
import io.github.cudastackbudget.core.binary.Platforms;
import io.github.cudastackbudget.core.exec.Executables;
import io.github.cudastackbudget.core.exec.ToolRun;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import io.github.cudastackbudget.core.text.Printable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs {@code cuobjdump --dump-resource-usage FILE} (through commons-exec, with a timeout) and parses its standard
 * output as it streams. The figures come only from that invocation; {@code cuobjdump --version} is run once to
 * describe the tool.
 *
 * <p>A Windows PE image ({@code .dll}): cuobjdump on Linux says it "does not contain device code" (cuobjdump 13.0,
 * recorded), although it reads the image's {@code .nv_fatb} section as a {@code .fatbin} file. So the engine copies
 * the bytes of every {@code .nv_fatb} section, in section order, to a temporary {@code .fatbin} file, runs cuobjdump on
 * that and deletes it; records are labelled with the DLL's file name.
 */
public final class CuobjdumpEngine implements KernelEngine {

    /** The engine id. */
    public static final String ID = "cuobjdump";

    private final Path executable;
    private final Duration timeout;
    private static final int MAX_VERSION_LINES = 50;
    private final String version;
    private final Frontend frontend;
    private final Path temporaryDirectory;

    /** The folder of the output directory where a DLL's device code is copied for cuobjdump while it is read. */
    public static final String TEMPORARY_FOLDER = "tmp";

    private CuobjdumpEngine(Path executable, Duration timeout, String version, Frontend frontend,
            Path temporaryDirectory) {
        this.executable = executable;
        this.timeout = timeout;
        this.version = version;
        this.frontend = frontend;
        this.temporaryDirectory = temporaryDirectory;
    }

    /**
     * Prepares the engine (as {@link #using(Path, Duration, Frontend)}) with the folder where the {@code .nv_fatb}
     * sections of a DLL are copied to a {@code .fatbin} for cuobjdump while it reads them: created when needed, each
     * copy deleted after its read and the folder too once it is empty (the check passes
     * {@code <outputDirectory>/}{@value #TEMPORARY_FOLDER}, so nothing is written outside the output directory).
     *
     * @param temporaryDirectory the folder, or null for the system's temporary directory
     */
    public static CuobjdumpEngine using(Path executable, Duration timeout, Frontend frontend,
            Path temporaryDirectory) throws EngineException {
        CuobjdumpEngine engine = using(executable, timeout, frontend);
        return new CuobjdumpEngine(engine.executable, engine.timeout, engine.version, engine.frontend,
                temporaryDirectory);
    }

    /**
     * Prepares the engine for an executable (checks that it runs: {@code cuobjdump --version}).
     *
     * @param frontend how the engine's messages name the options
     * @throws EngineException when it does not exist or does not run
     */
    public static CuobjdumpEngine using(Path executable, Duration timeout, Frontend frontend) throws EngineException {
        Objects.requireNonNull(frontend, "frontend");
        if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
            throw new EngineException("cuobjdump '" + executable + "' is not an executable file: point it at the "
                    + "cuobjdump of a CUDA toolkit, e.g. "
                    + frontend.howToSet(Option.CUOBJDUMP, "/usr/local/cuda/bin/cuobjdump"));
        }
        List<String> lines = new ArrayList<>();
        // the configured limit holds for --version too; the first lines are all a version text has
        ToolRun run = ToolRun.run(executable, List.of("--version"), null, timeout, line -> {
            if (lines.size() < MAX_VERSION_LINES) {
                lines.add(line);
            }
        });
        if (run.timedOut()) {
            throw new EngineException("cuobjdump '" + executable + "' did not answer --version within "
                    + timeout.toSeconds() + " s: check that it is a working cuobjdump, or raise the limit ("
                    + frontend.howToSet(Option.TIMEOUT, Long.toString(Math.max(60, 2 * timeout.toSeconds()))) + ")");
        }
        if (run.refused() != null) {
            throw new EngineException("cuobjdump '" + executable + "' " + run.refused() + " for --version and was "
                    + "stopped: point it at the cuobjdump of a CUDA toolkit, e.g. "
                    + frontend.howToSet(Option.CUOBJDUMP, "/usr/local/cuda/bin/cuobjdump"));
        }
        if (run.failure() != null || run.exitCode() != 0) {
            throw new EngineException("cuobjdump '" + executable + "' failed on --version ("
                    + (run.failure() != null ? run.failure().getMessage() : "exit " + run.exitCode()) + ")"
                    + Printable.of(run.stderrFirstLine(), 300));
        }
        if (lines.stream().noneMatch(line -> line.contains("cuobjdump") || line.contains("Cuda compilation tools"))) {
            throw new EngineException("cuobjdump '" + executable + "' printed no cuobjdump version for --version ("
                    + (lines.isEmpty() ? "nothing" : "'" + Printable.of(lines.get(0)) + "'") + "): point it at "
                    + "the cuobjdump of a CUDA toolkit, e.g. "
                    + frontend.howToSet(Option.CUOBJDUMP, "/usr/local/cuda/bin/cuobjdump"));
        }
        String version = lines.stream().filter(line -> line.contains("release") || line.contains("V1"))
                .reduce((first, second) -> second).map(String::strip).orElse("version unknown");
        return new CuobjdumpEngine(executable, timeout, version, frontend, null);
    }

    /**
     * Finds cuobjdump: the {@code PATH}, then {@code $CUDA_HOME/bin}, {@code $CUDA_PATH/bin}, {@code /usr/local/cuda/bin}.
     */
    public static Optional<Path> locate(Map<String, String> environment) {
        return Executables.find("cuobjdump", environment, Executables.cudaDirectories(environment));
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "cuobjdump (" + version + ") at " + executable;
    }

    /** The version text {@code cuobjdump --version} printed ("Cuda compilation tools, release 13.0, V13.0.88"). */
    public String version() {
        return version;
    }

    public Path executable() {
        return executable;
    }

    @Override
    public LibraryScan read(DeviceCodeProbe probe) throws EngineException {
        Path file = probe.file();
        long start = System.nanoTime();
        GpuArch cubinArch = null;
        if (probe.kind() == BinaryKind.CUBIN) {
            try {
                cubinArch = CubinReader.arch(file);
            } catch (BinaryFormatException e) {
                throw new EngineException(file + ": cannot read the cubin's ELF header: " + e.located(), e);
            } catch (IOException e) {
                throw new EngineException(file + ": cannot read the cubin's ELF header: " + e.getMessage(), e);
            }
        }
        ResourceUsageParser parser = new ResourceUsageParser(file.getFileName().toString(), cubinArch);
        Path extracted = probe.kind() == BinaryKind.PE_IMAGE ? extractFatbin(file, temporaryDirectory) : null;
        ToolRun output;
        try {
            output = ToolRun.run(executable, List.of("--dump-resource-usage",
                    (extracted != null ? extracted : file).toString()), null, timeout, parser::accept);
        } catch (ResourceUsageParser.MalformedOutputException e) {
            throw new EngineException(file + ": cuobjdump printed output this plugin cannot read (" + e.getMessage()
                    + "); report it with the cuobjdump version (" + version + ")", e);
        } finally {
            delete(extracted, temporaryDirectory);
        }
        if (output.timedOut()) {
            throw new EngineException(file + ": cuobjdump did not finish within " + timeout.toSeconds()
                    + " s; raise the limit (" + frontend.howToSet(Option.TIMEOUT, Long.toString(2 * timeout.toSeconds()))
                    + ") or check the file");
        }
        if (output.refused() != null) {
            throw new EngineException(file + ": cuobjdump " + output.refused() + " and was stopped; the figures "
                    + "cannot be trusted (report it with the cuobjdump version: " + version + ")");
        }
        if (output.failure() != null) {
            throw new EngineException(file + ": cuobjdump could not be run: " + output.failure().getMessage(),
                    output.failure());
        }
        if (output.exitCode() != 0) {
            throw new EngineException(file + ": cuobjdump failed (exit " + output.exitCode() + ")"
                    + Printable.of(output.stderrFirstLine(), 300)
                    + "; the file has device code, so the figures cannot be trusted");
        }
        String error = errorLine(output.stderr());
        if (error != null) {
            throw new EngineException(file + ": cuobjdump exited 0 but reported an error ('" + Printable.of(error, 300)
                    + "'); the figures cannot be trusted");
        }
        try {
            parser.finish();
        } catch (ResourceUsageParser.MalformedOutputException e) {
            throw new EngineException(file + ": cuobjdump printed output this plugin cannot read (" + e.getMessage()
                    + "); report it with the cuobjdump version (" + version + ")", e);
        }
        if (parser.sections() == 0) {
            throw new EngineException(file + ": cuobjdump described no device code although the file has "
                    + probe.detail() + (output.stderr().isBlank() ? "" : Printable.of(output.stderrFirstLine().substring(1), 300))
                    + "; the figures cannot be trusted");
        }
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        String platform;
        try {
            platform = Platforms.of(file);
        } catch (IOException e) {
            platform = LibraryScan.UNKNOWN_PLATFORM;
        }
        return new LibraryScan(file, parser.libraries(), parser.records(), parser.sassArches(), parser.ptxArches(),
                "", elapsed).withPlatform(platform);
    }

    /**
     * The {@code .nv_fatb} sections of a PE image, in section order, copied to a temporary {@code .fatbin} file in
     * {@code directory} (created when needed; null: the system's temporary directory); the caller deletes it
     * ({@link #delete}): cuobjdump on Linux does not look inside PE images.
     */
    static Path extractFatbin(Path file, Path directory) throws EngineException {
        Path extracted = null;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            PeFile pe = PeFile.read(ByteRegion.read(file.toString(), channel));
            List<PeFile.Section> sections = pe.fatbinSections();
            if (sections.isEmpty()) {
                throw new EngineException(file + ": the PE image has no " + PeFile.NV_FATBIN + " section, so it holds "
                        + "no CUDA device code");
            }
            extracted = createTemporary(directory);
            try (FileChannel out = FileChannel.open(extracted, StandardOpenOption.WRITE)) {
                for (PeFile.Section section : sections) {
                    long size = section.fileSize();
                    if (!pe.region().contains(section.rawOffset(), size)) {
                        pe.contents(section, file.toString()); // throws the reader's message
                    }
                    long done = 0;
                    while (done < size) {
                        long moved = channel.transferTo(section.rawOffset() + done, size - done, out);
                        if (moved <= 0) {
                            // the file shrank since its section table was read: never loop on it
                            throw new IOException("the file ended at byte " + (section.rawOffset() + done)
                                    + " while its section was copied (was it changed during the build?)");
                        }
                        done += moved;
                    }
                }
            }
            return extracted;
        } catch (BinaryFormatException e) {
            delete(extracted, directory);
            throw new EngineException(e.getMessage() + "; cuobjdump reads only the .nv_fatb section of a PE image, "
                    + "which could not be located", e);
        } catch (IOException e) {
            delete(extracted, directory);
            throw new EngineException(file + ": cannot copy the " + PeFile.NV_FATBIN + " section to a temporary "
                    + ".fatbin file for cuobjdump" + (directory == null ? "" : " in " + directory) + ": "
                    + e.getMessage(), e);
        } catch (EngineException e) {
            delete(extracted, directory);
            throw e;
        }
    }

    /** The first line of standard error that reports an error or a fatal condition, else null. */
    static String errorLine(String stderr) {
        if (stderr == null) {
            return null;
        }
        for (String line : stderr.split("\n")) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.contains("fatal") || lower.contains("error")) {
                return line.strip();
            }
        }
        return null;
    }

    /**
     * A new empty {@code .fatbin} file in {@code directory}, created with its parents; a few tries where another read
     * deletes the emptied folder at the same moment.
     */
    private static Path createTemporary(Path directory) throws IOException {
        if (directory == null) {
            return Files.createTempFile("cuda-stack-budget-", ".fatbin");
        }
        for (int attempt = 1; ; attempt++) {
            Files.createDirectories(directory);
            try {
                return Files.createTempFile(directory, "cuda-stack-budget-", ".fatbin");
            } catch (NoSuchFileException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /** Deletes a temporary copy, and its folder when that is now empty (another read may still use it). */
    static void delete(Path extracted, Path directory) {
        if (extracted == null) {
            return;
        }
        try {
            Files.deleteIfExists(extracted);
        } catch (IOException ignored) {
            extracted.toFile().deleteOnExit();
        }
        if (directory != null) {
            try {
                Files.deleteIfExists(directory);
            } catch (DirectoryNotEmptyException ignored) {
                // another read's copy is still there: the last one deletes the folder
            } catch (IOException ignored) {
                directory.toFile().deleteOnExit();
            }
        }
    }
}
