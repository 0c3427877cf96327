package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code usedBy} per file set (the aggregate goal's seam): the files a file set matches belong to its owner (a
 * reactor module), files of a file set without one to the check's own {@code usedBy}; the "used by" of every report
 * says so. Real nvcc-built libraries, the native reader.
 */
class FileSetOwnersCheckTest {

    private static final List<String> LIBRARIES = FileSetSpec.DEFAULT_INCLUDES;

    @TempDir
    Path tmp;

    private Path module(String name, String library) throws Exception {
        Path target = Files.createDirectories(tmp.resolve(name).resolve("target/native"));
        Files.copy(RecordedCuobjdump.testCuda(library), target.resolve(library));
        return tmp.resolve(name).resolve("target");
    }

    private CheckRunner.Outcome run(List<FileSetSpec> fileSets) throws CheckException {
        return CheckRunner.run(CheckOptions.builder().fileSets(fileSets).usedBy("com.example:root:1.0")
                .engine("native").devicePresets("h200-141gb").detectLocalDevices(false).useCache(false)
                .timeout(Duration.ofSeconds(60)).environment(Map.of("PATH", "")).outputDirectory(tmp.resolve("out"))
                .build(), new CheckListener() {
                    @Override
                    public void info(String line) {
                    }

                    @Override
                    public void warn(String line) {
                    }
                });
    }

    @Test
    void eachFileSetsFilesBelongToItsOwnerAndTheRestToTheChecksUsedBy() throws Exception {
        Path kernels = module("kernels", "libframes.so");
        Path mixed = module("mixed", "libmixedptx.so");
        Path plain = module("plain", "libframes_debug.so");

        CheckRunner.Outcome outcome = run(List.of(
                new FileSetSpec(kernels, LIBRARIES, List.of(), "com.example:kernels:1.0"),
                new FileSetSpec(mixed, LIBRARIES, List.of(), "com.example:mixed:1.0"),
                new FileSetSpec(plain, LIBRARIES, List.of())));

        assertThat(outcome.result().scans()).extracting(scan -> scan.path().getFileName().toString(),
                LibraryScan::usedBy).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("libframes.so", "com.example:kernels:1.0"),
                        org.assertj.core.groups.Tuple.tuple("libmixedptx.so", "com.example:mixed:1.0"),
                        org.assertj.core.groups.Tuple.tuple("libframes_debug.so", "com.example:root:1.0"));
        ReportModel written = ReportModel.read(tmp.resolve("out").resolve(CheckRunner.JSON_REPORT));
        assertThat(written.libraries()).extracting(LibraryReport::library, LibraryReport::usedBy).containsExactly(
                org.assertj.core.groups.Tuple.tuple("libframes.so", "com.example:kernels:1.0"),
                org.assertj.core.groups.Tuple.tuple("libmixedptx.so", "com.example:mixed:1.0"),
                org.assertj.core.groups.Tuple.tuple("libframes_debug.so", "com.example:root:1.0"));
    }

    @Test
    void aFileTwoFileSetsMatchBelongsToTheFirst() throws Exception {
        Path kernels = module("kernels", "libframes.so");

        CheckRunner.Outcome outcome = run(List.of(
                new FileSetSpec(kernels, LIBRARIES, List.of(), "com.example:kernels:1.0"),
                new FileSetSpec(kernels.getParent(), LIBRARIES, List.of(), "com.example:parent:1.0")));

        assertThat(outcome.result().scans()).extracting(LibraryScan::usedBy)
                .containsExactly("com.example:kernels:1.0");
    }
}
