package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.binary.NativeTestFiles;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The native engine against the cuobjdump engine on the same REAL files: the cuobjdump engine runs a replay script
 * that prints the REAL cuobjdump 13.0 output recorded for each file, so both engines' complete results are compared.
 */
class NativeEngineTest {

    @TempDir
    Path tmp;

    static Stream<String> recordedFiles() {
        return Stream.concat(NativeTestFiles.RECORDED_TEST_BINARIES.stream(),
                NativeTestFiles.RECORDED_STACK_DEMO.stream());
    }

    /** A cuobjdump stand-in that prints the recording of the file it is given (by base name). */
    private CuobjdumpEngine replayingEngine(String name) throws Exception {
        Path recording = tmp.resolve("recordings").resolve(name + ".resource-usage.txt");
        Files.createDirectories(recording.getParent());
        Files.writeString(recording, NativeTestFiles.recording(name), java.nio.charset.StandardCharsets.ISO_8859_1);
        Path script = RecordedCuobjdump.executable(tmp.resolve("bin").resolve("cuobjdump"), "#!/bin/sh\n"
                + "# replays the REAL cuobjdump 13.0 output recorded for the named file\n"
                + "if [ \"$1\" = --version ]; then\n"
                + "  cat <<'VERSION'\n" + RecordedCuobjdump.VERSION_TEXT + "\nVERSION\n"
                + "  exit 0\n"
                + "fi\n"
                + "exec cat \"" + tmp.resolve("recordings") + "/$(basename \"$2\").resource-usage.txt\"\n");
        return CuobjdumpEngine.using(script, Duration.ofSeconds(60), Frontend.PARAMETERS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordedFiles")
    void producesWhatTheCuobjdumpEngineProduces(String name) throws Exception {
        Path file = NativeTestFiles.recordedFile(name);
        DeviceCodeProbe probe = DeviceCodeDetector.probe(file);

        LibraryScan expected = replayingEngine(name).read(probe);
        LibraryScan actual = new NativeEngine(4).read(probe);

        assertThat(actual.records()).isNotEmpty().containsExactlyElementsOf(expected.records());
        assertThat(actual.libraries()).isEqualTo(expected.libraries());
        assertThat(actual.sassArches()).isEqualTo(expected.sassArches());
        assertThat(actual.ptxArches()).isEqualTo(expected.ptxArches());
        assertThat(actual.path()).isEqualTo(expected.path());
        assertThat(actual.ptxEntriesKnown()).isTrue();
        assertThat(expected.ptxEntriesKnown()).isFalse();
        assertThat(expected.ptxEntries()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordedFiles")
    void namesTheKernelsOfEveryPtxImage(String name) throws Exception {
        LibraryScan scan = new NativeEngine(2).read(NativeTestFiles.recordedFile(name));
        assertThat(scan.ptxEntries().keySet()).isEqualTo(scan.ptxArches().keySet());
        scan.ptxArches().forEach((library, arches) -> {
            assertThat(scan.ptxEntries().get(library).keySet()).isEqualTo(arches);
            for (GpuArch arch : arches) {
                // the PTX of frames.cu / stack_demo.cu defines kernels the SASS built from it lists too
                Set<String> functions = scan.records().stream()
                        .filter(record -> record.library().equals(library))
                        .map(KernelRecord::name)
                        .collect(Collectors.toCollection(TreeSet::new));
                assertThat(scan.ptxEntriesOf(library, arch)).as("%s %s", library, arch)
                        .isNotEmpty().isSubsetOf(functions).doesNotContain("_Z7recursei");
            }
        });
    }

    @Test
    void libframesPtxEntriesAreExactlyItsFiveKernels() throws Exception {
        LibraryScan scan = new NativeEngine(2).read(NativeTestFiles.testCuda("libframes.so"));
        GpuArch sm90 = GpuArch.parse("sm_90");
        SortedSet<String> sassKernels = scan.records().stream()
                .filter(record -> record.arch().equals(sm90))
                .map(KernelRecord::name).collect(Collectors.toCollection(TreeSet::new));
        assertThat(sassKernels).hasSize(5);
        assertThat(scan.ptxArchesOf("libframes.so")).containsExactly(sm90);
        assertThat(scan.ptxEntriesOf("libframes.so", sm90)).isEqualTo(sassKernels);
        assertThat(scan.ptxEntriesOf("libframes.so", GpuArch.parse("sm_80"))).isEmpty();
    }

    @Test
    void compressionDoesNotChangeAFigure() throws Exception {
        NativeEngine engine = new NativeEngine(4);
        List<KernelRecord> plain = engine.read(NativeTestFiles.testCuda("libframes_nocomp.so")).records();
        for (String variant : List.of("libframes.so", "libframes_lz4.so", "libframes_zstd.so")) {
            LibraryScan scan = engine.read(NativeTestFiles.testCuda(variant));
            assertThat(scan.records()).as(variant).hasSize(plain.size());
            for (int i = 0; i < plain.size(); i++) {
                KernelRecord expected = plain.get(i);
                assertThat(scan.records().get(i)).isEqualTo(new KernelRecord(variant, expected.arch(), expected.name(),
                        expected.registers(), expected.stack(), expected.stackUnknown(), expected.shared(),
                        expected.local()));
            }
        }
    }

    @Test
    void readsOneEntryAtATimeOrManyWithTheSameResult() throws Exception {
        Path file = NativeTestFiles.testCuda("libframes_zstd.so");
        LibraryScan one = new NativeEngine(1).read(file);
        LibraryScan many = new NativeEngine(16).read(file);
        assertThat(many.records()).isEqualTo(one.records());
        assertThat(many.ptxEntries()).isEqualTo(one.ptxEntries());
    }

    @Test
    void oneEngineReadsManyFilesAtOnceAsItReadsThemOneByOne() throws Exception {
        NativeEngine engine = new NativeEngine(3);
        List<DeviceCodeProbe> probes = new java.util.ArrayList<>();
        for (String name : NativeTestFiles.RECORDED_TEST_BINARIES) {
            probes.add(DeviceCodeDetector.probe(NativeTestFiles.testCuda(name)));
        }
        List<LibraryScan> together = new LibraryScanner(engine, 6).scan(probes, (scan, done, total) -> { });
        assertThat(together).hasSize(probes.size());
        for (int i = 0; i < probes.size(); i++) {
            LibraryScan alone = new NativeEngine(1).read(probes.get(i));
            assertThat(together.get(i).records()).isEqualTo(alone.records());
            assertThat(together.get(i).ptxEntries()).isEqualTo(alone.ptxEntries());
        }
    }

    @Test
    void readsAnArchiveHeldInMemoryUnderAJarLabel() throws Exception {
        byte[] archive = Files.readAllBytes(NativeTestFiles.testCuda("libframes.a"));
        ByteBuffer content = ByteBuffer.allocate(archive.length + 16).position(16).put(archive).position(16);
        Path jar = Path.of("target", "app.jar");

        LibraryScan scan = new NativeEngine(2).read("app.jar!/lib/libframes.a", jar, content);

        assertThat(content.position()).as("the caller's buffer is not consumed").isEqualTo(16);
        assertThat(scan.path()).isEqualTo(jar);
        assertThat(scan.libraries()).containsExactly("app.jar!/lib/libframes.a(frames.o)");
        LibraryScan fromFile = new NativeEngine(2).read(NativeTestFiles.testCuda("libframes.a"));
        assertThat(fromFile.libraries()).containsExactly("libframes.a(frames.o)");
        assertThat(scan.records()).hasSize(fromFile.records().size());
        assertThat(scan.records()).allSatisfy(record ->
                assertThat(record.library()).isEqualTo("app.jar!/lib/libframes.a(frames.o)"));
        assertThat(scan.sassArches()).containsOnlyKeys("app.jar!/lib/libframes.a(frames.o)");
        assertThat(scan.ptxEntriesOf("app.jar!/lib/libframes.a(frames.o)", GpuArch.parse("sm_90"))).hasSize(5);
    }

    @Test
    void readsASharedLibraryHeldInMemory() throws Exception {
        ByteBuffer content = ByteBuffer.wrap(Files.readAllBytes(NativeTestFiles.testCuda("libframes.so")));
        LibraryScan scan = new NativeEngine(2).read("app.jar!/lib/libframes.so", Path.of("app.jar"), content);
        LibraryScan fromFile = new NativeEngine(2).read(NativeTestFiles.testCuda("libframes.so"));
        assertThat(scan.libraries()).containsExactly("app.jar!/lib/libframes.so");
        assertThat(scan.records()).extracting(KernelRecord::name)
                .isEqualTo(fromFile.records().stream().map(KernelRecord::name).toList());
    }

    @Test
    void failsWithOneLineNamingTheFileForAHostOnlyLibrary() {
        Path file = NativeTestFiles.testCuda("libhostonly.so");
        assertThatThrownBy(() -> new NativeEngine().read(file)).isInstanceOf(EngineException.class)
                .hasMessageStartingWith(file + ": no .nv_fatbin or __nv_relfatbin section")
                .hasMessageNotContaining("\n");
    }

    @Test
    void failsForAnUnknownLayoutAndSaysWhatToDo() throws Exception {
        byte[] bytes = Files.readAllBytes(NativeTestFiles.testCuda("frames_sm90.cubin"));
        bytes[8] = 9;
        Path file = Files.write(tmp.resolve("frames_sm90.cubin"), bytes);
        assertThatThrownBy(() -> new NativeEngine().read(file)).isInstanceOf(EngineException.class)
                .hasMessage(file + ": at offset 0x8: cubin ELF ABI version 9 (known: 7 = CUDA ABI v1, 8 = CUDA ABI v2)"
                        + "; the native reader does not know this layout, so the figures cannot be trusted "
                        + "(engine=cuobjdump reads it with NVIDIA's tool)");
    }

    @Test
    void describesItself() {
        NativeEngine engine = new NativeEngine(3);
        assertThat(engine.id()).isEqualTo("native").isEqualTo(NativeEngine.ID);
        assertThat(engine.description()).isEqualTo("native reader (zstd-jni, lz4-java, 3 entries at once)");
    }

    @Test
    void theOldLibraryScanConstructorMeansPtxEntriesUnknown() {
        LibraryScan scan = new LibraryScan(Path.of("x.so"), List.of("x.so"), List.of(), Map.of(), Map.of(), "", 1);
        assertThat(scan.ptxEntriesKnown()).isFalse();
        assertThat(scan.ptxEntries()).isEmpty();
        assertThat(scan.withUsedBy("a:b").ptxEntriesKnown()).isFalse();
        LibraryScan known = new LibraryScan(Path.of("x.so"), List.of("x.so"), List.of(), Map.of(), Map.of(), "", 1,
                Map.of("x.so", Map.of(GpuArch.parse("sm_90"), new TreeSet<>(Set.of("k")))), true);
        assertThat(known.withUsedBy("a:b").ptxEntriesOf("x.so", GpuArch.parse("sm_90"))).containsExactly("k");
        assertThat(known.withUsedBy("a:b").ptxEntriesKnown()).isTrue();
    }

    @Test
    void equalNamesAreOneStringInstance() throws Exception {
        // each cubin's string table makes its own copy of a name; the scan keeps one (issue 11: the stages after the
        // read compare and hash names of hundreds of characters many times)
        LibraryScan scan = new NativeEngine(2).read(NativeTestFiles.testCuda("libjitmixed.so"));
        java.util.Map<String, String> first = new java.util.HashMap<>();
        int shared = 0;
        for (KernelRecord record : scan.records()) {
            String earlier = first.putIfAbsent(record.name(), record.name());
            if (earlier != null) {
                assertThat(record.name()).isSameAs(earlier);
                shared++;
            }
        }
        for (java.util.Map<GpuArch, java.util.SortedSet<String>> byTarget : scan.ptxEntries().values()) {
            for (java.util.SortedSet<String> entries : byTarget.values()) {
                for (String name : entries) {
                    if (first.containsKey(name)) {
                        assertThat(name).isSameAs(first.get(name));
                        shared++;
                    }
                }
            }
        }
        assertThat(shared).as("names found in more than one image").isGreaterThan(3);
    }
}
