package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.binary.BinaryKind;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cuobjdump engine on a Windows DLL. The stand-in replays what the REAL cuobjdump 13.0 printed on the GPU machine
 * (src/test/resources/recorded): for a PE image "does not contain device code" (exit 255), for a {@code .fatbin}
 * whose bytes are the real frames.fatbin its recorded text. So the engine is right only if it hands cuobjdump the
 * DLL's {@code .nv_fatb} bytes as a {@code .fatbin} file, and the records are labelled with the DLL's name.
 */
class CuobjdumpEngineDllTest {

    private static final Path RECORDED = Path.of("src", "test", "resources", "recorded").toAbsolutePath();

    @TempDir
    Path tmp;

    /** A PE32+ image (DOS header, PE signature, COFF, optional header, 2 sections) around {@code fatbin}. */
    static byte[] dll(byte[] fatbin) {
        int table = 0x80 + 24 + 240;
        int raw = 0x200;
        int textSize = 0x200;
        int fatbinRaw = (fatbin.length + 0x1FF) / 0x200 * 0x200;
        ByteBuffer image = ByteBuffer.allocate(raw + textSize + fatbinRaw).order(ByteOrder.LITTLE_ENDIAN);
        image.putShort(0, (short) 0x5A4D).putInt(0x3C, 0x80).putInt(0x80, 0x00004550);
        image.putShort(0x84, (short) 0x8664).putShort(0x86, (short) 2).putShort(0x94, (short) 240);
        image.putShort(0x98, (short) 0x20B);
        image.put(table, ".text\0\0\0".getBytes(StandardCharsets.US_ASCII)).putInt(table + 8, 16)
                .putInt(table + 16, textSize).putInt(table + 20, raw);
        image.put(table + 40, ".nv_fatb".getBytes(StandardCharsets.US_ASCII)).putInt(table + 48, fatbin.length)
                .putInt(table + 56, fatbinRaw).putInt(table + 60, raw + textSize);
        image.put(raw + textSize, fatbin);
        return image.array();
    }

    private Path replay(Path fatbin) throws Exception {
        Path refusal = RECORDED.resolve("windows/frames.dll.cuobjdump-output.txt");
        Path text = RECORDED.resolve("cuobjdump/frames.fatbin.resource-usage.txt");
        Path log = tmp.resolve("calls.log");
        return RecordedCuobjdump.executable(tmp.resolve("bin/cuobjdump"), "#!/bin/sh\n"
                + "echo \"$*\" >> '" + log + "'\n"
                + "if [ \"$1\" = --version ]; then\n"
                + "  cat <<'VERSION'\n" + RecordedCuobjdump.VERSION_TEXT + "\nVERSION\n"
                + "  exit 0\n"
                + "fi\n"
                + "if [ \"$(head -c 2 \"$2\")\" = MZ ]; then cat '" + refusal + "' >&2; exit 255; fi\n"
                + "cmp -s \"$2\" '" + fatbin + "' || { echo \"not the fatbin: $2\" >&2; exit 1; }\n"
                + "exec cat '" + text + "'\n");
    }

    @Test
    void readsTheNvFatbSectionThroughATemporaryFatbin() throws Exception {
        Path fatbin = RecordedCuobjdump.testCuda("frames.fatbin");
        Path dll = Files.write(tmp.resolve("frames.dll"), dll(Files.readAllBytes(fatbin)));
        DeviceCodeProbe probe = DeviceCodeDetector.probe(dll);
        assertThat(probe.kind()).isEqualTo(BinaryKind.PE_IMAGE);
        CuobjdumpEngine engine = CuobjdumpEngine.using(replay(fatbin), Duration.ofSeconds(60), Frontend.PARAMETERS);

        LibraryScan scan = engine.read(probe);

        ResourceUsageParser expected = ResourceUsageParser.parse("frames.dll", null, new StringReader(
                Files.readString(RECORDED.resolve("cuobjdump/frames.fatbin.resource-usage.txt"))));
        assertThat(scan.records()).isNotEmpty().isEqualTo(expected.records());
        assertThat(scan.libraries()).containsExactly("frames.dll");
        assertThat(scan.path()).isEqualTo(dll);
        List<String> calls = Files.readAllLines(tmp.resolve("calls.log"));
        assertThat(calls).hasSize(2);
        String extracted = calls.get(1).substring("--dump-resource-usage ".length());
        assertThat(extracted).endsWith(".fatbin");
        assertThat(Path.of(extracted)).as("the temporary fatbin is deleted").doesNotExist();
        // the recorded refusal the extraction avoids: cuobjdump does not read the DLL itself
        assertThat(Files.readString(RECORDED.resolve("windows/frames.dll.cuobjdump-output.txt")))
                .contains("does not contain device code");
    }

