package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.exec.Executables;
import io.github.cudastackbudget.core.exec.ToolRun;
import io.github.cudastackbudget.core.text.Printable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NVIDIA's PTX assembler as a frame calculator: {@code ptxas -arch=sm_XX -v -o OUT module.ptx}, run through
 * {@link ToolRun} (no shell, a timeout), its {@code -v} lines read by {@link PtxasOutput}.
 *
 * @param executable the ptxas executable
 * @param version    its version as {@code --version} prints it ({@code 13.0.88})
 * @param release    its CUDA release ({@code 13.0})
 */
public record Ptxas(Path executable, String version, String release) {

    private static final Pattern VERSION = Pattern.compile(".*release (\\d+\\.\\d+), V(\\d+\\.\\d+\\.\\d+).*");

    /** Why ptxas cannot be used: one line for the user. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message) {
            super(message);
        }
    }

    /**
     * The configured executable, else the first {@code ptxas} on the PATH, in {@code $CUDA_HOME/bin},
     * {@code $CUDA_PATH/bin}, {@code /usr/local/cuda/bin}; empty when none is found (a configured one that is no
     * executable file is an {@link Unavailable}).
     */
    public static Optional<Path> locate(String configured, Map<String, String> environment) throws Unavailable {
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured.strip());
            if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                throw new Unavailable("ptxas '" + configured + "' is not an executable file");
            }
            return Optional.of(path);
        }
        String name = System.getProperty("os.name", "").startsWith("Windows") ? "ptxas.exe" : "ptxas";
        return Executables.find(name, environment, Executables.cudaDirectories(environment));
    }

    /** Runs {@code ptxas --version} and reads its release and version. */
    public static Ptxas of(Path executable, Duration timeout) throws Unavailable {
        List<String> lines = new ArrayList<>();
        ToolRun run = ToolRun.run(executable, List.of("--version"), null, timeout, lines::add);
        if (run.failure() != null || run.timedOut() || run.exitCode() != 0) {
            throw new Unavailable("ptxas " + executable + " --version failed ("
                    + (run.failure() != null ? Printable.of(String.valueOf(run.failure().getMessage()), 200)
                            : run.timedOut() ? "timed out" : "exit status " + run.exitCode() + run.stderrFirstLine())
                    + ")");
        }
        for (String line : lines) {
            Matcher match = VERSION.matcher(line);
            if (match.matches()) {
                return new Ptxas(executable, match.group(2), match.group(1));
            }
        }
        throw new Unavailable("ptxas " + executable + " --version printed no 'release N.N, VN.N.N' line: is it NVIDIA's "
                + "ptxas?");
    }

    /**
     * What one compilation gave.
     *
     * @param functions the kernels and their frames (empty on failure)
     * @param failure   why it failed (one line), else null
     */
    public record Result(List<PtxasOutput.Function> functions, String failure) {
        public Result {
            functions = List.copyOf(functions);
        }
    }

    /**
     * Compiles one PTX module for {@code target} ({@code sm_120}, {@code sm_90a}) and reads the kernels' frames.
     *
     * @param ptx    the module's text as a file
     * @param output where the cubin goes (overwritten; the caller deletes it)
     */
    public Result compile(Path ptx, String target, Path output, Duration timeout) {
        PtxasOutput parsed = new PtxasOutput();
        ToolRun run = ToolRun.runWithStderrLines(executable, List.of("-arch=" + target, "-v", "-o", output.toString(),
                ptx.toString()), timeout, parsed::accept, parsed::accept);
        if (run.failure() != null) {
            return new Result(List.of(), "ptxas could not be started: "
                    + Printable.of(String.valueOf(run.failure().getMessage()), 200));
        }
        if (run.timedOut()) {
            return new Result(List.of(), "ptxas ran longer than the timeout of " + timeout.toSeconds() + " s");
        }
        if (run.refused() != null) {
            return new Result(List.of(), "ptxas " + run.refused());
        }
        if (run.exitCode() != 0) {
            String why = parsed.errors().isEmpty() ? "exit status " + run.exitCode() + run.stderrFirstLine()
                    : "exit status " + run.exitCode() + ": " + Printable.of(parsed.errors().get(0), 300);
            return new Result(List.of(), "ptxas failed (" + why + ")");
        }
        try {
            return new Result(parsed.functions(), null);
        } catch (IllegalStateException e) {
            return new Result(List.of(), e.getMessage());
        }
    }

    /** {@code ptxas 13.0.88}. */
    public String description() {
        return "ptxas " + version;
    }
}
