package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Test support around the recordings of the REAL {@code cuobjdump --dump-resource-usage} (cuobjdump 13.0, V13.0.85,
 * recorded on a GPU machine) kept in {@code ../shared/fixtures/cuobjdump/}, and the replay scripts that stand in for
 * cuobjdump on machines without it. A replay script runs nothing of its own: it prints the recorded output of the real
 * tool for the named library, so the figures the tests see are the figures cuobjdump printed.
 */
public final class RecordedCuobjdump {

    /** The libraries recorded, by file name. */
    public static final String NCCL = "libnccl.so.2";
    public static final String NVJPEG = "libnvjpeg.36e11081.so.13";
    public static final String TORCHAUDIO = "torchaudio_prefixctc.abi3.so";
    public static final String XLA = "xla_cuda_plugin.so";
    public static final List<String> LIBRARIES = List.of(NCCL, NVJPEG, TORCHAUDIO, XLA);

    /** What the real cuobjdump 13.0 prints for {@code --version} (src/it/shared/recordings/cuobjdump-version.txt). */
    public static final String VERSION_TEXT = String.join("\n",
            "cuobjdump: NVIDIA (R) fat binary listing tool",
            "Copyright (c) 2005-2025 NVIDIA Corporation",
            "Built on Thu_Aug_14_07:26:37_PM_PDT_2025",
            "Cuda compilation tools, release 13.0, V13.0.85",
            "Build cuda_13.0.r13.0/compiler.36400806_0");

    /** The fixtures sit beside the clone (CI checks ../shared out next to it). */
    public static final Path FIXTURES = Path.of("..", "shared", "fixtures", "cuobjdump");

    /** Built by src/test/cuda/build-test-binaries.sh at generate-test-resources. */
    public static final Path TEST_CUDA = Path.of("target", "test-cuda");

    /** The file that logs every argument list a replay script was called with (one line per call). */
    public static final String CALL_LOG = "cuobjdump-calls.log";

    private RecordedCuobjdump() {
    }

    /** The gzipped recording of one library, asserting that it is there. */
    public static Path fixture(String library) {
        Path file = FIXTURES.resolve(library + ".resource-usage.txt.gz");
        assertThat(file).as("recorded cuobjdump output %s is missing: the tests expect the shared fixtures checked out "
                + "as ../shared beside the project (../shared/fixtures/cuobjdump/)", file.toAbsolutePath().normalize())
                .isRegularFile();
        return file.toAbsolutePath().normalize();
    }

    /** The recorded text of one library. */
    public static BufferedReader open(String library) {
        try {
            InputStream in = new GZIPInputStream(Files.newInputStream(fixture(library)), 1 << 16);
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** All lines of one recording. */
    public static List<String> lines(String library) {
        try (BufferedReader reader = open(library)) {
            return reader.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A real nvcc-built file from target/test-cuda, asserting that it was built. */
    public static Path testCuda(String name) {
        Path file = TEST_CUDA.resolve(name);
        assertThat(file).as("%s is built by src/test/cuda/build-test-binaries.sh (mvn generate-test-resources)",
                file.toAbsolutePath().normalize()).isRegularFile();
        return file.toAbsolutePath().normalize();
    }

    /**
     * Puts a real device-code file (the nvcc-built libframes.so) into {@code directory} under a recorded library's
     * name, so that discovery finds device code in it and {@link #replayByName} replays that library's recording.
     */
    public static Path stage(Path directory, String library) throws IOException {
        Files.createDirectories(directory);
        return Files.copy(testCuda("libframes.so"), directory.resolve(library), StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * A cuobjdump stand-in that replays the real cuobjdump's recording of {@code library} for whatever file it is
     * asked about, and the real {@code --version} text.
     */
    public static Path replayFixed(Path directory, String library) throws IOException {
        return script(directory, "cuobjdump", "recording=" + quote(fixture(library).toString()));
    }

    /**
     * A cuobjdump stand-in that replays the real cuobjdump's recording of the library with the FILE's base name
     * ({@code libnccl.so.2} -> the libnccl.so.2 recording); a file without a recording fails like cuobjdump would
     * (stderr, exit 1).
     */
    public static Path replayByName(Path directory) throws IOException {
        fixture(NCCL);
        return script(directory, "cuobjdump", "recording=" + quote(FIXTURES.toAbsolutePath().normalize().toString())
                + "/$(basename \"$2\").resource-usage.txt.gz");
    }

    private static Path script(Path directory, String name, String recordingAssignment) throws IOException {
        Path log = directory.resolve(CALL_LOG);
        String text = "#!/bin/sh\n"
                + "# Stand-in for NVIDIA cuobjdump: REPLAYS the recorded output of the REAL cuobjdump 13.0 (V13.0.85)\n"
                + "# for the named library, taken on a GPU machine (../shared/fixtures/cuobjdump/*.gz).\n"
                + "echo \"$*\" >> " + quote(log.toString()) + "\n"
                + "case \"$1\" in\n"
                + "  --version)\n"
                + "    cat <<'VERSION'\n" + VERSION_TEXT + "\nVERSION\n"
                + "    ;;\n"
                + "  --dump-resource-usage)\n"
                + "    [ $# -eq 2 ] || { echo \"replay-cuobjdump: expected --dump-resource-usage FILE, got: $*\" >&2; exit 2; }\n"
                + "    [ -f \"$2\" ] || { echo \"cuobjdump fatal   : Could not open input file '$2'\" >&2; exit 1; }\n"
                + "    " + recordingAssignment + "\n"
                + "    [ -f \"$recording\" ] || { echo \"replay-cuobjdump: no recording of real cuobjdump output for $2\" >&2; exit 1; }\n"
                + "    exec gzip -dc \"$recording\"\n"
                + "    ;;\n"
                + "  *)\n"
                + "    echo \"replay-cuobjdump: only --version and --dump-resource-usage FILE are replayed, got: $*\" >&2\n"
                + "    exit 2\n"
                + "    ;;\n"
                + "esac\n";
        return executable(directory.resolve(name), text);
    }

    /** Writes a script and makes it executable. */
    public static Path executable(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** The argument lists the replay script in {@code directory} was called with, in call order. */
    public static List<String> calls(Path directory) throws IOException {
        Path log = directory.resolve(CALL_LOG);
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