    private static java.util.Set<String> systemTemporaryCopies() throws Exception {
        try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("cuda-stack-budget-") && name.endsWith(".fatbin"))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    private java.util.Set<Path> filesUnder(Path root) throws Exception {
        try (var files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).collect(java.util.stream.Collectors.toSet());
        }
    }

    @Test
    void theTemporaryFatbinLiesInTheGivenFolderAndNothingIsLeftBehind() throws Exception {
        Path fatbin = RecordedCuobjdump.testCuda("frames.fatbin");
        Path dll = Files.write(tmp.resolve("frames.dll"), dll(Files.readAllBytes(fatbin)));
        Path folder = tmp.resolve("out").resolve(CuobjdumpEngine.TEMPORARY_FOLDER);
        CuobjdumpEngine engine = CuobjdumpEngine.using(replay(fatbin), Duration.ofSeconds(60), Frontend.PARAMETERS,
                folder);
        java.util.Set<String> before = systemTemporaryCopies();
        java.util.Set<Path> filesBefore = filesUnder(tmp);

        LibraryScan scan = engine.read(DeviceCodeDetector.probe(dll));

        assertThat(scan.records()).isNotEmpty();
        List<String> calls = Files.readAllLines(tmp.resolve("calls.log"));
        Path extracted = Path.of(calls.get(1).substring("--dump-resource-usage ".length()));
        assertThat(extracted.getParent()).isEqualTo(folder);
        assertThat(folder).as("the folder goes once its last copy is read").doesNotExist();
        assertThat(tmp.resolve("out")).isEmptyDirectory();
        assertThat(filesUnder(tmp)).as("nothing but the call log changed").isEqualTo(filesBefore);
        assertThat(systemTemporaryCopies()).as("nothing in the system's temporary directory")
                .isSubsetOf(before);
    }

    @Test
    void aFailedCopyLeavesNothingInTheFolder() throws Exception {
        Path fatbin = RecordedCuobjdump.testCuda("frames.fatbin");
        Path cut = Files.write(tmp.resolve("cut.dll"), Arrays.copyOf(dll(Files.readAllBytes(fatbin)), 0x500));
        Path folder = tmp.resolve("out").resolve(CuobjdumpEngine.TEMPORARY_FOLDER);
        CuobjdumpEngine engine = CuobjdumpEngine.using(replay(fatbin), Duration.ofSeconds(60), Frontend.PARAMETERS,
                folder);
        DeviceCodeProbe probe = new DeviceCodeProbe(cut, BinaryKind.PE_IMAGE, true, "PE32+", List.of());

        assertThatThrownBy(() -> engine.read(probe)).isInstanceOf(EngineException.class)
                .hasMessageContaining("reaches beyond the end of the 1280-byte image");
        assertThat(folder).doesNotExist();
    }

    @Test
    void theCheckCopiesADllIntoItsOutputDirectoryOnly() throws Exception {
        Path fatbin = RecordedCuobjdump.testCuda("frames.fatbin");
        Path dll = Files.write(tmp.resolve("frames.dll"), dll(Files.readAllBytes(fatbin)));
        Path cuobjdump = replay(fatbin);
        Path out = tmp.resolve("out");
        java.util.Set<String> before = systemTemporaryCopies();

        io.github.cudastackbudget.core.CheckRunner.Outcome outcome = io.github.cudastackbudget.core.CheckRunner.run(
                io.github.cudastackbudget.core.CheckOptions.builder().libraryFiles(List.of(dll)).engine("cuobjdump")
                        .cuobjdump(cuobjdump.toString()).devicePresets("h100-sxm5-80gb").detectLocalDevices(false)
                        .outputDirectory(out).environment(java.util.Map.of()).build(),
                io.github.cudastackbudget.core.CheckListener.SILENT);

        assertThat(outcome.result().scans()).singleElement()
                .satisfies(s -> assertThat(s.records()).isNotEmpty());
        List<String> calls = Files.readAllLines(tmp.resolve("calls.log"));
        assertThat(Path.of(calls.get(1).substring("--dump-resource-usage ".length())).getParent())
                .isEqualTo(out.resolve(CuobjdumpEngine.TEMPORARY_FOLDER));
        try (var left = Files.list(out)) {
            assertThat(left.map(file -> file.getFileName().toString()).sorted().toList())
                    .as("the reports only: the temporary folder is gone")
                    .containsExactly("cuda-stack-budget.html", "cuda-stack-budget.json", "cuda-stack-budget.txt");
        }
        assertThat(systemTemporaryCopies()).isSubsetOf(before);
    }

    @Test
    void aDllWhoseSectionLiesBeyondTheFileIsOneLine() throws Exception {
        Path fatbin = RecordedCuobjdump.testCuda("frames.fatbin");
        byte[] image = dll(Files.readAllBytes(fatbin));
        byte[] cut = Arrays.copyOf(image, 0x500);
        Path dll = Files.write(tmp.resolve("cut.dll"), cut);
        CuobjdumpEngine engine = CuobjdumpEngine.using(replay(fatbin), Duration.ofSeconds(60), Frontend.PARAMETERS);
        DeviceCodeProbe probe = new DeviceCodeProbe(dll, BinaryKind.PE_IMAGE, true, "PE32+", List.of());

        assertThatThrownBy(() -> engine.read(probe)).isInstanceOf(EngineException.class)
                .hasMessageStartingWith(dll + ": at offset 0x1c0: section 1 '.nv_fatb' (")
                .hasMessageEndingWith("reaches beyond the end of the 1280-byte image (truncated?); cuobjdump reads "
                        + "only the .nv_fatb section of a PE image, which could not be located");
        assertThat(Files.readAllLines(tmp.resolve("calls.log"))).containsExactly("--version");
    }
}
