package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.launch.MatchedKernel;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launched mode end to end over the real nvcc-built test binaries (target/test-cuda) with a cuobjdump stand-in that
 * replays the real cuobjdump 13.0 output recorded for them (src/test/resources/recorded/cuobjdump). The launch logs
 * are written here in the injection library's format; they name kernels of frames.cu.
 *
 * <p>On an H200 (270,336 resident threads) libframes.so runs its sm_90a image: frameKernel&lt;2550&gt; has a
 * 10,200-B frame (static worst case 270,336 x 10,208 B), frameKernel&lt;1024&gt; 4,096 B, noStackKernel 0 B.
 */
class LaunchedCheckTest {

    private static final Path RECORDINGS = Path.of("src/test/resources/recorded/cuobjdump").toAbsolutePath();
    private static final long H200_THREADS = 132L * 2048;
    private static final long STATIC_H200 = H200_THREADS * 10_208;
    private static final long FRAME_1024_H200 = H200_THREADS * 4_096;
    private static final String K2550 = "_Z11frameKernelILi2550EEvPii";
    private static final String K1024 = "_Z11frameKernelILi1024EEvPii";
    private static final String NO_STACK = "_Z13noStackKernelPi";
    private static final String MISSING = "_Z13missingKernelv";
    private static final String OK = "# cuda-stack-budget launch log 1\n# status: ok\n# processes: 1\n";

    @TempDir
    Path tmp;

    private Path libs;
    private Path replay;

