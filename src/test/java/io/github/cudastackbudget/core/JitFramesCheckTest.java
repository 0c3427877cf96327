package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.engine.PtxasOutput;
import io.github.cudastackbudget.core.model.FrameSource;
import io.github.cudastackbudget.core.model.KernelRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check with JIT frames (issue 13) over real nvcc-built libraries (src/test/cuda/jitframes.cu): a PTX-only one
 * (compute_80) and a mixed one (sm_90 SASS + compute_80 PTX), for an RTX 5090 (sm_120), a B200 (sm_100) and an H200
 * (sm_90). Every computed frame is checked against the {@code nvcc -Xptxas -v} log recorded for that target at build
 * time; the real ptxas of the build machine computes them.
 */
class JitFramesCheckTest {

    private static final Path TEST_CUDA = Path.of("target", "test-cuda");
    private static final Path PTX_ONLY = TEST_CUDA.resolve("libjitptx.so");
    private static final Path MIXED = TEST_CUDA.resolve("libjitmixed.so");

    @TempDir
    Path tmp;

    private record Run(CheckRunner.Outcome outcome, List<String> info, List<String> warnings) {
        DeviceResult device(String name) {
            return outcome.result().devices().stream().filter(d -> d.device().name().equals(name)).findFirst()
                    .orElseThrow();
        }
    }

    private Run run(CheckOptions.Builder options) throws Exception {
        List<String> info = Collections.synchronizedList(new ArrayList<>());
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        CheckRunner.Outcome outcome = CheckRunner.run(options.build(), new CheckListener() {
            @Override
            public void info(String line) {
                info.add(line);
            }

            @Override
            public void warn(String line) {
                warnings.add(line);
            }
        });
        return new Run(outcome, List.copyOf(info), List.copyOf(warnings));
    }

    private CheckOptions.Builder options(String jitFrames) {
        return CheckOptions.builder().outputDirectory(tmp.resolve("out")).engine("native").detectLocalDevices(false)
                .devicePresets("rtx-5090,b200,h200-141gb").libraryFiles(List.of(PTX_ONLY, MIXED))
                .cacheDirectory(tmp.resolve("cache")).jitFrames(jitFrames).environment(System.getenv());
    }

    private static Map<String, Long> recorded(String sm) throws Exception {
        return PtxasOutput.parse(Files.readAllLines(TEST_CUDA.resolve("jitframes-ptxas-" + sm + ".txt"))).stream()
                .collect(Collectors.toMap(PtxasOutput.Function::name, PtxasOutput.Function::frame));
    }

    @Test
    void everyJitDeviceGetsAFigureAndAVerdictWithTheRecordedFrames() throws Exception {
        Run run = run(options("ptxas").maxReservation("3 GiB"));

        for (String[] device : new String[][] {{"rtx-5090", "sm_120"}, {"b200", "sm_100"}}) {
            DeviceResult result = run.device(device[0]);
            assertThat(result.status()).as(device[0]).isEqualTo(DeviceResult.Status.FAIL);
            assertThat(result.jit()).as("no function is left unknown").isEmpty();
            Map<String, Long> recorded = recorded(device[1]);
            assertThat(result.selected()).as(device[0]).hasSize(12).allSatisfy(record -> {
                assertThat(record.origin().source()).isEqualTo(FrameSource.JIT_PTXAS);
                assertThat(record.origin().ptx().ptxLabel()).isEqualTo("compute_80");
                assertThat(record.origin().tool()).matches("ptxas \\d+\\.\\d+\\.\\d+");
                assertThat(record.arch().sassLabel()).isEqualTo(device[1]);
                assertThat(record.stack()).as(record.name()).isEqualTo(recorded.get(record.name()));
            });
            assertThat(result.worst().stack()).isEqualTo(recorded.get("_Z8jitFrameILi16400EEvPci"));
            assertThat(result.reservationBytes()).isEqualTo(result.device().maxResidentThreads()
                    * ((recorded.get("_Z8jitFrameILi16400EEvPci") + 15) / 16 * 16));
        }
        // the H200 runs the mixed library's SASS and JIT-compiles only the PTX-only library
        DeviceResult h200 = run.device("h200-141gb");
        Map<String, Long> sm90 = recorded("sm_90");
        assertThat(h200.selected()).filteredOn(r -> r.library().equals("libjitmixed.so"))
                .extracting(r -> r.origin().source()).containsOnly(FrameSource.STATIC);
        assertThat(h200.selected()).filteredOn(r -> r.library().equals("libjitptx.so")).hasSize(6)
                .allSatisfy(r -> assertThat(r.stack()).isEqualTo(sm90.get(r.name())))
                .extracting(KernelRecord::origin).allSatisfy(o -> assertThat(o.isStatic()).isFalse());
        assertThat(run.info()).anySatisfy(line -> assertThat(line).startsWith("JIT frames: compiling ")
                .contains("sm_100, sm_120, sm_90"));
        // every report labels the JIT figures
        String json = Files.readString(tmp.resolve("out").resolve(CheckRunner.JSON_REPORT));
        assertThat(json).contains("\"frameSource\":\"jit-ptxas\",\"jitFrom\":\"compute_80\",\"frameTool\":\"ptxas ");
        assertThat(String.join("\n", run.outcome().reportLines()))
                .contains("[sm_120 JIT from compute_80, ptxas ").contains("sm_120 (JIT) (12 functions)");
        assertThat(Files.readString(tmp.resolve("out").resolve("cuda-stack-budget.html")))
                .contains("sm_120 JIT from compute_80, ptxas ");
    }

