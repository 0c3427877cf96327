package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.FrameSource;
import io.github.cudastackbudget.core.budget.LaunchedImage;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launched mode with launch log format 2 (the driver's figures per launched function) over the real nvcc-built
 * libframes.so (target/test-cuda; frameKernel&lt;1024&gt; 4,096 B in its sm_90a image, compute_90 PTX) and the real
 * NVRTC log recorded on the project's H200 (src/test/resources/recorded/launch-driver-frames: bigFrame 12,000 B and
 * ptxFrame 6,000 B, both in no file).
 */
class LaunchedDriverFramesCheckTest {

    private static final Path RECORDED = Path.of("src/test/resources/recorded/launch-driver-frames");
    private static final long H200_THREADS = 132L * 2048;
    private static final String K1024 = "_Z11frameKernelILi1024EEvPii";
    private static final String V2 = "# cuda-stack-budget launch log 2\n# status: ok\n# processes: 1\n";

    @TempDir
    Path tmp;

    private Path libs;

    @BeforeEach
    void stage() throws Exception {
        libs = Files.createDirectories(tmp.resolve("libs"));
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), libs.resolve("libframes.so"));
    }

    private CheckOptions options(String devices, String maxReservation, Path launchLog) {
        return new CheckOptions(List.of(new FileSetSpec(libs, FileSetSpec.DEFAULT_INCLUDES, List.of())), List.of(),
                "com.example:app:1.0", "native", null, Duration.ofSeconds(60), 1, List.of(), devices, false,
                maxReservation, null, tmp.resolve("out"), 0, true,
                Map.of("PATH", System.getenv().getOrDefault("PATH", "")), launchLog, null);
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
        return new ObjectMapper().readTree(tmp.resolve("out/cuda-stack-budget.json").toFile());
    }

    @Test
    void kernelsInNoScannedFileCountWithTheDriverReportedFrameAndJudgeTheBudget() throws Exception {
        Path launch = Files.copy(RECORDED.resolve("nvrtc.launch.log"), tmp.resolve("launch.log"));
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options("h200-141gb,l4", "3 GiB", launch), recorder);

        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.launchedHeadline()).isTrue();
        assertThat(h200.reservationBytes()).isEqualTo(H200_THREADS * 12_000).isEqualTo(3_244_032_000L);
        assertThat(h200.status()).isEqualTo(DeviceResult.Status.FAIL);
        assertThat(outcome.failed()).isTrue();
        assertThat(h200.launched().kernels()).extracting(image -> image.image().name(), LaunchedImage::source,
                image -> image.image().library(), image -> image.image().stack())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("bigFrame", FrameSource.DRIVER,
                        LaunchedImage.DRIVER_LIBRARY, 12_000L),
                        org.assertj.core.groups.Tuple.tuple("ptxFrame", FrameSource.DRIVER,
                                LaunchedImage.DRIVER_LIBRARY, 6_000L));
        // L4 (8.9) cannot run the driver's sm_90 images: listed, not counted
        DeviceResult l4 = outcome.result().devices().get(1);
        assertThat(l4.launched().kernels()).isEmpty();
        assertThat(l4.launched().driverOtherArch()).extracting(kernel -> kernel.name())
                .containsExactly("bigFrame", "ptxFrame");
        assertThat(l4.launched().reservationBytes()).isZero();

        assertThat(recorder.infos).contains("2 launched kernel(s) in no scanned library are counted with the frame the "
                + "driver reported for them (driver-reported), the largest bigFrame: 12,000 B (sm_90)");
        assertThat(recorder.warnings).noneMatch(line -> line.contains("not counted")
                || line.contains("matches no kernel"));
        assertThat(outcome.reportLines()).contains(
                "      largest launched frame 12,000 B in no scanned file [sm_90] (driver-reported)",
                "  2 launched kernel(s) counted with the driver-reported frame (the others: static figures of the "
                        + "scanned images)");

        JsonNode device = json().get("devices").get(0);
        assertThat(device.get("launchedReservationBytes").asLong()).isEqualTo(3_244_032_000L);
        JsonNode first = device.get("launchedKernels").get(0);
        assertThat(first.get("frameSource").asText()).isEqualTo("driver");
        assertThat(first.get("kernel").get("library").asText()).isEqualTo("no scanned file");
        assertThat(first.get("driverFrame").get("localBytes").asLong()).isEqualTo(12_000);
        assertThat(first.get("driverFrame").get("arch").asText()).isEqualTo("sm_90");
        assertThat(json().get("devices").get(1).get("launchedDriverOtherArch").toString())
                .isEqualTo("[\"bigFrame\",\"ptxFrame\"]");
        assertThat(json().get("unmatchedLaunchedKernels").get(0).get("driverFrame").get("localBytes").asLong())
                .isEqualTo(12_000);
    }

    @Test
    void aDriverFrameThatDiffersFromTheStaticImageIsAWarningNamingBothFiguresAndArches() throws Exception {
        Path launch = Files.writeString(tmp.resolve("launch.log"), V2 + K1024 + "\tmain\t0\t4000\t31\t0\tsm_90\n");
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options("h200-141gb", null, launch), recorder);

        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.launched().driverDifferences()).hasSize(1);
        // the static figure is what counts; the warning names both
        assertThat(h200.reservationBytes()).isEqualTo(H200_THREADS * 4_096);
        assertThat(recorder.warnings).contains("device h200-141gb: launched kernel void frameKernel<1024>(int*, int): "
                + "the driver reported a frame of 4,000 B (sm_90 image), the static rules chose the sm_90a image in "
                + "libframes.so with 4,096 B: the driver loaded another image than the rules chose (or the run loaded "
                + "another build of the library); the launched figure counts the static one");
        JsonNode device = json().get("devices").get(0);
        assertThat(device.get("launchedKernels").get(0).get("frameSource").asText()).isEqualTo("static");
        JsonNode difference = device.get("launchedDriverDifferences").get(0);
        assertThat(difference.get("driverFrame").get("localBytes").asLong()).isEqualTo(4_000);
        assertThat(outcome.reportLines()).contains("  1 launched kernel(s) whose static frame differs from the "
                + "driver's (see the warnings)");
    }

    @Test
    void equalDriverAndStaticFramesGiveNoWarningAndAFrameOfAnotherArchIsNotCompared() throws Exception {
        Path launch = Files.writeString(tmp.resolve("launch.log"), V2 + K1024 + "\tmain\t0\t4096\t31\t0\tsm_90\n"
                + "_Z13noStackKernelPi\tmain\t0\t512\t8\t0\tsm_80\n");
        Recorder recorder = new Recorder();
        CheckRunner.Outcome outcome = CheckRunner.run(options("h200-141gb", null, launch), recorder);
        assertThat(outcome.result().devices().get(0).launched().driverDifferences()).isEmpty();
        assertThat(recorder.warnings).noneMatch(line -> line.contains("the driver reported"));
    }

    @Test
    void aLaunchedPtxOnlyKernelCountsWithTheDriversJitFrameOnTheDeviceOfThatArch() throws Exception {
        // libframes.so has no sm_12x SASS, only compute_90 PTX: an RTX 5090 JIT-compiles frameKernel<1024>
        Path launch = Files.writeString(tmp.resolve("launch.log"), V2 + K1024 + "\tmain\t0\t4100\t40\t0\tsm_120\n");
        CheckRunner.Outcome outcome = CheckRunner.run(options("h200-141gb,rtx-5090", null, launch),
                CheckListener.SILENT);
        DeviceResult rtx = outcome.result().devices().get(1);
        assertThat(rtx.launched().jit()).isEmpty();
        assertThat(rtx.launched().kernels()).extracting(LaunchedImage::source, image -> image.image().library(),
                image -> image.image().stack())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(FrameSource.DRIVER, "libframes.so", 4_100L));
        assertThat(rtx.launched().reservationBytes()).isEqualTo(rtx.device().maxResidentThreads() * 4_112);
        // on the H200 the sm_120 figure says nothing about its sm_90a image: static, no comparison
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.launched().kernels()).extracting(LaunchedImage::source).containsExactly(FrameSource.STATIC);
        assertThat(h200.launched().driverDifferences()).isEmpty();
    }

    /** The report goal reads the JSON back: the driver figures and labels survive (regression guard for the reader). */
    @Test
    void theJsonReportReadBackKeepsTheDriverFiguresAndLabels() throws Exception {
        Path launch = Files.writeString(tmp.resolve("launch.log"), V2 + K1024 + "\tmain\t0\t4000\t31\t0\tsm_90\n"
                + "bigFrame\tnvrtc\t0\t12000\t31\t0\tsm_90\nother\tnvrtc\t0\t64\t8\t0\tsm_86\n");
        CheckRunner.Outcome outcome = CheckRunner.run(options("h200-141gb", null, launch), CheckListener.SILENT);
        var built = io.github.cudastackbudget.core.report.model.ReportModel.of(outcome.result());
        var read = io.github.cudastackbudget.core.report.model.ReportModel.read(tmp.resolve("out/cuda-stack-budget.json"));
        var builtLaunched = built.devices().get(0).launched();
        var readLaunched = read.devices().get(0).launched();
        assertThat(readLaunched.driverFrames()).isTrue();
        assertThat(readLaunched.kernels()).extracting(row -> row.frameSource(), row -> row.driver())
                .isEqualTo(builtLaunched.kernels().stream().map(row -> org.assertj.core.groups.Tuple.tuple(
                        row.frameSource(), row.driver())).toList());
        assertThat(readLaunched.kernels()).extracting(row -> row.kernel().name() + ":" + row.frameSource())
                .containsExactly("bigFrame:driver", K1024 + ":static");
        assertThat(readLaunched.driverDifferences()).isEqualTo(builtLaunched.driverDifferences()).hasSize(1);
        assertThat(readLaunched.driverOtherArch()).containsExactly("other");
        assertThat(read.launched().unmatchedKernels()).isEqualTo(built.launched().unmatchedKernels());
    }

    @Test
    void formatTwoReportsAreByteIdenticalForTheSameInputs() throws Exception {
        Path launch = Files.copy(RECORDED.resolve("nvrtc.launch.log"), tmp.resolve("launch.log"));
        CheckRunner.run(options("h200-141gb,l4", null, launch), CheckListener.SILENT);
        byte[] json = Files.readAllBytes(tmp.resolve("out/cuda-stack-budget.json"));
        byte[] text = Files.readAllBytes(tmp.resolve("out/cuda-stack-budget.txt"));
        byte[] html = Files.readAllBytes(tmp.resolve("out/cuda-stack-budget.html"));
        CheckRunner.run(options("h200-141gb,l4", null, launch), CheckListener.SILENT);
        assertThat(tmp.resolve("out/cuda-stack-budget.json")).hasBinaryContent(json);
        assertThat(tmp.resolve("out/cuda-stack-budget.txt")).hasBinaryContent(text);
        assertThat(tmp.resolve("out/cuda-stack-budget.html")).hasBinaryContent(html);
        assertThat(new String(html, java.nio.charset.StandardCharsets.UTF_8))
                .contains(">driver-reported</span>", "Driver-reported frame", "2 counted with the driver-reported frame");
    }
}