    @BeforeEach
    void stageLibrariesAndReplay() throws Exception {
        libs = Files.createDirectories(tmp.resolve("libs"));
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), libs.resolve("libframes.so"));
        replay = RecordedCuobjdump.executable(tmp.resolve("tool/cuobjdump"), "#!/bin/sh\n"
                + "# replays the REAL cuobjdump 13.0 output recorded for the file's base name\n"
                + "if [ \"$1\" = --version ]; then cat '" + RECORDINGS + "/cuobjdump-version.txt'; exit 0; fi\n"
                + "f='" + RECORDINGS + "'/$(basename \"$2\").resource-usage.txt\n"
                + "[ -f \"$f\" ] || { echo \"no recording for $2\" >&2; exit 1; }\n"
                + "cat \"$f\"\n");
    }

    private CheckOptions options(Path directory, String maxReservation, String maxStack, Path launchLog) {
        return new CheckOptions(List.of(new FileSetSpec(directory, FileSetSpec.DEFAULT_INCLUDES, List.of())), List.of(),
                "com.example:app:1.0", "auto", replay.toString(), Duration.ofSeconds(60), 1, List.of(), "h200-141gb",
                false, maxReservation, maxStack, tmp.resolve("out"), 0, true,
                Map.of("PATH", System.getenv().getOrDefault("PATH", "")), launchLog, null);
    }

    private Path log(String text) throws Exception {
        return Files.writeString(tmp.resolve("launch.log"), text);
    }

    private Path libraryLog(String... paths) throws Exception {
        return Files.writeString(tmp.resolve("launch.log.libraries"),
                "# cuda-stack-budget library log 1\n" + String.join("\n", paths) + "\n");
    }

    private static final class Recorder implements CheckListener {
        final List<String> warnings = new ArrayList<>();
        final List<String> infos = new ArrayList<>();

        @Override
        public synchronized void info(String line) {
            infos.add(line);
        }

        @Override
        public synchronized void warn(String line) {
            warnings.add(line);
        }
    }

    private JsonNode json() throws Exception {
        // schema 2 read as schema 1's shape (report-schema.md): records resolved to kernel objects
        return io.github.cudastackbudget.core.report.SchemaTwo.asVersionOne(
                new ObjectMapper().readTree(tmp.resolve("out/cuda-stack-budget.json").toFile()));
    }

    @Test
    void headlineIsTheLaunchedKernelsFigureAndTheBudgetJudgesIt() throws Exception {
        Path launch = log(OK + K1024 + "\tnvtx:stage-1\t2048\n" + NO_STACK + "\tpool-1-thread-2\t0\n"
                + MISSING + "\tmain\t0\n");
        libraryLog(libs.resolve("libframes.so").toString());
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, "2 GiB", null, launch), recorder);

        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.launchedHeadline()).isTrue();
        assertThat(h200.reservationBytes()).isEqualTo(FRAME_1024_H200).isEqualTo(1_107_296_256L);
        assertThat(h200.staticReservationBytes()).isEqualTo(STATIC_H200).isEqualTo(2_759_589_888L);
        assertThat(h200.headlineWorst().name()).isEqualTo(K1024);
        assertThat(h200.worst().name()).isEqualTo(K2550);
        assertThat(h200.status()).isEqualTo(DeviceResult.Status.PASS);
        assertThat(outcome.failed()).isFalse();
        assertThat(h200.launched().kernels()).extracting(image -> image.image().name(), image -> image.sharedPerBlock())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(K1024, 2048L),
                        org.assertj.core.groups.Tuple.tuple(NO_STACK, 0L));
        assertThat(outcome.result().launched().match().unmatched()).extracting(kernel -> kernel.name())
                .containsExactly(MISSING);
        assertThat(recorder.warnings).anyMatch(line -> line.startsWith("1 launched kernel(s) are in no scanned library")
                && line.contains("missingKernel()") && line.contains("(launched under main)"));

        JsonNode json = json();
        JsonNode device = json.get("devices").get(0);
        assertThat(device.get("reservationBytes").asLong()).isEqualTo(FRAME_1024_H200);
        assertThat(device.get("staticReservationBytes").asLong()).isEqualTo(STATIC_H200);
        assertThat(device.get("launchedReservationBytes").asLong()).isEqualTo(FRAME_1024_H200);
        assertThat(device.get("launchedHeadline").asBoolean()).isTrue();
        assertThat(device.get("worstKernel").get("name").asText()).isEqualTo(K1024);
        assertThat(device.get("launchedWorstKernel").get("name").asText()).isEqualTo(K1024);
        assertThat(device.get("staticWorstKernel").get("name").asText()).isEqualTo(K2550);
        JsonNode first = device.get("launchedKernels").get(0);
        assertThat(first.get("shared").asLong()).isZero();
        assertThat(first.get("maxDynamicShared").asLong()).isEqualTo(2048);
        assertThat(first.get("sharedPerBlock").asLong()).isEqualTo(2048);
        assertThat(first.get("attributions").get(0).asText()).isEqualTo("nvtx:stage-1");
        JsonNode launched = json.get("launched");
        assertThat(launched.get("kernels").asInt()).isEqualTo(3);
        assertThat(launched.get("matched").asInt()).isEqualTo(2);
        assertThat(launched.get("unmatched").asInt()).isEqualTo(1);
        assertThat(launched.get("status").asText()).isEqualTo("ok");
        assertThat(launched.get("headline").asBoolean()).isTrue();
        assertThat(json.get("unmatchedLaunchedKernels").get(0).get("name").asText()).isEqualTo(MISSING);

        assertThat(outcome.reportLines()).contains(
                "  launched kernels:            3 (2 matched, 1 in no scanned library) from " + launch,
                "  launched reservation: 1.03 GiB (1,107,296,256 B) = 270,336 threads x 4,096 B",
                "  worst-case reservation (static, every kernel): 2.57 GiB (2,759,589,888 B) = 270,336 threads x 10,208 B (frame 10,200 B "
                        + "rounded up to 16)",
                "      shared memory per block: 0 B static + 2,048 B dynamic = 2,048 B",
                "  budget: 2.00 GiB (2,147,483,648 B) (51.6% used by the launched kernels)");
        assertThat(outcome.reportLines()).anyMatch(line -> line.matches(
                "    STACK +4096 B  LOCAL +0 B  SHARED +0 B  DYN +2,048 B  REG +\\d+  sm_90a +void frameKernel<1024>.*"));
        assertThat(outcome.summary()).anyMatch(line -> line.startsWith("  launched mode: 3 kernel(s) launched, 2 matched, "
                + "1 unmatched"));
    }

    @Test
    void withoutTheLaunchLogTheSameBudgetFailsOnTheStaticFigure() throws Exception {
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, "2 GiB", null, null), CheckListener.SILENT);
        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.result().devices().get(0).reservationBytes()).isEqualTo(STATIC_H200);
        assertThat(outcome.result().launched()).isNull();
        assertThat(Files.readString(tmp.resolve("out/cuda-stack-budget.json")))
                .doesNotContain("launched", "staticWorstKernel");
    }

    @Test
    void launchedBudgetViolationNamesTheLaunchedKernel() throws Exception {
        Path launch = log(OK + K1024 + "\tmain\t0\n");
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, "1 GiB", null, launch), CheckListener.SILENT);
        assertThat(outcome.violations()).containsExactly("h200-141gb: launched-kernel stack reservation 1.03 GiB "
                + "(1,107,296,256 B) exceeds maxReservation 1.00 GiB (1,073,741,824 B); worst launched kernel void frameKernel<1024>(int*, int) [sm_90a] in "
                + "libframes.so (4,096 B per thread)");
    }

    @Test
    void maxStackPerThreadJudgesOnlyLaunchedKernelsInLaunchedMode() throws Exception {
        Path launch = log(OK + K1024 + "\tmain\t0\n");
        assertThat(CheckRunner.run(options(libs, null, "8 KiB", launch), CheckListener.SILENT).failed()).isFalse();
        assertThat(CheckRunner.run(options(libs, null, "8 KiB", null), CheckListener.SILENT).violations())
                .singleElement().asString().contains("frameKernel<2550>");
    }

    @Test
    void incompleteLogKeepsTheStaticHeadlineAndStillReportsTheLaunchedFigure() throws Exception {
        Path launch = log("# cuda-stack-budget launch log 1\n# status: subscriber-busy - another CUPTI subscriber was "
                + "active\n# processes: 1\n" + K1024 + "\tmain\t0\n");
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, "2 GiB", null, launch), recorder);
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.launchedHeadline()).isFalse();
        assertThat(h200.reservationBytes()).isEqualTo(STATIC_H200);
        assertThat(h200.launched().reservationBytes()).isEqualTo(FRAME_1024_H200);
        assertThat(outcome.failed()).isTrue();
        assertThat(recorder.warnings).anyMatch(line -> line.contains("status: subscriber-busy - another CUPTI "
                + "subscriber was active") && line.endsWith("the headline stays the static figure"));
        assertThat(json().get("launched").get("headline").asBoolean()).isFalse();
    }

    @Test
    void emptyLogKeepsTheStaticHeadlineWithAWarning() throws Exception {
        Path launch = log("");
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, null, null, launch), recorder);
        assertThat(outcome.result().devices().get(0).reservationBytes()).isEqualTo(STATIC_H200);
        assertThat(recorder.warnings).anyMatch(line -> line.contains("is empty"));
    }

    @Test
    void logThatMatchesNoKernelGivesZeroWithAWarning() throws Exception {
        Path launch = log(OK + MISSING + "\tmain\t0\n");
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, "1 GiB", null, launch), recorder);
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.reservationBytes()).isZero();
        assertThat(h200.staticReservationBytes()).isEqualTo(STATIC_H200);
        assertThat(outcome.failed()).isFalse();
        assertThat(recorder.warnings).contains("launch log " + launch + " matches no kernel of the scanned libraries: "
                + "the launched reservation is 0 B");
    }

    @Test
    void missingConfiguredLogIsAnError() {
        Path launch = tmp.resolve("target/cuda-stack-budget/launch.log");
        assertThatThrownBy(() -> CheckRunner.run(options(libs, null, null, launch), CheckListener.SILENT))
                .isInstanceOf(CheckException.class)
                .hasMessageStartingWith("the launch log " + launch + " (launchLog) does not exist: run the tests");
    }

    @Test
    void librariesOutsideTheFileSetsAreFoundThroughTheLibraryLog() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("nothing-configured"));
        Path elsewhere = Files.createDirectories(tmp.resolve("site-packages/app"));
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), elsewhere.resolve("libframes.so"));
        Path launch = log(OK + K2550 + "\tnvtx:big\t0\n");
        libraryLog(elsewhere.resolve("libframes.so").toString(), "/nonexistent/lib/libgone.so.1",
                "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", RecordedCuobjdump.testCuda("libhostonly.so").toString());
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options(empty, null, null, launch), recorder);

        assertThat(outcome.result().launched().scannedFromLibraryLog()).containsExactly(elsewhere.resolve("libframes.so"));
        assertThat(outcome.result().launched().libraryLogNotHere()).contains(Path.of("/nonexistent/lib/libgone.so.1"));
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.reservationBytes()).isEqualTo(STATIC_H200);
        assertThat(h200.headlineWorst().name()).isEqualTo(K2550);
        assertThat(outcome.result().scans()).singleElement().satisfies(scan ->
                assertThat(scan.usedBy()).startsWith("found through the library log"));
        JsonNode library = json().get("libraries").get(0);
        assertThat(library.get("foundThrough").asText()).isEqualTo("libraryLog");
        assertThat(json().get("launched").get("librariesFoundThroughLibraryLog").get(0).asText())
                .isEqualTo(elsewhere.resolve("libframes.so").toString());
        assertThat(outcome.reportLines()).contains("  found through library log:   libframes.so");
    }

    @Test
    void aNameInSeveralLibrariesCountsOnlyTheLoadedOnesWhenTheLibraryLogSaysSo() throws Exception {
        Files.copy(RecordedCuobjdump.testCuda("libframes.a"), libs.resolve("libframes.a"), StandardCopyOption.REPLACE_EXISTING);
        Path launch = log(OK + K2550 + "\tmain\t0\n");
        libraryLog("/elsewhere/on/the/gpu/machine/libframes.so");
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, null, null, launch), CheckListener.SILENT);
        MatchedKernel matched = outcome.result().launched().match().matched().get(0);
        assertThat(matched.libraries()).containsExactly("libframes.so");
        assertThat(matched.notLoadedIn()).containsExactly("libframes.a(frames.o)");
        assertThat(outcome.result().devices().get(0).launched().kernels()).extracting(image -> image.image().library())
                .containsExactly("libframes.so");

        Files.delete(tmp.resolve("launch.log.libraries"));
        Recorder recorder = new Recorder();
        CheckRunner.Outcome unknown = CheckRunner.run(options(libs, null, null, launch), recorder);
        assertThat(unknown.result().launched().match().matched().get(0).libraries())
                .containsExactly("libframes.a(frames.o)", "libframes.so");
        assertThat(recorder.warnings).anyMatch(line -> line.startsWith("the library log " + tmp.resolve(
                "launch.log.libraries") + " (default: the launch log + .libraries) does not exist"));
    }

    /**
     * The REAL launch and library logs that the injection library wrote for a PyTorch run on the project's H200
     * (src/test/resources/recorded/launch/README.txt): none of its kernels is in the scanned libframes.so, and
     * libtorch_cuda.so, where they live, is not on this machine.
     */
    @Test
    void recordedPyTorchRunOnTheH200MatchesNothingHere() throws Exception {
        Path recorded = Path.of("src/test/resources/recorded/launch");
        Path launch = Files.copy(recorded.resolve("torch-gammainc.launch.log"), tmp.resolve("torch.launch.log"));
        Files.copy(recorded.resolve("torch-gammainc.launch.log.libraries"), tmp.resolve("torch.launch.log.libraries"));
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options(libs, null, null, launch), recorder);

        var launched = outcome.result().launched();
        assertThat(launched.log().complete()).isTrue();
        assertThat(launched.kernelCount()).isEqualTo(4);
        assertThat(launched.match().matched()).isEmpty();
        assertThat(launched.match().unmatched()).hasSize(4).anySatisfy(kernel -> {
            assertThat(kernel.name()).contains("IGammaKernel");
            assertThat(kernel.attributions()).containsExactly("igamma");
            assertThat(kernel.maxDynamicShared()).isZero();
        });
        assertThat(launched.libraryLogNotHere()).contains(
                Path.of("/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so"));
        assertThat(launched.libraryLogNotHere()).noneMatch(path -> path.getFileName().toString().startsWith("libcupti")
                || path.getFileName().toString().startsWith("libcuda-stack-budget-cupti"));
        assertThat(launched.scannedFromLibraryLog()).isEmpty();
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.reservationBytes()).isZero();
        assertThat(h200.staticReservationBytes()).isEqualTo(STATIC_H200);
        assertThat(recorder.warnings).contains("launch log " + launch + " matches no kernel of the scanned libraries: "
                + "the launched reservation is 0 B");
        assertThat(recorder.warnings).anyMatch(line -> line.startsWith("4 launched kernel(s) are in no scanned library"));
        assertThat(json().get("unmatchedLaunchedKernels")).hasSize(4);
        assertThat(json().get("launched").get("librariesLoaded").asInt()).isEqualTo(65);
    }

    @Test
    void onADeviceWithoutSassTheLaunchedKernelsAreListedAsJit() throws Exception {
        Path launch = log(OK + K1024 + "\tmain\t0\n");
        CheckOptions options = options(libs, null, null, launch);
        options = new CheckOptions(options.fileSets(), options.libraryFiles(), options.usedBy(), options.engine(),
                options.cuobjdump(), options.timeout(), options.parallelism(), options.devices(), "h200-141gb,rtx-5090", false,
                null, null, options.outputDirectory(), 0, true, options.environment(), launch, null);
        CheckRunner.Outcome outcome = CheckRunner.run(options, CheckListener.SILENT);
        DeviceResult rtx = outcome.result().devices().get(1);
        assertThat(rtx.skipped()).as("libframes.so has no sm_12x SASS, only compute_90 PTX").isTrue();
        assertThat(rtx.launched().jit()).extracting(choice -> choice.function().name()).containsExactly(K1024);
        assertThat(rtx.launched().reservationBytes()).isZero();
        assertThat(outcome.reportLines()).contains("  1 launched function(s) would JIT from PTX here (frame unknown)");
        assertThat(json().get("devices").get(1).get("launchedJitKernels").get(0).get("jitFrom").asText())
                .isEqualTo("compute_90");
    }

    @Test
    void theNativeReaderGivesTheSameLaunchedFigures() throws Exception {
        Path launch = log(OK + K1024 + "\tnvtx:stage-1\t2048\n" + NO_STACK + "\tmain\t0\n");
        CheckOptions base = options(libs, "2 GiB", null, launch);
        CheckOptions nativeEngine = new CheckOptions(base.fileSets(), base.libraryFiles(), base.usedBy(), "native", null,
                base.timeout(), base.parallelism(), base.devices(), base.devicePresets(), false, base.maxReservation(),
                null, base.outputDirectory(), 0, true, base.environment(), launch, null);
        CheckRunner.Outcome outcome = CheckRunner.run(nativeEngine, CheckListener.SILENT);
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.reservationBytes()).isEqualTo(FRAME_1024_H200);
        assertThat(h200.staticReservationBytes()).isEqualTo(STATIC_H200);
        assertThat(outcome.result().launched().match().matched()).extracting(matched -> matched.kernel().name())
                .containsExactly(K1024, NO_STACK);
        assertThat(outcome.failed()).isFalse();
    }

    @Test
    void launchedReportsAreByteIdenticalForTheSameInputs() throws Exception {
        Files.copy(RecordedCuobjdump.testCuda("libframes.a"), libs.resolve("libframes.a"));
        Path launch = log(OK + K2550 + "\tb\t0\n" + K2550 + "\ta\t64\n" + MISSING + "\tmain\t0\n"
                + NO_STACK + "\tworker-2\t512\n");
        CheckRunner.run(options(libs, "1 GiB", "8 KiB", launch), CheckListener.SILENT);
        byte[] first = Files.readAllBytes(tmp.resolve("out/cuda-stack-budget.json"));
        byte[] firstText = Files.readAllBytes(tmp.resolve("out/cuda-stack-budget.txt"));
        CheckRunner.run(options(libs, "1 GiB", "8 KiB", launch), CheckListener.SILENT);
        assertThat(tmp.resolve("out/cuda-stack-budget.json")).hasBinaryContent(first);
        assertThat(tmp.resolve("out/cuda-stack-budget.txt")).hasBinaryContent(firstText);
        assertThat(new String(first, java.nio.charset.StandardCharsets.UTF_8))
                .contains("\"attributions\":[\"a\",\"b\"]");
    }
}
