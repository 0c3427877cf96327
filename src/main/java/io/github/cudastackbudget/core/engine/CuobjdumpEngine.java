package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.scan.BinaryKind;
import io.github.cudastackbudget.core.scan.CubinArchReader;
import io.github.cudastackbudget.core.scan.DeviceCodeProbe;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.LogOutputStream;
import org.apache.commons.exec.PumpStreamHandler;

/**
 * Runs {@code cuobjdump --dump-resource-usage FILE} (through commons-exec, with a timeout) and parses its standard
 * output as it streams. The figures come only from that invocation; {@code cuobjdump --version} is run once to
 * describe the tool.
 */
public final class CuobjdumpEngine implements KernelEngine {

    /** The engine id. */
    public static final String ID = "cuobjdump";

    private static final int MAX_STDERR = 64 * 1024;

    private final Path executable;
    private final Duration timeout;
    private final String version;

    private CuobjdumpEngine(Path executable, Duration timeout, String version) {
        this.executable = executable;
        this.timeout = timeout;
        this.version = version;
    }

    /**
     * Prepares the engine for an executable (checks that it runs: {@code cuobjdump --version}).
     *
     * @throws EngineException when it does not exist or does not run
     */
    public static CuobjdumpEngine using(Path executable, Duration timeout) throws EngineException {
        if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
            throw new EngineException("cuobjdump '" + executable + "' is not an executable file: set "
                    + "cudaStackBudget.cuobjdump to the cuobjdump of a CUDA toolkit (e.g. /usr/local/cuda/bin/cuobjdump)");
        }
        Output output = run(executable, List.of("--version"), Duration.ofSeconds(30), null);
        if (output.exitCode != 0) {
            throw new EngineException("cuobjdump '" + executable + "' failed on --version (exit " + output.exitCode
                    + ")" + firstLine(output.stderr));
        }
        String version = output.stdoutLines.stream().filter(line -> line.contains("release") || line.contains("V1"))
                .reduce((first, second) -> second).map(String::strip).orElse("version unknown");
        return new CuobjdumpEngine(executable, timeout, version);
    }

    /**
     * Finds cuobjdump: the {@code PATH}, then {@code $CUDA_HOME/bin}, {@code $CUDA_PATH/bin}, {@code /usr/local/cuda/bin}.
     */
    public static Optional<Path> locate(Map<String, String> environment) {
        List<Path> candidates = new ArrayList<>();
        String path = environment.get("PATH");
        if (path != null) {
            for (String directory : path.split(File.pathSeparator)) {
                if (!directory.isEmpty()) {
                    candidates.add(Path.of(directory, "cuobjdump"));
                }
            }
        }
        for (String variable : List.of("CUDA_HOME", "CUDA_PATH")) {
            String home = environment.get(variable);
            if (home != null && !home.isBlank()) {
                candidates.add(Path.of(home, "bin", "cuobjdump"));
            }
        }
        candidates.add(Path.of("/usr/local/cuda/bin/cuobjdump"));
        return candidates.stream().filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                .findFirst();
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "cuobjdump (" + version + ") at " + executable;
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
                cubinArch = CubinArchReader.read(file);
            } catch (IOException e) {
                throw new EngineException(file + ": cannot read the cubin's ELF header: " + e.getMessage(), e);
            }
        }
        ResourceUsageParser parser = new ResourceUsageParser(file.getFileName().toString(), cubinArch);
        Output output;
        try {
            output = run(executable, List.of("--dump-resource-usage", file.toString()), timeout, parser);
        } catch (ResourceUsageParser.MalformedOutputException e) {
            throw new EngineException(file + ": cuobjdump printed output this plugin cannot read (" + e.getMessage()
                    + "); report it with the cuobjdump version (" + version + ")", e);
        }
        if (output.timedOut) {
            throw new EngineException(file + ": cuobjdump did not finish within " + timeout.toSeconds()
                    + " s; raise cudaStackBudget.timeout or check the file");
        }
        if (output.failure != null) {
            throw new EngineException(file + ": cuobjdump could not be run: " + output.failure.getMessage(),
                    output.failure);
        }
        if (output.exitCode != 0) {
            throw new EngineException(file + ": cuobjdump failed (exit " + output.exitCode + ")"
                    + firstLine(output.stderr) + "; the file has device code, so the figures cannot be trusted");
        }
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        return new LibraryScan(file, parser.libraries(), parser.records(), parser.sassArches(), parser.ptxArches(),
                "", elapsed);
    }

    private static String firstLine(String text) {
        String trimmed = text == null ? "" : text.strip();
        if (trimmed.isEmpty()) {
            return "";
        }
        int newline = trimmed.indexOf('\n');
        return ": " + (newline < 0 ? trimmed : trimmed.substring(0, newline).strip());
    }

    /** Runs the tool; stdout goes line by line to the parser when one is given, else into a list. */
    private static Output run(Path executable, List<String> arguments, Duration timeout, ResourceUsageParser parser) {
        CommandLine command = new CommandLine(executable.toFile());
        arguments.forEach(argument -> command.addArgument(argument, false));
        List<String> lines = new ArrayList<>();
        RuntimeException[] parseFailure = new RuntimeException[1];
        OutputStream stdout = new LogOutputStream(0, StandardCharsets.UTF_8) {
            @Override
            protected void processLine(String line, int level) {
                if (parseFailure[0] != null) {
                    return;
                }
                if (parser == null) {
                    lines.add(line);
                    return;
                }
                try {
                    parser.accept(line);
                } catch (RuntimeException e) {
                    parseFailure[0] = e;
                }
            }
        };
        BoundedBuffer stderr = new BoundedBuffer(MAX_STDERR);
        ExecuteWatchdog watchdog = ExecuteWatchdog.builder().setTimeout(timeout).get();
        DefaultExecutor executor = DefaultExecutor.builder().get();
        executor.setStreamHandler(new PumpStreamHandler(stdout, stderr));
        executor.setWatchdog(watchdog);
        executor.setExitValues(null);
        int exitCode;
        IOException failure = null;
        try {
            exitCode = executor.execute(command);
        } catch (ExecuteException e) {
            exitCode = e.getExitValue();
        } catch (IOException e) {
            exitCode = -1;
            failure = e;
        }
        try {
            stdout.close();
        } catch (IOException ignored) {
            // nothing buffered can be lost: LogOutputStream flushes the last line on close
        }
        if (parseFailure[0] != null) {
            throw parseFailure[0];
        }
        return new Output(exitCode, lines, stderr.text(), watchdog.killedProcess(), failure);
    }

    private record Output(int exitCode, List<String> stdoutLines, String stderr, boolean timedOut, IOException failure) {
    }

    /** Keeps the first bytes of a stream and drops the rest, so a chatty tool cannot exhaust memory. */
    private static final class BoundedBuffer extends ByteArrayOutputStream {
        private final int limit;

        BoundedBuffer(int limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            int room = Math.max(0, limit - count);
            super.write(bytes, offset, Math.min(room, length));
        }

        @Override
        public synchronized void write(int value) {
            if (count < limit) {
                super.write(value);
            }
        }

        String text() {
            return toString(StandardCharsets.UTF_8);
        }
    }
}
