package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.cudastackbudget.core.baseline.BaselineOptions;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.BaselineReport;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.ByteSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, baselines: a check compared with the report of an earlier check, both over real nvcc-built libraries
 * (target/test-cuda) read by the native reader. The earlier check scans libframes.so; the later one adds
 * libjitmixed.so, whose jitFrame&lt;16400&gt; (sm_90) becomes the H200's worst kernel, while the L4 (which runs only
 * libframes.so's sm_80 image) keeps its figure.
 */
class BaselineCheckTest {

    private static final String H200 = "h200-141gb";
    private static final String L4 = "l4";

    @TempDir
    Path tmp;

    private final List<String> infos = new ArrayList<>();

    private final CheckListener listener = new CheckListener() {
        @Override
        public void info(String line) {
            infos.add(line);
        }

        @Override
        public void warn(String line) {
        }
    };

    private CheckOptions.Builder options(String out, String... libraries) {
        return CheckOptions.builder().libraryFiles(java.util.Arrays.stream(libraries)
                        .map(RecordedCuobjdump::testCuda).toList())
                .engine("native").devicePresets(H200 + "," + L4).detectLocalDevices(false).useCache(false)
                .environment(Map.of("PATH", System.getenv().getOrDefault("PATH", "")))
                .outputDirectory(tmp.resolve(out));
    }

    /** The earlier check's JSON report (libframes.so only). */
    private Path earlierReport() throws Exception {
        CheckRunner.Outcome earlier = CheckRunner.run(options("earlier", "libframes.so").build(), CheckListener.SILENT);
        assertThat(earlier.failed()).isFalse();
        return tmp.resolve("earlier").resolve(CheckRunner.JSON_REPORT);
    }

    private CheckRunner.Outcome later(Path baseline, String maxGrowth) throws CheckException {
        return CheckRunner.run(options("later", "libframes.so", "libjitmixed.so")
                .baseline(new BaselineOptions(baseline, maxGrowth, false)).build(), listener);
    }

    /** The JSON report the later check wrote, read back. */
    private ReportModel written() throws Exception {
        return ReportModel.read(tmp.resolve("later").resolve(CheckRunner.JSON_REPORT));
    }

    private static List<GateCheck> baselineChecks(ReportModel model) {
        return model.checks().stream().filter(check -> check.category().equals("baseline")).toList();
    }

    @Test
    void withoutMaxGrowthTheComparisonIsReportedAndGatesNothing() throws Exception {
        Path baseline = earlierReport();
        ReportModel old = ReportModel.read(baseline);

        CheckRunner.Outcome outcome = later(baseline, null);

        assertThat(outcome.failed()).isFalse();
        ReportModel model = ReportModel.read(tmp.resolve("later").resolve(CheckRunner.JSON_REPORT));
        BaselineReport comparison = model.baseline();
        assertThat(comparison.source()).isEqualTo(baseline.toString());
        assertThat(comparison.devices()).extracting(BaselineReport.Row::device).containsExactly(H200, L4);
        BaselineReport.Row h200 = comparison.devices().get(0);
        assertThat(h200.previousBytes()).isEqualTo(old.device(H200).reservationBytes());
        assertThat(h200.currentBytes()).isEqualTo(model.device(H200).reservationBytes());
        assertThat(h200.deltaBytes()).isPositive();
        assertThat(h200.maxGrowth()).isNull();
        assertThat(h200.outcome()).isEqualTo(GateCheck.Outcome.PASS);
        assertThat(h200.kernel().library()).isEqualTo("libjitmixed.so");
        assertThat(h200.kernelChange()).isEqualTo("new");
        BaselineReport.Row l4 = comparison.devices().get(1);
        assertThat(l4.deltaBytes()).isZero();
        assertThat(l4.kernelChange()).isEqualTo("unchanged");
        assertThat(l4.previousStack()).isEqualTo(l4.kernel().stack());
        // the overall figure: the largest reservation of all devices, old and new
        assertThat(comparison.overall().previousBytes()).isEqualTo(old.devices().stream()
                .mapToLong(DeviceReport::reservationBytes).max().orElseThrow());
        assertThat(comparison.overall().currentBytes()).isEqualTo(model.device(H200).reservationBytes());
        // every comparison is a PASS check: a JUnit test case, a SARIF result, a Markdown row
        ReportModel built = ReportModel.of(outcome.result());
        assertThat(baselineChecks(built)).extracting(GateCheck::name)
                .containsExactly("baseline h200-141gb", "baseline l4", "baseline overall");
        assertThat(baselineChecks(built)).allMatch(check -> check.outcome() == GateCheck.Outcome.PASS);
        assertThat(baselineChecks(built).get(0).message()).contains("not gated (no maxGrowth)");
        // the kernels of the rows are the devices' headline kernels
        assertThat(h200.kernel()).isEqualTo(model.device(H200).worstKernel());
        assertThat(comparison.overall().kernel()).isEqualTo(model.device(H200).worstKernel());
        assertThat(outcome.reportLines()).contains("Baseline: " + baseline);
        assertThat(outcome.reportLines()).anyMatch(line -> line.startsWith("  h200-141gb: "
                + ByteSize.format(h200.previousBytes()) + " -> " + ByteSize.format(h200.currentBytes())));
    }

