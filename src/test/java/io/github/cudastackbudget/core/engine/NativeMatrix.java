package io.github.cudastackbudget.core.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The native-reader validation matrix that {@code src/test/cuda/build-native-matrix.sh} builds into
 * {@code target/native-matrix} at {@code generate-test-resources}: every binary with its form, targets and build logs,
 * as listed in its {@code manifest.tsv}.
 */
final class NativeMatrix {

    static final Path DIR = Path.of("target", "native-matrix");

    /** The forms the build script writes (second column of the manifest). */
    static final List<String> COMPRESSION_MODES = List.of("so-default", "so-size", "so-speed", "so-none",
            "so-compress-all", "so-compress-all-speed");

    private NativeMatrix() {
    }

    /**
     * One binary of the matrix.
     *
     * @param path the path relative to {@link #DIR}
     * @param form {@code cubin}, {@code so-<mode>}, {@code so-mixed}, {@code so-debug}, {@code so-ptx-only},
     *             {@code fatbin}, {@code rdc-object}, {@code rdc-archive}, {@code rdc-linked}
     * @param sass the SASS targets it was built for, as nvcc spells them ({@code sm_100f})
     * @param ptx  the PTX targets ({@code compute_120})
     * @param logs its build logs, relative to {@link #DIR}
     */
    record Binary(String path, String form, List<String> sass, List<String> ptx, List<String> logs) {

        Path file() {
            return DIR.resolve(path);
        }

        String fileName() {
            return file().getFileName().toString();
        }

        List<BuildLog> readLogs() {
            return logs.stream().map(log -> BuildLog.read(DIR.resolve(log))).toList();
        }

        @Override
        public String toString() {
            return path;
        }
    }

    /**
     * Every binary of the manifest; fails (never skips) when the matrix was not built.
     *
     * @throws IllegalStateException naming the script to run when the manifest is missing
     */
    static List<Binary> binaries() {
        Path manifest = DIR.resolve("manifest.tsv");
        if (!Files.isRegularFile(manifest)) {
            throw new IllegalStateException(manifest.toAbsolutePath() + " is missing: the native-reader matrix is built "
                    + "by `bash src/test/cuda/build-native-matrix.sh target/native-matrix` (the build-native-matrix "
                    + "execution at generate-test-resources; it needs nvcc 13.0 on PATH)");
        }
        try {
            List<Binary> binaries = Files.readAllLines(manifest).stream()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(NativeMatrix::binary)
                    .toList();
            for (Binary binary : binaries) {
                if (!Files.isRegularFile(binary.file())) {
                    throw new IllegalStateException(binary.file().toAbsolutePath()
                            + " is listed in the manifest but missing: rebuild the matrix");
                }
            }
            return binaries;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Binary> ofForm(String form) {
        return binaries().stream().filter(binary -> binary.form().equals(form)).toList();
    }

    static Binary named(String path) {
        return binaries().stream().filter(binary -> binary.path().equals(path)).findFirst()
                .orElseThrow(() -> new IllegalStateException(path + " is not in the native-reader matrix"));
    }

    private static Binary binary(String line) {
        String[] columns = line.split("\t", -1);
        if (columns.length != 5) {
            throw new IllegalStateException("malformed manifest line (5 tab-separated columns expected): " + line);
        }
        return new Binary(columns[0], columns[1], list(columns[2]), list(columns[3]), list(columns[4]));
    }

    private static List<String> list(String column) {
        return column.isEmpty() ? List.of() : Arrays.asList(column.split(","));
    }
}
