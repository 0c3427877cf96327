package io.github.cudastackbudget.core.report.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.LaunchedImage;
import io.github.cudastackbudget.core.report.html.LaunchedSamples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launched-mode part of the model, read back from the JSON of a check over the REAL launch logs recorded on the
 * H200 (launch-probe + torch.special.gammainc, {@link LaunchedSamples}), equals what the check computed and what the
 * recorded log and the recorded cuobjdump output say.
 */
class LaunchedReportModelTest {

    private static final Path RECORDED = Path.of("src/test/resources/recorded/launch");
    private static final long H200_THREADS = 132L * 2048;

    @TempDir
    static Path tmp;

    private static CheckRunner.Outcome outcome;
    private static ReportModel model;

    @BeforeAll
    static void checkTheRecordedLaunches() throws Exception {
        outcome = LaunchedSamples.probeAndTorch(tmp.resolve("run"));
        model = ReportModel.read(outcome.reports().get(0));
    }

    private static DeviceReport device(String name) {
        return model.devices().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    /** The largest dynamic shared memory per kernel, straight from the recorded probe log's third column. */
    static Map<String, Long> recordedDynamicShared() throws Exception {
        Map<String, Long> max = new TreeMap<>();
        for (String line : Files.readAllLines(RECORDED.resolve("launch-probe.launch.log"))) {
            if (!line.startsWith("#") && !line.isBlank()) {
                String[] fields = line.split("\t", -1);
                max.merge(fields[0], Long.parseLong(fields[2]), Math::max);
            }
        }
        return max;
    }

    @Test
    void theLaunchLogBlockIsRead() {
        LaunchedRunReport run = model.launched();
        assertThat(model.launchedMode()).isTrue();
        assertThat(run.log()).isEqualTo(tmp.resolve("run/launch.log").toString());
        assertThat(run.status()).isEqualTo("ok");
        assertThat(run.headline()).isTrue();
        assertThat(run.kernels()).isEqualTo(9);
        assertThat(run.matched()).isEqualTo(5);
        assertThat(run.unmatched()).isEqualTo(4);
        assertThat(run.libraryLog()).isEqualTo(tmp.resolve("run/launch.log.libraries").toString());
        assertThat(run.librariesLoaded()).isEqualTo(outcome.result().launched().libraryLog().libraries().size());
        assertThat(run.foundThroughLibraryLog()).containsExactly(tmp.resolve("run/gpu-run/bin/launch-probe").toString());
        assertThat(run.unmatchedKernels()).hasSize(4).allSatisfy(kernel -> assertThat(kernel.name())
                .startsWith("_ZN2at6native")).anySatisfy(kernel -> {
                    assertThat(kernel.displayName()).contains("CalcIgamma<double>");
                    assertThat(kernel.attributions()).containsExactly("igamma");
                    assertThat(kernel.maxDynamicShared()).isZero();
                });
        assertThat(model.libraries()).extracting(LibraryReport::library, LibraryReport::foundThroughLibraryLog)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("libframes.so", false),
                        org.assertj.core.groups.Tuple.tuple("launch-probe", true));
    }

    @Test
    void everyLaunchedKernelCarriesTheRecordedDynamicSharedMemory() throws Exception {
        DeviceReport h200 = device("h200-141gb");
        LaunchedDeviceReport launched = h200.launched();
        Map<String, Long> dynamic = recordedDynamicShared();
        assertThat(dynamic).containsEntry("_Z11frameKernelILi4096EEvPii", 8192L)
                .containsEntry("_Z12sharedKernelPi", 2304L).hasSize(5);
        assertThat(launched.kernels()).extracting(row -> row.kernel().name())
                .containsExactlyInAnyOrderElementsOf(dynamic.keySet());
        for (LaunchedKernelRow row : launched.kernels()) {
            assertThat(row.kernel().library()).isEqualTo("launch-probe");
            assertThat(row.kernel().arch()).isEqualTo("sm_90");
            assertThat(row.maxDynamicShared()).as(row.kernel().name()).isEqualTo(dynamic.get(row.kernel().name()));
            // every probe kernel has 1,024 B of static SHARED in the recorded cuobjdump output
            assertThat(row.kernel().shared()).isEqualTo(1024);
            assertThat(row.sharedPerBlock()).isEqualTo(1024 + dynamic.get(row.kernel().name()));
        }
        assertThat(launched.kernels()).filteredOn(row -> row.kernel().name().equals("_Z12sharedKernelPi"))
                .singleElement().satisfies(row -> assertThat(row.attributions()).containsExactly("worker-0",
                        "worker-1", "worker-2", "worker-3", "worker-4", "worker-5", "worker-6", "worker-7"));
    }