    @Test
    void aGrowthOverAPercentageFailsNamingDeviceBothReservationsAndTheNewKernel() throws Exception {
        Path baseline = earlierReport();
        long old = ReportModel.read(baseline).device(H200).reservationBytes();

        CheckRunner.Outcome outcome = later(baseline, "10%");

        assertThat(outcome.failed()).isTrue();
        ReportModel model = ReportModel.of(outcome.result());
        long now = model.device(H200).reservationBytes();
        // the budgets are not exceeded: the failures are the baseline's
        assertThat(model.violations()).isEmpty();
        assertThat(outcome.violations()).hasSize(2);
        String h200 = outcome.violations().get(0);
        assertThat(h200).startsWith("h200-141gb: the reservation grew from " + ByteSize.format(old) + " to "
                + ByteSize.format(now)).contains("more than maxGrowth 10% allows (+" + ByteSize.format(old / 10)
                + ")").contains("kernel void jitFrame<16400>(char*, int) [sm_90] in libjitmixed.so is new since the "
                + "baseline");
        assertThat(outcome.violations().get(1)).startsWith("overall (the largest reservation of all devices): the "
                + "reservation grew from " + ByteSize.format(old));
        GateCheck check = baselineChecks(model).get(0);
        assertThat(check.outcome()).isEqualTo(GateCheck.Outcome.FAIL);
        assertThat(check.device()).isEqualTo(H200);
        assertThat(check.library()).isEqualTo("libjitmixed.so");
        assertThat(check.arch()).isEqualTo("sm_90");
        assertThat(check.actual()).isEqualTo(now);
        assertThat(check.limit()).isEqualTo(old + old / 10);
        // the L4 did not grow
        assertThat(baselineChecks(model).get(1).outcome()).isEqualTo(GateCheck.Outcome.PASS);
    }

    @Test
    void aGrowthOfExactlyTheAllowedBytesPassesAndOneByteMoreFails() throws Exception {
        Path baseline = earlierReport();
        later(baseline, null);
        long delta = written().baseline().devices().get(0).deltaBytes();

        assertThat(later(baseline, String.valueOf(delta)).failed()).isFalse();
        CheckRunner.Outcome over = later(baseline, String.valueOf(delta - 1));
        assertThat(over.failed()).isTrue();
        // the H200 and the overall figure (the H200's) grew by one byte more than allowed
        assertThat(over.violations()).hasSize(2).allMatch(line -> line.contains("more than maxGrowth "
                + (delta - 1) + " allows (+" + ByteSize.format(delta - 1) + ")"));
    }

