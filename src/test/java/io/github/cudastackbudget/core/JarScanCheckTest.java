package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Native libraries inside JARs, read in place by the native reader, through the whole check. */
class JarScanCheckTest {

    @TempDir
    Path tmp;

    private Path jar(String name, Map<String, Path> entries, boolean stored) throws IOException {
        Path jar = tmp.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(file)) {
            for (Map.Entry<String, Path> entry : entries.entrySet()) {
                byte[] bytes = Files.readAllBytes(entry.getValue());
                ZipEntry zipEntry = new ZipEntry(entry.getKey());
                if (stored) {
                    zipEntry.setMethod(ZipEntry.STORED);
                    zipEntry.setSize(bytes.length);
                    CRC32 crc = new CRC32();
                    crc.update(bytes);
                    zipEntry.setCrc(crc.getValue());
                }
                zip.putNextEntry(zipEntry);
                zip.write(bytes);
                zip.closeEntry();
            }
        }
        return jar;
    }

    private CheckOptions options(List<FileSetSpec> fileSets, JarScanOptions jars, String engine) {
        return new CheckOptions(fileSets, List.of(), "com.example:app:1.0", engine, tmp.resolve("no-cuobjdump").toString(),
                Duration.ofSeconds(60), 2, List.of(), "h200-141gb,a100-sxm4-80gb", false, null, null,
                tmp.resolve("out"), 25, false, Map.of("PATH", ""), jars);
    }

    @Test
    void librariesInsideJarsAreReadInPlaceAndAttributedToTheirJar() throws Exception {
        Path notElf = Files.writeString(tmp.resolve("fake.so"), "not a library\n");
        Path app = jar("app-1.0.jar", new java.util.TreeMap<>(Map.of(
                "native/linux-x86_64/libframes.so", RecordedCuobjdump.testCuda("libframes.so"),
                "native/linux-x86_64/libhostonly.so", RecordedCuobjdump.testCuda("libhostonly.so"),
                "native/linux-x86_64/libfake.so", notElf)), true);
        Path dependency = jar("gpu-kernels-2.0.jar", Map.of("lib/libmixedptx.so",
                RecordedCuobjdump.testCuda("libmixedptx.so")), false);
        List<String> lines = new ArrayList<>();
        CheckListener listener = new CheckListener() {
            @Override
            public void info(String line) {
                lines.add(line);
            }

            @Override
            public void warn(String line) {
                lines.add("WARN " + line);
            }
        };

        CheckRunner.Outcome outcome = CheckRunner.run(options(List.of(), new JarScanOptions(List.of(
                new JarInput(app, "com.example:app:1.0"), new JarInput(dependency, "com.example:gpu-kernels:2.0")),
                List.of(), List.of()), "cuobjdump"), listener);

        assertThat(outcome.result().filesProbed()).isEqualTo(4);
        assertThat(outcome.result().scans()).extracting(LibraryScan::libraries).containsExactly(
                List.of("app-1.0.jar!/native/linux-x86_64/libframes.so"),
                List.of("gpu-kernels-2.0.jar!/lib/libmixedptx.so"));
        assertThat(outcome.result().scans()).extracting(LibraryScan::usedBy)
                .containsExactly("com.example:app:1.0", "com.example:gpu-kernels:2.0");
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.worst().library()).isEqualTo("app-1.0.jar!/native/linux-x86_64/libframes.so");
        assertThat(h200.worst().stack()).isEqualTo(10_200);
        assertThat(h200.jit()).extracting(choice -> choice.function().library())
                .containsOnly("gpu-kernels-2.0.jar!/lib/libmixedptx.so");
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("Reading 4 library entries of 2 JAR(s) in place"));
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("  [").contains("app-1.0.jar!/native/linux-x86_64/libframes.so: 15 kernel records"));
        String json = Files.readString(tmp.resolve("out").resolve("cuda-stack-budget.json"));
        assertThat(json).contains("\"app-1.0.jar!/native/linux-x86_64/libframes.so\"");
    }

    @Test
    void aJarEntryWithTheBytesOfAScannedFileIsScannedOnceAsTheFile() throws Exception {
        Path classes = Files.createDirectories(tmp.resolve("target/classes/native"));
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), classes.resolve("libframes.so"));
        Path jar = jar("app-1.0.jar", new java.util.TreeMap<>(Map.of(
                "native/libframes.so", RecordedCuobjdump.testCuda("libframes.so"),
                "native/libmixedptx.so", RecordedCuobjdump.testCuda("libmixedptx.so"))), true);
        List<String> lines = new ArrayList<>();
        CheckListener listener = new CheckListener() {
            @Override
            public void info(String line) {
                lines.add(line);
            }

            @Override
            public void warn(String line) {
                lines.add("WARN " + line);
            }
        };

        CheckRunner.Outcome outcome = CheckRunner.run(options(
                List.of(new FileSetSpec(tmp.resolve("target"), FileSetSpec.DEFAULT_INCLUDES, List.of())),
                new JarScanOptions(List.of(new JarInput(jar, "com.example:app:1.0")), List.of(), List.of()), "native"),
                listener);

        assertThat(outcome.result().scans()).extracting(scan -> scan.libraries().get(0))
                .containsExactly("libframes.so", "app-1.0.jar!/native/libmixedptx.so");
        assertThat(lines).contains("  app-1.0.jar!/native/libframes.so: the same bytes as "
                + classes.resolve("libframes.so").toAbsolutePath().normalize() + ", which is scanned as a file");
    }

    @Test
    void aJarWithoutDeviceCodeIsNothingToCheck() throws Exception {
        Path jar = jar("plain.jar", Map.of("lib/libhostonly.so", RecordedCuobjdump.testCuda("libhostonly.so")), false);

        CheckRunner.Outcome outcome = CheckRunner.run(options(List.of(),
                new JarScanOptions(List.of(new JarInput(jar, "")), List.of(), List.of()), "auto"), CheckListener.SILENT);

        assertThat(outcome.result().noKernels()).isTrue();
        assertThat(outcome.summary().get(0)).isEqualTo("No CUDA kernels found in 1 scanned file(s): nothing to check.");
    }

    @Test
    void aJarThatDisappearsBeforeItsEntryIsReadIsOneClearError() throws Exception {
        Path jar = jar("gone-1.0.jar", Map.of("lib/libframes.so", RecordedCuobjdump.testCuda("libframes.so")), false);
        var entry = io.github.cudastackbudget.core.scan.JarLibraryFinder.find(new JarInput(jar, ""), List.of(),
                List.of()).get(0);
        Files.delete(jar);

        assertThatThrownBy(() -> io.github.cudastackbudget.core.engine.JarEntryReads.read(entry,
                new io.github.cudastackbudget.core.engine.NativeEngine(1)))
                .isInstanceOf(io.github.cudastackbudget.core.engine.EngineException.class)
                .hasMessageStartingWith(jar.toAbsolutePath().normalize() + "!/lib/libframes.so: cannot be read")
                .hasMessageContaining("check that the JAR is complete").hasMessageNotContaining("\n");
    }

    @Test
    void aMissingJarIsOneClearError() {
        Path missing = tmp.resolve("app-1.0.jar");

        assertThatThrownBy(() -> CheckRunner.run(options(List.of(), new JarScanOptions(List.of(
                new JarInput(missing, "com.example:app:1.0")), List.of(), List.of()), "auto"), CheckListener.SILENT))
                .isInstanceOf(CheckException.class).hasMessageContaining(missing.toString())
                .hasMessageNotContaining("\n");
    }
}