    @Test
    void theHeadlineIsTheLaunchedFigureAndTheStaticBoundStaysNextToIt() {
        DeviceReport h200 = device("h200-141gb");
        assertThat(h200.launchedHeadline()).isTrue();
        assertThat(h200.reservationBytes()).isEqualTo(h200.launched().reservationBytes())
                .isEqualTo(H200_THREADS * 12_288).isEqualTo(3_321_888_768L);
        assertThat(h200.launched().worstKernel().name()).isEqualTo("_Z11frameKernelILi12288EEvPii");
        assertThat(h200.launched().stackLimitBytes()).isEqualTo(12_288);
        assertThat(h200.staticReservationBytes()).isEqualTo(3_321_888_768L);

        DeviceReport l4 = device("l4");
        assertThat(l4.launched().reservationBytes()).isZero();
        assertThat(l4.reservationBytes()).isZero();
        assertThat(l4.staticReservationBytes()).isEqualTo(89_088L * 10_208).isEqualTo(909_410_304L);
        assertThat(l4.launched().staticWorstKernel().displayName()).isEqualTo("void frameKernel<2550>(int*, int)");
        assertThat(l4.launched().worstKernel()).isNull();
        assertThat(l4.launched().kernels()).isEmpty();
        assertThat(l4.launched().cannotRun()).extracting(FunctionNote::library).hasSize(5).containsOnly("launch-probe");
    }

    @Test
    void theLaunchedFiguresEqualTheCheckResult() {
        for (DeviceResult result : outcome.result().devices()) {
            LaunchedDeviceReport launched = device(result.device().name()).launched();
            assertThat(launched.reservationBytes()).isEqualTo(result.launched().reservationBytes());
            assertThat(launched.incrementBytes()).isEqualTo(result.launched().incrementBytes());
            assertThat(launched.kernels()).extracting(row -> row.kernel().name() + " " + row.kernel().arch() + " "
                    + row.maxDynamicShared() + " " + row.sharedPerBlock() + " " + row.attributions())
                    .containsExactlyElementsOf(result.launched().kernels().stream().map(LaunchedReportModelTest::key)
                            .toList());
            assertThat(launched.staticWorstKernel() == null ? null : launched.staticWorstKernel().name())
                    .isEqualTo(result.worst() == null ? null : result.worst().name());
        }
        assertThat(ReportModel.of(outcome.result())).isEqualTo(model);
    }

    private static String key(LaunchedImage image) {
        return image.image().name() + " " + image.image().arch().sassLabel() + " " + image.launch().maxDynamicShared()
                + " " + image.sharedPerBlock() + " " + List.copyOf(image.launch().attributions());
    }

    @Test
    void aReportWithoutALaunchLogHasNoLaunchedData() throws Exception {
        Path plain = tmp.resolve("plain.json");
        String json = Files.readString(outcome.reports().get(0));
        // the same report as check writes it without a launch log: drop the launched keys
        com.fasterxml.jackson.databind.node.ObjectNode root = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        root.remove(List.of("launched", "unmatchedLaunchedKernels"));
        root.get("devices").forEach(device -> ((com.fasterxml.jackson.databind.node.ObjectNode) device).remove(List.of(
                "launchedHeadline", "launchedReservationBytes", "launchedIncrementBytes", "launchedWorstKernel",
                "staticWorstKernel", "launchedKernels", "launchedJitKernels", "launchedCannotRunKernels")));
        root.get("libraries").forEach(library -> ((com.fasterxml.jackson.databind.node.ObjectNode) library)
                .remove("foundThrough"));
        Files.writeString(plain, root.toString());
        ReportModel without = ReportModel.read(plain);
        assertThat(without.launched()).isNull();
        assertThat(without.devices()).allSatisfy(device -> {
            assertThat(device.launched()).isNull();
            assertThat(device.launchedHeadline()).isFalse();
        });
        assertThat(without.libraries()).noneMatch(LibraryReport::foundThroughLibraryLog);
    }
}