    @Test
    void aDevicesOwnMaxGrowthComesBeforeTheDefault() throws Exception {
        Path baseline = earlierReport();
        CheckOptions options = options("later", "libframes.so", "libjitmixed.so").devicePresets(L4)
                .devices(List.of(new DeviceDefinition(H200, null, null, null, null, null, null, null, null, "100 GiB")))
                .baseline(new BaselineOptions(baseline, "0", false)).build();

        CheckRunner.Outcome outcome = CheckRunner.run(options, listener);

        // the H200 may grow by 100 GiB; the overall figure (the H200's) is judged by the default 0 B
        List<GateCheck> checks = baselineChecks(ReportModel.of(outcome.result()));
        assertThat(checks).extracting(GateCheck::outcome).containsExactly(GateCheck.Outcome.PASS,
                GateCheck.Outcome.PASS, GateCheck.Outcome.FAIL);
        assertThat(checks.get(0).message()).contains("within its own maxGrowth 100 GiB");
        assertThat(outcome.violations()).singleElement().asString().startsWith("overall");
    }

    @Test
    void aKernelWhoseFrameGrewIsNamedWithBothFrames() throws Exception {
        // the earlier report as a build with a 1 KiB smaller frame of frameKernel<2550> on sm_90a had written it
        Path baseline = earlierReport();
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(baseline.toFile());
        long threads = 132 * 2048;
        long frame = -1;
        for (JsonNode function : root.get("functions")) {
            if (function.get("name").asText().equals("_Z11frameKernelILi2550EEvPii")) {
                for (JsonNode image : function.get("images")) {
                    if (image.get(0).asText().equals("sm_90a")) {
                        frame = image.get(2).asLong();
                        ((ArrayNode) image).set(2, frame - 1024);
                    }
                }
            }
        }
        assertThat(frame).isPositive();
        for (JsonNode device : root.get("devices")) {
            if (device.get("name").asText().equals(H200)) {
                ((ObjectNode) device).put("reservationBytes", device.get("reservationBytes").asLong() - threads * 1024);
            }
        }
        Path edited = tmp.resolve("edited.json");
        json.writeValue(edited.toFile(), root);

        CheckRunner.Outcome outcome = CheckRunner.run(options("later", "libframes.so")
                .baseline(new BaselineOptions(edited, "1 MiB", false, "app-1.0.json")).build(), listener);

        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.violations().get(0)).startsWith("h200-141gb: the reservation grew from ")
                .contains("(+" + ByteSize.format(threads * 1024) + ", ")
                .contains("over the baseline app-1.0.json")
                .endsWith("kernel void frameKernel<2550>(int*, int) [sm_90a] in libframes.so grew: its frame was "
                        + ByteSize.grouped(frame - 1024) + " B, now " + ByteSize.grouped(frame) + " B");
    }

    @Test
    void devicesOnOneSideOnlyAreInfoLinesAndRowsWithoutAVerdict() throws Exception {
        Path baseline = earlierReport();
        CheckOptions options = options("later", "libframes.so").devicePresets(H200 + ",rtx-5090")
                .baseline(new BaselineOptions(baseline, "1%", false)).build();

        CheckRunner.Outcome outcome = CheckRunner.run(options, listener);

        assertThat(outcome.failed()).isFalse();
        assertThat(infos).anyMatch(line -> line.startsWith("Baseline: device 'rtx-5090' is not in the baseline "))
                .anyMatch(line -> line.equals("Baseline: device 'l4' of the baseline " + baseline
                        + " is not checked now: not compared"));
        BaselineReport comparison = written().baseline();
        assertThat(comparison.devices()).extracting(BaselineReport.Row::device, BaselineReport.Row::note)
                .containsExactly(org.assertj.core.api.Assertions.tuple(H200, null),
                        org.assertj.core.api.Assertions.tuple("rtx-5090", "not in the baseline"),
                        org.assertj.core.api.Assertions.tuple(L4, "not in this check"));
        assertThat(comparison.devices().get(2).currentBytes()).isNull();
        assertThat(comparison.devices().get(2).outcome()).isNull();
    }

    @Test
    void theSameInputsGiveByteIdenticalReports() throws Exception {
        Path baseline = earlierReport();
        later(baseline, "10%");
        byte[] first = Files.readAllBytes(tmp.resolve("later").resolve(CheckRunner.JSON_REPORT));
        byte[] firstText = Files.readAllBytes(tmp.resolve("later").resolve(CheckRunner.TEXT_REPORT));
        later(baseline, "10%");
        assertThat(tmp.resolve("later").resolve(CheckRunner.JSON_REPORT)).hasBinaryContent(first);
        assertThat(tmp.resolve("later").resolve(CheckRunner.TEXT_REPORT)).hasBinaryContent(firstText);
        assertThat(new String(first, java.nio.charset.StandardCharsets.UTF_8)).contains("\"baseline\":");
    }

    @Test
    void aMissingBaselineIsAnErrorNamingTheFileAndIgnoreMissingBaseline() {
        Path missing = tmp.resolve("cuda-stack-budget-0.9.json");

        assertThatThrownBy(() -> later(missing, "10%")).isInstanceOf(CheckException.class)
                .hasMessage("baseline " + missing + " does not exist: name the cuda-stack-budget.json of an earlier "
                        + "check, or set ignoreMissingBaseline=true where there is none yet (a first release)");
    }

    @Test
    void withIgnoreMissingBaselineAMissingOneIsOneInfoLine() throws Exception {
        Path missing = tmp.resolve("cuda-stack-budget-0.9.json");

        CheckRunner.Outcome outcome = CheckRunner.run(options("later", "libframes.so", "libjitmixed.so")
                .baseline(new BaselineOptions(missing, "10%", true)).build(), listener);

        assertThat(outcome.failed()).isFalse();
        assertThat(written().baseline()).isNull();
        assertThat(infos).filteredOn(line -> line.contains("does not exist")).singleElement().isEqualTo("Baseline "
                + missing + " does not exist: nothing to compare with (a first release?); ignoreMissingBaseline is "
                + "set, so the check goes on without one");
        assertThat(Files.readString(tmp.resolve("later").resolve(CheckRunner.JSON_REPORT))).doesNotContain("baseline");
    }

    @Test
    void aCorruptBaselineIsAlwaysOneErrorNamingTheFile() throws Exception {
        Path corrupt = Files.writeString(tmp.resolve("old.json"), "{\"schemaVersion\": 2, \"devices\": [");
        Path notAReport = Files.writeString(tmp.resolve("other.json"), "{\"name\": \"x\"}");

        assertThatThrownBy(() -> CheckRunner.run(options("later", "libframes.so")
                .baseline(new BaselineOptions(corrupt, null, true)).build(), listener))
                .isInstanceOf(CheckException.class)
                .hasMessageStartingWith("baseline " + corrupt + ": not valid JSON at line 1")
                .hasMessageEndingWith("; name the cuda-stack-budget.json an earlier check wrote")
                .hasMessageNotContaining("run the check goal");
        assertThatThrownBy(() -> CheckRunner.run(options("later", "libframes.so")
                .baseline(new BaselineOptions(notAReport, null, false)).build(), listener))
                .isInstanceOf(CheckException.class)
                .hasMessage("baseline " + notAReport + ": no schemaVersion: not a cuda-stack-budget report; name the "
                        + "cuda-stack-budget.json an earlier check wrote");
    }

    @Test
    void aCheckThatFindsNoKernelsComparesNothingAndSaysSo() throws Exception {
        Path baseline = earlierReport();

        CheckRunner.Outcome outcome = CheckRunner.run(options("later", "libhostonly.so")
                .baseline(new BaselineOptions(baseline, "0", false)).build(), listener);

        assertThat(outcome.failed()).isFalse();
        assertThat(infos).contains("Baseline " + baseline + ": no CUDA kernels were found, nothing compared");
        assertThat(written().baseline()).isNull();
    }

    @Test
    void aBadMaxGrowthIsOneErrorNamingIt() {
        CheckOptions options = options("later", "libframes.so")
                .baseline(new BaselineOptions(tmp.resolve("x.json"), "ten percent", false)).build();

        assertThatThrownBy(() -> CheckRunner.validate(options)).isInstanceOf(CheckException.class)
                .hasMessageStartingWith("maxGrowth 'ten percent' is not a size");
    }
}