    @Test
    void aSecondCheckTakesEveryFrameFromTheCacheWithTheSameReports() throws Exception {
        Run first = run(options("ptxas"));
        byte[] report = Files.readAllBytes(tmp.resolve("out").resolve(CheckRunner.JSON_REPORT));
        Run second = run(options("ptxas"));

        assertThat(second.info()).noneMatch(line -> line.startsWith("JIT frames: compiling "))
                .anySatisfy(line -> assertThat(line).startsWith("JIT frames: ").contains("from the cache"));
        assertThat(Files.readAllBytes(tmp.resolve("out").resolve(CheckRunner.JSON_REPORT))).isEqualTo(report);
        assertThat(first.device("rtx-5090").selected()).isEqualTo(second.device("rtx-5090").selected());
    }

    @Test
    void offIsTodaysSkipWithOneHintNamingTheOption() throws Exception {
        Run run = run(options(null));

        assertThat(run.device("rtx-5090").status()).isEqualTo(DeviceResult.Status.SKIPPED);
        assertThat(run.device("rtx-5090").skipReason()).endsWith("frame unknown at build time");
        assertThat(run.info()).filteredOn(line -> line.contains("jitFrames=ptxas")).singleElement().asString()
                .startsWith("12 function(s) would be JIT-compiled from PTX on rtx-5090 (sm_120), b200 (sm_100), "
                        + "h200-141gb (sm_90)");
    }

    @Test
    void withoutPtxasTheDevicesAreSkippedAsTodayWithTheHint() throws Exception {
        Path missing = tmp.resolve("no-such-ptxas");
        Run run = run(options("ptxas").ptxas(missing.toString()));

        assertThat(run.device("rtx-5090").status()).isEqualTo(DeviceResult.Status.SKIPPED);
        assertThat(run.device("rtx-5090").skipReason()).endsWith("frame unknown at build time");
        assertThat(run.warnings()).anySatisfy(line -> assertThat(line).isEqualTo("ptxas '" + missing
                + "' is not an executable file: JIT frames are not computed; ptxas=/path/to/ptxas names another"));
        assertThat(run.info()).anySatisfy(line -> assertThat(line).contains("jitFrames=ptxas computes them"));
    }

    @Test
    void aDriverOfAnotherCudaReleaseIsAWarningInTheReport() throws Exception {
        Run run = run(options("ptxas").driverCudaVersion("12.8"));

        assertThat(run.outcome().result().warnings()).anySatisfy(line -> assertThat(line)
                .startsWith("JIT frames are computed by ptxas ").contains("declared as CUDA 12.8 (driverCudaVersion)"));
    }

    @Test
    void badValuesAreOneLineNamingTheOption() {
        assertThatThrownBy(() -> run(options("nvrtc"))).isInstanceOf(CheckException.class)
                .hasMessage("jitFrames 'nvrtc' is not off or ptxas (jitFrames=ptxas or off)");
        assertThatThrownBy(() -> run(options("ptxas").driverCudaVersion("latest"))).isInstanceOf(CheckException.class)
                .hasMessage("driverCudaVersion 'latest' is not a CUDA version such as 12.8 or 13.0");
    }
}
