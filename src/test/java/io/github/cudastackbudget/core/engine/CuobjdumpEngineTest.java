package io.github.cudastackbudget.core.engine;

import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NCCL;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NVJPEG;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.TORCHAUDIO;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.XLA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.binary.BinaryKind;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CuobjdumpEngineTest {

    private static final Duration GENEROUS = Duration.ofSeconds(120);

    /** A front end that spells options as Maven properties, to see that the messages take its words. */
    static final Frontend PROPERTIES = new Frontend() {
        @Override
        public String name(Option option) {
            return option.parameter();
        }

        @Override
        public String howToSet(Option option, String example) {
            return "-DcudaStackBudget." + option.parameter() + "=" + example;
        }
    };

    @TempDir
    Path tmp;

    private static DeviceCodeProbe probe(Path file) throws IOException {
        DeviceCodeProbe probe = DeviceCodeDetector.probe(file);
        assertThat(probe.hasDeviceCode()).as("%s has device code", file).isTrue();
        return probe;
    }

    private static ResourceUsageParser parseRecording(String library, String label) throws IOException {
        try (BufferedReader reader = RecordedCuobjdump.open(library)) {
            return ResourceUsageParser.parse(label, null, reader);
        }
    }

    /** A cuobjdump stand-in whose --version replays the real tool's text and whose other calls run {@code body}. */
    private Path tool(String body) throws IOException {
        return RecordedCuobjdump.executable(tmp.resolve("bin").resolve("cuobjdump"), "#!/bin/sh\n"
                + "if [ \"$1\" = --version ]; then\n"
                + "  cat <<'VERSION'\n" + RecordedCuobjdump.VERSION_TEXT + "\nVERSION\n"
                + "  exit 0\n"
                + "fi\n"
                + body + "\n");
    }

    @Nested
    class Success {

        @Test
        void readsARealDeviceCodeFileReplayingTheNcclRecording() throws Exception {
            // the replay script prints what the real cuobjdump 13.0 printed for libnccl.so.2
            Path cuobjdump = RecordedCuobjdump.replayFixed(tmp, NCCL);
            Path libframes = RecordedCuobjdump.testCuda("libframes.so");
            CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);

            LibraryScan scan = engine.read(probe(libframes));

            ResourceUsageParser expected = parseRecording(NCCL, "libframes.so");
            assertThat(expected.records()).hasSize(5312);
            assertThat(scan.records()).hasSize(expected.records().size()).isEqualTo(expected.records());
            assertThat(scan.path()).isEqualTo(libframes);
            assertThat(scan.libraries()).containsExactly("libframes.so");
            assertThat(scan.sassArchesOf("libframes.so")).extracting(GpuArch::sassLabel)
                    .containsExactly("sm_75", "sm_80", "sm_90", "sm_100", "sm_100f", "sm_110", "sm_120");
            assertThat(scan.ptxArchesOf("libframes.so")).extracting(GpuArch::sassLabel).containsExactly("sm_120");
            assertThat(scan.usedBy()).isEmpty();
            assertThat(scan.elapsedMillis()).isNotNegative();
            // the figures come from exactly one --dump-resource-usage FILE call; --version only describes the tool
            assertThat(RecordedCuobjdump.calls(tmp))
                    .containsExactly("--version", "--dump-resource-usage " + libframes);
            assertThat(engine.id()).isEqualTo("cuobjdump");
            assertThat(engine.executable()).isEqualTo(cuobjdump);
            assertThat(engine.description())
                    .isEqualTo("cuobjdump (Cuda compilation tools, release 13.0, V13.0.85) at " + cuobjdump);
        }

        @Test
        void bareCubinTakesItsArchFromTheCubinHeader() throws Exception {
            // A bare cubin prints only the part from the empty line before "Resource usage:" (no "arch =" line).
            // The replayed text is the sm_90 image of the real torchaudio_prefixctc recording cut exactly that way.
            List<String> recording = RecordedCuobjdump.lines(TORCHAUDIO);
            int arch = recording.indexOf("arch = sm_90");
            assertThat(arch).isPositive();
            int usage = recording.subList(arch, recording.size()).indexOf("Resource usage:") + arch;
            int end = usage;
            while (end < recording.size() && !recording.get(end).isEmpty()) {
                end++;
            }
            List<String> bare = new ArrayList<>(recording.subList(usage - 1, end));
            Path text = Files.write(tmp.resolve("bare.txt"), bare);
            Path cuobjdump = tool("cat '" + text + "'");
            Path cubin = RecordedCuobjdump.testCuda("frames_sm90.cubin");
            DeviceCodeProbe probe = probe(cubin);
            assertThat(probe.kind()).isEqualTo(BinaryKind.CUBIN);

            LibraryScan scan = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS).read(probe);

            assertThat(scan.records()).hasSize(18).allSatisfy(record -> {
                assertThat(record.arch()).isEqualTo(GpuArch.parse("sm_90"));
                assertThat(record.library()).isEqualTo("frames_sm90.cubin");
            });
            assertThat(scan.records()).filteredOn(r -> r.stack() == 8).singleElement()
                    .extracting(KernelRecord::name, KernelRecord::registers, KernelRecord::shared).containsExactly(
                            "_ZN6cu_ctc33first_matrix__bitonic_topk_kernelILi256ELi128EEEvNS_7LogProbEiP6float2PiS4_S4_S4_iiiiiPfi",
                            64, 1024L);
            assertThat(scan.sassArchesOf("frames_sm90.cubin")).containsExactly(GpuArch.parse("sm_90"));
        }

        @Test
        void bareCubinOfAnUnknownAbiVersionIsRefusedWithTheNativeReadersReason() throws Exception {
            // regression: the arch reader of this engine read any ABI version >= 8 as v2, the native reader refused it
            byte[] bytes = Files.readAllBytes(RecordedCuobjdump.testCuda("frames_sm90.cubin"));
            bytes[8] = 9;
            Path cubin = Files.write(tmp.resolve("frames_sm90.cubin"), bytes);
            Path cuobjdump = tool("exit 0");
            String reason = "at offset 0x8: cubin ELF ABI version 9 (known: 7 = CUDA ABI v1, 8 = CUDA ABI v2)";

            assertThatThrownBy(() -> CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS).read(probe(cubin)))
                    .isInstanceOf(EngineException.class)
                    .hasMessage(cubin + ": cannot read the cubin's ELF header: " + reason);
            assertThatThrownBy(() -> new NativeEngine(1).read(cubin)).hasMessageStartingWith(cubin + ": " + reason);
        }
    }

    @Nested
    class Failures {

        @Test
        void versionFailingNamesTheTool() throws IOException {
            Path cuobjdump = RecordedCuobjdump.executable(tmp.resolve("cuobjdump"), "#!/bin/sh\n"
                    + "echo 'cuobjdump: error while loading shared libraries: libnvrtc.so.13: cannot open shared object file' >&2\n"
                    + "echo 'second line' >&2\n"
                    + "exit 127\n");

            assertThatThrownBy(() -> CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS))
                    .isInstanceOf(EngineException.class)
                    .hasMessageContaining(cuobjdump.toString())
                    .hasMessageContaining("--version")
                    .hasMessageContaining("exit 127")
                    .hasMessageContaining("error while loading shared libraries: libnvrtc.so.13")
                    .hasMessageNotContaining("second line");
        }

        @Test
        void nonZeroExitNamesTheFileAndTheFirstStderrLine() throws Exception {
            Path cuobjdump = tool("echo 'cuobjdump fatal   : Unsupported fatbin version' >&2\n"
                    + "echo 'more detail nobody needs' >&2\nexit 255");
            Path libframes = RecordedCuobjdump.testCuda("libframes.so");
            CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);

            assertThatThrownBy(() -> engine.read(probe(libframes)))
                    .isInstanceOf(EngineException.class)
                    .hasMessageStartingWith(libframes + ": cuobjdump failed (exit 255): "
                            + "cuobjdump fatal   : Unsupported fatbin version")
                    .hasMessageNotContaining("more detail");
        }

        @Test
        void fileWithoutRecordingFailsThroughTheReplayLikeCuobjdumpWould() throws Exception {
            Path cuobjdump = RecordedCuobjdump.replayByName(tmp);
            Path other = Files.copy(RecordedCuobjdump.testCuda("libframes.so"), tmp.resolve("libunrecorded.so"));
            CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);

            assertThatThrownBy(() -> engine.read(probe(other)))
                    .isInstanceOf(EngineException.class)
                    .hasMessageContaining(other.toString())
                    .hasMessageContaining("exit 1")
                    .hasMessageContaining("no recording of real cuobjdump output for " + other);
        }

        /**
         * A tool that hangs is stopped at the timeout with a message naming the file: one that hangs itself, one that
         * printed part of its output first, and (regression: the timeout once killed only the wrapper, and the build
         * waited for the hung child) a wrapper script, as conda or module systems install, whose real tool hangs
         * (regression: on a loaded machine the wrapper printed "done" and exited 0 before the watchdog looked at it, and
         * the run was reported as "no device code"; ToolRunTest forces that order), and (regression: the line cut by
         * the kill was parsed and reported as unreadable output) one killed in the middle of a usage line.
         */
        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"exec sleep 30",
                "printf '\\nFatbin elf code:\\n================\\narch = sm_90\\n'\nexec sleep 30",
                "sleep 25\necho done",
                "printf '\\nFatbin elf code:\\n================\\narch = sm_90\\ncode version = [1,8]\\n\\nResource usage:\\n"
                        + " Function _Z3badPi:\\n  REG:8 STA'\nexec sleep 30"})
        @Timeout(value = 40, unit = TimeUnit.SECONDS)
        void hangingToolIsStoppedAtTheTimeout(String script) throws Exception {
            Path cuobjdump = tool(script);
            Path libframes = RecordedCuobjdump.testCuda("libframes.so");
            CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, Duration.ofSeconds(1), PROPERTIES);
            long start = System.nanoTime();

            assertThatThrownBy(() -> engine.read(probe(libframes)))
                    .isInstanceOf(EngineException.class)
                    .hasMessageContaining(libframes.toString())
                    .hasMessageEndingWith(": cuobjdump did not finish within 1 s; raise the limit "
                            + "(-DcudaStackBudget.timeout=2) or check the file");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }

        @Test
        // regression: an error on stderr with exit 0 and no output once passed as "no kernels"
        void errorOnStderrWithExitZeroAndNoOutputIsAnError() throws Exception {
            // seed-behaviour row 3: a cuobjdump that "prints an error on a library that does have device code is a
            // clear build error naming the library"
            Path cuobjdump = tool("echo \"cuobjdump fatal   : Could not process input file '$2'\" >&2\nexit 0");
            Path libframes = RecordedCuobjdump.testCuda("libframes.so");
            CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);

            assertThatThrownBy(() -> engine.read(probe(libframes)))
                    .isInstanceOf(EngineException.class)
                    .hasMessageContaining(libframes.toString())
                    .hasMessageContaining("Could not process input file");
        }

        @Test
        void missingExecutableGivesAClearMessage() {
            Path missing = tmp.resolve("no-such-dir").resolve("cuobjdump");

            assertThatThrownBy(() -> CuobjdumpEngine.using(missing, GENEROUS, Frontend.PARAMETERS))
                    .isInstanceOf(EngineException.class)
                    .hasMessage("cuobjdump '" + missing + "' is not an executable file: point it at the cuobjdump of a "
                            + "CUDA toolkit, e.g. cuobjdump=/usr/local/cuda/bin/cuobjdump");
            assertThatThrownBy(() -> CuobjdumpEngine.using(missing, GENEROUS, PROPERTIES))
                    .hasMessageEndingWith("e.g. -DcudaStackBudget.cuobjdump=/usr/local/cuda/bin/cuobjdump");
        }

        @Test
        void nonExecutableFileGivesTheSameMessage() throws IOException {
            Path plain = Files.writeString(tmp.resolve("cuobjdump"), "#!/bin/sh\nexit 0\n");

            assertThatThrownBy(() -> CuobjdumpEngine.using(plain, GENEROUS, PROPERTIES))
                    .isInstanceOf(EngineException.class)
                    .hasMessageContaining("is not an executable file")
                    .hasMessageContaining("-DcudaStackBudget.cuobjdump=");
        }

        @Test
        void executableThatVanishesAfterTheVersionCheckNamesTheFile() throws Exception {
            Path cuobjdump = RecordedCuobjdump.replayFixed(tmp, NCCL);
            CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);
            Files.delete(cuobjdump);
            Path libframes = RecordedCuobjdump.testCuda("libframes.so");

            assertThatThrownBy(() -> engine.read(probe(libframes)))
                    .isInstanceOf(EngineException.class)
                    .hasMessageStartingWith(libframes + ": cuobjdump could not be run");
        }

        @Test
        void garbageUsageLineNamesTheFileTheLineAndTheVersion() throws Exception {
            Path cuobjdump = tool("printf '\\nFatbin elf code:\\n================\\narch = sm_90\\ncode version = [1,8]\\n"
                    + "\\nResource usage:\\n Function _Z3badPi:\\n  REG:x STACK:1 SHARED:0 LOCAL:0 TEXTURE:0\\n'");
            Path libframes = RecordedCuobjdump.testCuda("libframes.so");
            CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);

            assertThatThrownBy(() -> engine.read(probe(libframes)))
                    .isInstanceOf(EngineException.class)
                    .hasMessageStartingWith(libframes + ": cuobjdump printed output this plugin cannot read")
                    .hasMessageContaining("line 9:")
                    .hasMessageContaining("REG:x STACK:1")
                    .hasMessageContaining("V13.0.85");
        }
    }

    @Nested
    class Locate {

        @Test
        void firstExecutableOnPathWins() throws IOException {
            Path empty = Files.createDirectories(tmp.resolve("empty"));
            Path notExecutable = Files.createDirectories(tmp.resolve("plain"));
            Files.writeString(notExecutable.resolve("cuobjdump"), "not a program");
            Path fake = RecordedCuobjdump.replayFixed(Files.createDirectories(tmp.resolve("fake")), NCCL);
            Path later = RecordedCuobjdump.replayFixed(Files.createDirectories(tmp.resolve("later")), NCCL);
            Path cudaHome = Files.createDirectories(tmp.resolve("cuda"));
            RecordedCuobjdump.replayFixed(Files.createDirectories(cudaHome.resolve("bin")), NCCL);
            String path = String.join(java.io.File.pathSeparator, "", empty.toString(), notExecutable.toString(),
                    fake.getParent().toString(), later.getParent().toString());

            assertThat(CuobjdumpEngine.locate(Map.of("PATH", path, "CUDA_HOME", cudaHome.toString()))).contains(fake);
        }

        @Test
        void cudaHomeThenCudaPath() throws IOException {
            Path cudaHome = Files.createDirectories(tmp.resolve("home"));
            Path inHome = RecordedCuobjdump.replayFixed(Files.createDirectories(cudaHome.resolve("bin")), NCCL);
            Path cudaPath = Files.createDirectories(tmp.resolve("path"));
            Path inPath = RecordedCuobjdump.replayFixed(Files.createDirectories(cudaPath.resolve("bin")), NCCL);
            Path emptyPath = Files.createDirectories(tmp.resolve("emptybin"));

            assertThat(CuobjdumpEngine.locate(Map.of("PATH", emptyPath.toString(), "CUDA_HOME", cudaHome.toString(),
                    "CUDA_PATH", cudaPath.toString()))).contains(inHome);
            assertThat(CuobjdumpEngine.locate(Map.of("PATH", emptyPath.toString(), "CUDA_PATH", cudaPath.toString())))
                    .contains(inPath);
            assertThat(CuobjdumpEngine.locate(Map.of("CUDA_HOME", "  ", "CUDA_PATH", cudaPath.toString())))
                    .contains(inPath);
        }

        @Test
        void nothingFoundOutsideTheDefaultLocation() {
            Path fallback = Path.of("/usr/local/cuda/bin/cuobjdump");
            Optional<Path> found = CuobjdumpEngine.locate(Map.of("PATH", tmp.toString()));
            if (Files.isExecutable(fallback)) {
                assertThat(found).contains(fallback);
            } else {
                assertThat(found).isEmpty();
            }
        }

        @Test
        void locatedExecutableIsUsable() throws Exception {
            Path fake = RecordedCuobjdump.replayFixed(Files.createDirectories(tmp.resolve("bin")), TORCHAUDIO);
            Path found = CuobjdumpEngine.locate(Map.of("PATH", fake.getParent().toString())).orElseThrow();

            LibraryScan scan = CuobjdumpEngine.using(found, GENEROUS, Frontend.PARAMETERS).read(probe(RecordedCuobjdump.testCuda("frames.o")));
            assertThat(scan.records()).hasSize(108);
            assertThat(scan.libraries()).containsExactly("frames.o");
        }
    }

    @Nested
    class ParallelScan {

        @Test
        @Timeout(value = 120, unit = TimeUnit.SECONDS)
        void keepsInputOrderAndReportsProgress1ToN() throws Exception {
            Path libs = tmp.resolve("libs");
            List<String> order = List.of(NCCL, NVJPEG, TORCHAUDIO, XLA);
            List<DeviceCodeProbe> probes = new ArrayList<>();
            for (String library : order) {
                probes.add(probe(RecordedCuobjdump.stage(libs, library)));
            }
            Path replay = RecordedCuobjdump.replayByName(tmp);
            // the first files answer last, so completion order differs from input order
            Path slowFirst = RecordedCuobjdump.executable(tmp.resolve("slow").resolve("cuobjdump"), "#!/bin/sh\n"
                    + "case \"$(basename \"${2:-}\")\" in\n"
                    + "  " + NCCL + ") sleep 0.9 ;;\n"
                    + "  " + NVJPEG + ") sleep 0.6 ;;\n"
                    + "  " + TORCHAUDIO + ") sleep 0.3 ;;\n"
                    + "esac\n"
                    + "exec '" + replay + "' \"$@\"\n");
            CuobjdumpEngine engine = CuobjdumpEngine.using(slowFirst, GENEROUS, Frontend.PARAMETERS);
            List<int[]> progress = Collections.synchronizedList(new ArrayList<>());
            List<String> finishedNames = Collections.synchronizedList(new ArrayList<>());

            List<LibraryScan> scans = new LibraryScanner(engine, 4).scan(probes, (scan, done, total) -> {
                progress.add(new int[] {done, total});
                finishedNames.add(scan.path().getFileName().toString());
            });

            assertThat(scans).extracting(scan -> scan.path().getFileName().toString())
                    .containsExactlyElementsOf(order);
            assertThat(scans).extracting(scan -> scan.records().size()).containsExactly(5312, 2480, 108, 5082);
            assertThat(scans).extracting(LibraryScan::libraries).containsExactly(List.of(NCCL), List.of(NVJPEG),
                    List.of(TORCHAUDIO), List.of(XLA));
            assertThat(progress).extracting(entry -> entry[0]).containsExactlyInAnyOrder(1, 2, 3, 4);
            assertThat(progress).extracting(entry -> entry[1]).containsOnly(4);
            assertThat(finishedNames).containsExactlyInAnyOrderElementsOf(order);
        }

        @Test
        void firstFailureInInputOrderWins() throws Exception {
            KernelEngine engine = new KernelEngine() {
                @Override
                public String id() {
                    return "fake";
                }

                @Override
                public String description() {
                    return "fake";
                }

                @Override
                public LibraryScan read(DeviceCodeProbe probe) throws EngineException {
                    String name = probe.file().getFileName().toString();
                    if (name.startsWith("bad")) {
                        if (name.equals("bad1.so")) {
                            try {
                                Thread.sleep(300);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        throw new EngineException(name + ": broken");
                    }
                    return new LibraryScan(probe.file(), List.of(name), List.of(), Map.of(), Map.of(), "", 0);
                }
            };
            List<DeviceCodeProbe> probes = new ArrayList<>();
            for (String name : List.of("good.so", "bad1.so", "bad2.so")) {
                probes.add(new DeviceCodeProbe(tmp.resolve(name), BinaryKind.HOST_ELF, true, "test", List.of()));
            }

            assertThatThrownBy(() -> new LibraryScanner(engine, 3).scan(probes, (scan, done, total) -> { }))
                    .isInstanceOf(EngineException.class).hasMessage("bad1.so: broken");
        }

        @Test
        void noFilesNoWork() throws Exception {
            List<int[]> progress = new ArrayList<>();
            assertThat(new LibraryScanner(null, 0).scan(List.of(), (scan, done, total) -> progress.add(null))).isEmpty();
            assertThat(progress).isEmpty();
        }

        @Test
        void parallelismBelowOneStillScans() throws Exception {
            Path cuobjdump = RecordedCuobjdump.replayByName(tmp);
            Path file = RecordedCuobjdump.stage(tmp.resolve("one"), TORCHAUDIO);
            List<Integer> done = new ArrayList<>();

            List<LibraryScan> scans = new LibraryScanner(CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS), 0)
                    .scan(List.of(probe(file)), (scan, count, total) -> done.add(count));

            assertThat(scans).singleElement().extracting(scan -> scan.records().size()).isEqualTo(108);
            assertThat(done).containsExactly(1);
        }
    }

    @Test
    void parserAndEngineAgreeOnASmallText() throws Exception {
        // sanity of the tool() helper itself: a replay of text in the exact cuobjdump format round-trips
        String text = "\nFatbin elf code:\n================\narch = sm_90a\ncode version = [1,8]\nhost = linux\n"
                + "compile_size = 64bit\n\nResource usage:\n Common:\n  GLOBAL:0\n Function _Z11frameKernelILi64EEvPii:\n"
                + "  REG:8 STACK:256 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0";
        Path file = Files.writeString(tmp.resolve("out.txt"), text);
        Path cuobjdump = tool("cat '" + file + "'");
        LibraryScan scan = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS).read(probe(RecordedCuobjdump.testCuda("libframes.so")));

        assertThat(scan.records())
                .isEqualTo(ResourceUsageParser.parse("libframes.so", null, new StringReader(text)).records())
                .singleElement().extracting(KernelRecord::stack).isEqualTo(256L);
        assertThat(scan.records().get(0).arch().sassLabel()).isEqualTo("sm_90a");
    }
}
