package io.github.cudastackbudget.core.report;

import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NCCL;
import static io.github.cudastackbudget.core.report.RecordedChecks.SEND_RECV;
import static io.github.cudastackbudget.core.report.RecordedChecks.SEND_RECV_DISPLAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.check.CheckRequest;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.check.StackBudgetCheck;
import io.github.cudastackbudget.core.device.DeviceOrigin;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.demangle.Demangler;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.device.DeviceResolver;
import io.github.cudastackbudget.core.device.GpuCatalog;
import io.github.cudastackbudget.core.engine.KernelEngine;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.engine.ResourceUsageParser;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonReportWriterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MIB_256 = 256L * 1024 * 1024;

    @TempDir
    Path tmp;

    private static List<JsonNode> list(JsonNode array) {
        assertThat(array).as("JSON array").isNotNull();
        assertThat(array.isArray()).as("%s is an array", array).isTrue();
        return StreamSupport.stream(array.spliterator(), false).toList();
    }

    private static List<KernelRecord> ncclRecords() throws IOException {
        try (BufferedReader reader = RecordedCuobjdump.open(NCCL)) {
            return ResourceUsageParser.parse(NCCL, null, reader).records();
        }
    }

    private CheckRunner.Outcome ncclOnH200AndL4(Path work) throws Exception {
        return RecordedChecks.run(RecordedChecks.options(work, NCCL, "h200-141gb,l4", List.of(), "256 MiB",
                "com.example:gpu-app:1.0"));
    }

    @Test
    void reportCarriesTheInterfaceKeysAndTheRecordedFigures() throws Exception {
        CheckRunner.Outcome outcome = ncclOnH200AndL4(tmp);
        Path file = tmp.resolve("out").resolve("cuda-stack-budget.json");
        assertThat(outcome.reports()).contains(file);

        JsonNode written = JSON.readTree(file.toFile());
        assertThat(written.get("schemaVersion").isInt()).isTrue();
        assertThat(written.get("schemaVersion").intValue()).isEqualTo(2);
        // each function once: 771 functions for 5,312 records
        assertThat(list(written.get("functions"))).hasSize(771);
        assertThat(written.has("kernels")).isFalse();
        JsonNode root = SchemaTwo.asVersionOne(written);

        List<KernelRecord> records = ncclRecords();
        JsonNode library = list(root.get("libraries")).get(0);
        assertThat(list(root.get("libraries"))).hasSize(1);
        assertThat(library.get("path").textValue())
                .isEqualTo(tmp.resolve("libs").resolve(NCCL).toAbsolutePath().normalize().toString());
        assertThat(library.get("library").textValue()).isEqualTo(NCCL);
        assertThat(library.get("kernels").longValue())
                .isEqualTo(records.stream().map(KernelRecord::name).distinct().count()).isEqualTo(771);
        assertThat(library.get("records").intValue()).isEqualTo(5312);
        assertThat(list(library.get("arches"))).extracting(JsonNode::textValue)
                .containsExactly("sm_75", "sm_80", "sm_90", "sm_100", "sm_100f", "sm_110", "sm_120");
        assertThat(list(library.get("ptxArches"))).extracting(JsonNode::textValue).containsExactly("compute_120");
        assertThat(library.get("maxStack").longValue()).isEqualTo(2040);
        assertThat(library.get("usedBy").textValue()).isEqualTo("com.example:gpu-app:1.0");

        List<JsonNode> devices = list(root.get("devices"));
        assertThat(devices).extracting(d -> d.get("name").textValue()).containsExactly("h200-141gb", "l4");
        for (JsonNode device : devices) {
            assertThat(device.fieldNames()).toIterable().contains("name", "computeCapability", "targetArch",
                    "maxResidentThreads", "status", "chosenArch", "fellBack", "reservationBytes",
                    "staticReservationBytes", "budgetBytes", "worstKernel");
            JsonNode worst = device.get("worstKernel");
            assertThat(worst.fieldNames()).toIterable().contains("name", "displayName", "library", "arch", "stack",
                    "registers", "shared", "local");
            assertThat(device.get("reservationBytes").longValue()).as("reservation of %s", device.get("name"))
                    .isEqualTo(device.get("maxResidentThreads").longValue()
                            * RecordedChecks.roundUp16(worst.get("stack").longValue()));
            assertThat(device.get("staticReservationBytes").longValue())
                    .isEqualTo(device.get("reservationBytes").longValue());
        }

        JsonNode h200 = devices.get(0);
        assertThat(h200.get("computeCapability").textValue()).isEqualTo("9.0");
        assertThat(h200.get("targetArch").textValue()).isEqualTo("sm_90");
        assertThat(h200.get("maxResidentThreads").longValue()).isEqualTo(270_336);
        assertThat(h200.get("status").textValue()).isEqualTo("fail");
        assertThat(h200.get("chosenArch").textValue()).isEqualTo("sm_90");
        assertThat(h200.get("fellBack").booleanValue()).isFalse();
        assertThat(h200.get("reservationBytes").longValue()).isEqualTo(270_336L * 1984);
        assertThat(h200.get("budgetBytes").longValue()).isEqualTo(MIB_256);
        JsonNode h200Worst = h200.get("worstKernel");
        assertThat(h200Worst.get("name").textValue()).isEqualTo(SEND_RECV);
        assertThat(h200Worst.get("displayName").textValue()).isEqualTo(SEND_RECV_DISPLAY);
        assertThat(h200Worst.get("library").textValue()).isEqualTo(NCCL);
        assertThat(h200Worst.get("arch").textValue()).isEqualTo("sm_90");
        assertThat(h200Worst.get("stack").longValue()).isEqualTo(1976);
        assertThat(h200Worst.get("registers").intValue()).isEqualTo(96);
        assertThat(h200Worst.get("shared").longValue()).isEqualTo(22592);
        assertThat(h200Worst.get("local").longValue()).isZero();
        // the worst sm_90 frame of the recording, computed here without the plugin's selection
        assertThat(h200Worst.get("stack").longValue()).isEqualTo(records.stream()
                .filter(r -> r.arch().sassLabel().equals("sm_90")).mapToLong(KernelRecord::stack).max().orElseThrow());

        JsonNode l4 = devices.get(1);
        assertThat(l4.get("computeCapability").textValue()).isEqualTo("8.9");
        assertThat(l4.get("targetArch").textValue()).isEqualTo("sm_89");
        assertThat(l4.get("maxResidentThreads").longValue()).isEqualTo(89_088);
        assertThat(l4.get("status").textValue()).isEqualTo("pass");
        assertThat(l4.get("chosenArch").textValue()).isEqualTo("sm_80");
        assertThat(l4.get("fellBack").booleanValue()).isTrue();
        assertThat(l4.get("reservationBytes").longValue()).isEqualTo(89_088L * 1504);
        assertThat(l4.get("budgetBytes").longValue()).isEqualTo(MIB_256);
        assertThat(l4.get("worstKernel").get("name").textValue()).isEqualTo(SEND_RECV);
        assertThat(l4.get("worstKernel").get("arch").textValue()).isEqualTo("sm_80");
        assertThat(l4.get("worstKernel").get("stack").longValue()).isEqualTo(1504);
        assertThat(l4.get("worstKernel").get("shared").longValue()).isEqualTo(7104);

        List<JsonNode> kernels = list(root.get("kernels"));
        assertThat(kernels).hasSize(records.size());
        assertThat(kernels).allSatisfy(kernel -> assertThat(kernel.fieldNames()).toIterable()
                .contains("name", "displayName", "library", "arch", "registers", "stack", "shared", "local"));
        assertThat(kernels).filteredOn(k -> k.get("name").textValue().equals(SEND_RECV))
                .extracting(k -> k.get("arch").textValue(), k -> k.get("stack").longValue(),
                        k -> k.get("displayName").textValue())
                .containsExactly(tuple("sm_75", 1040L, SEND_RECV_DISPLAY), tuple("sm_80", 1504L, SEND_RECV_DISPLAY),
                        tuple("sm_90", 1976L, SEND_RECV_DISPLAY), tuple("sm_100", 2040L, SEND_RECV_DISPLAY),
                        tuple("sm_110", 2040L, SEND_RECV_DISPLAY), tuple("sm_120", 1240L, SEND_RECV_DISPLAY));

        List<JsonNode> violations = list(root.get("violations"));
        assertThat(violations).singleElement().satisfies(violation -> {
            assertThat(violation.get("device").textValue()).isEqualTo("h200-141gb");
            assertThat(violation.get("kind").textValue()).isEqualTo("reservation");
            assertThat(violation.get("actual").longValue()).isEqualTo(270_336L * 1984);
            assertThat(violation.get("limit").longValue()).isEqualTo(MIB_256);
            assertThat(violation.get("kernel").textValue()).isEqualTo(SEND_RECV);
        });
    }

    @Test
    void noBudgetMeansNullBudgetAndNoViolations() throws Exception {
        CheckRunner.Outcome outcome = RecordedChecks.run(RecordedChecks.options(tmp, NCCL, "h200-141gb,l4", List.of(),
                null, ""));
        JsonNode root = SchemaTwo.asVersionOne(JSON.readTree(tmp.resolve("out").resolve("cuda-stack-budget.json").toFile()));

        assertThat(outcome.failed()).isFalse();
        assertThat(list(root.get("devices"))).allSatisfy(device -> {
            assertThat(device.get("budgetBytes").isNull()).isTrue();
            assertThat(device.get("status").textValue()).isEqualTo("pass");
        });
        assertThat(list(root.get("violations"))).isEmpty();
    }

    @Test
    void stackViolationHasKindStack() throws Exception {
        CheckOptions base = RecordedChecks.options(tmp, NCCL, "b200", List.of(), null, "");
        CheckOptions options = new CheckOptions(base.fileSets(), base.libraryFiles(), base.usedBy(), base.engine(),
                base.cuobjdump(), base.timeout(), base.parallelism(), base.devices(), base.devicePresets(), false,
                null, "2000", base.outputDirectory(), 25, false, base.environment());
        RecordedChecks.run(options);
        JsonNode root = SchemaTwo.asVersionOne(JSON.readTree(tmp.resolve("out").resolve("cuda-stack-budget.json").toFile()));

        assertThat(list(root.get("violations"))).singleElement().satisfies(violation -> {
            assertThat(violation.get("device").textValue()).isEqualTo("b200");
            assertThat(violation.get("kind").textValue()).isEqualTo("stack");
            assertThat(violation.get("actual").longValue()).isEqualTo(2040);
            assertThat(violation.get("limit").longValue()).isEqualTo(2000);
            assertThat(violation.get("kernel").textValue()).isEqualTo(SEND_RECV);
            assertThat(violation.get("arch").textValue()).isEqualTo("sm_100");
        });
        assertThat(list(root.get("devices")).get(0).get("status").textValue()).isEqualTo("fail");
    }

    @Test
    void skippedDeviceHasNullArchAndKernel() throws Exception {
        DeviceDefinition v100 = new DeviceDefinition(null, "lab V100", "7.0", null, "80", "2048", "32 GiB", null);
        CheckRunner.Outcome outcome = RecordedChecks.run(RecordedChecks.options(tmp, NCCL, "h200-141gb", List.of(v100),
                null, ""));
        JsonNode root = SchemaTwo.asVersionOne(JSON.readTree(tmp.resolve("out").resolve("cuda-stack-budget.json").toFile()));

        JsonNode skipped = list(root.get("devices")).get(0);
        assertThat(skipped.get("name").textValue()).isEqualTo("lab V100");
        assertThat(skipped.get("computeCapability").textValue()).isEqualTo("7.0");
        assertThat(skipped.get("maxResidentThreads").longValue()).isEqualTo(163_840);
        assertThat(skipped.get("status").textValue()).isEqualTo("skipped");
        assertThat(skipped.get("chosenArch").isNull()).isTrue();
        assertThat(skipped.get("worstKernel").isNull()).isTrue();
        assertThat(skipped.get("reservationBytes").longValue()).isZero();
        assertThat(skipped.get("skipReason").textValue()).startsWith("no embedded SASS runs on sm_70");
        assertThat(list(root.get("devices")).get(1).get("status").textValue()).isEqualTo("pass");
        assertThat(outcome.failed()).isFalse();
    }

    @Test
    void twoRunsWriteByteIdenticalFiles() throws Exception {
        CheckOptions options = RecordedChecks.options(tmp, NCCL, "h200-141gb,l4", List.of(), "256 MiB", "x:y:1");
        CheckRunner.Outcome first = RecordedChecks.run(RecordedChecks.withOutput(options, tmp.resolve("out1")));
        CheckRunner.Outcome second = RecordedChecks.run(RecordedChecks.withOutput(options, tmp.resolve("out2")));
        Path one = tmp.resolve("out1").resolve(JsonReportWriter.FILE_NAME);
        Path two = tmp.resolve("out2").resolve(JsonReportWriter.FILE_NAME);

        assertThat(Files.size(one)).isGreaterThan(100_000);
        assertThat(Files.mismatch(one, two)).as("first differing byte").isEqualTo(-1L);

        ByteArrayOutputStream again = new ByteArrayOutputStream();
        JsonReportWriter.write(ReportModel.of(second.result()), again);
        assertThat(again.toByteArray()).isEqualTo(Files.readAllBytes(one));
        assertThat(first.result().index().recordCount()).isEqualTo(second.result().index().recordCount());
        assertThat(tmp.resolve("out1")).isDirectoryNotContaining("glob:**.tmp");
    }

    @Test
    void functionsRenderedInRangesAtOnceAreTheBytesOfOneRange() throws Exception {
        // issue 11: the functions are rendered in ranges on several threads; a report large enough for several
        ReportModel model = io.github.cudastackbudget.core.report.html.ReportSamples.scaled(tmp, 4);
        int functions = io.github.cudastackbudget.core.report.records.ReportFunctions.of(model).list().size();
        assertThat(ParallelChunks.bounds(functions, ParallelChunks.MAX_CHUNKS).length - 1).as("ranges of %s functions",
                functions).isGreaterThanOrEqualTo(3);

        ByteArrayOutputStream one = new ByteArrayOutputStream();
        JsonReportWriter.write(model, one, 1);
        ByteArrayOutputStream ranges = new ByteArrayOutputStream();
        JsonReportWriter.write(model, ranges);
        ByteArrayOutputStream two = new ByteArrayOutputStream();
        JsonReportWriter.write(model, two, 2);

        assertThat(ranges.toByteArray()).isEqualTo(one.toByteArray());
        assertThat(two.toByteArray()).isEqualTo(one.toByteArray());
        String text = one.toString(java.nio.charset.StandardCharsets.UTF_8);
        // one function a line at the array's indent, whatever range it was rendered in
        assertThat(text).contains("\n  \"functions\": [\n    {\"library\":");
        assertThat(JSON.readTree(text).get("functions").size()).isEqualTo(functions);
        assertThat(text.split("\n    \\{\"library\":", -1)).hasSize(functions + 1);
    }

    @Test
    void rangesAreAboutEqualAndCoverTheListOnce() {
        assertThat(ParallelChunks.bounds(0, 8)).containsExactly(0, 0);
        assertThat(ParallelChunks.bounds(ParallelChunks.MIN_ITEMS * 2 - 1, 8)).containsExactly(0,
                ParallelChunks.MIN_ITEMS * 2 - 1);
        assertThat(ParallelChunks.bounds(5_000, 8)).containsExactly(0, 1250, 2500, 3750, 5_000);
        assertThat(ParallelChunks.bounds(100_000, 8)).hasSize(9).startsWith(0).endsWith(100_000);
        assertThat(ParallelChunks.bounds(100_000, 3)).containsExactly(0, 33_333, 66_666, 100_000);
    }

    @Test
    void unknownStackIsNullWithAFlag() throws Exception {
        // the format of nvlink output with a recursive kernel (docs/cuda-binary-format.md 4.7: STACK:UNKNOWN)
        String text = String.join("\n", "", "Fatbin elf code:", "================", "arch = sm_90", "code version = [1,8]",
                "host = linux", "compile_size = 64bit", "", "Resource usage:", " Common:", "  GLOBAL:0",
                " Function _Z15recursiveKernelPii:",
                "  REG:24 STACK:UNKNOWN SHARED:0 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0",
                " Function _Z11frameKernelILi64EEvPii:",
                "  REG:8 STACK:256 SHARED:0 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0",
                " Function _Z7recursei:",
                "  REG:0 STACK:0 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0");
        Path libframes = RecordedCuobjdump.testCuda("libframes.so");
        KernelEngine engine = new KernelEngine() {
            @Override
            public String id() {
                return "text";
            }

            @Override
            public String description() {
                return "text engine";
            }

            @Override
            public LibraryScan read(DeviceCodeProbe probe) {
                try {
                    ResourceUsageParser parser = ResourceUsageParser.parse("libframes.so", null, new StringReader(text));
                    return new LibraryScan(probe.file(), parser.libraries(), parser.records(), parser.sassArches(),
                            parser.ptxArches(), "", 0);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        List<DeviceTarget> devices = new DeviceResolver(GpuCatalog.bundled()).resolve(List.of(), "h200-141gb");
        CheckResult result = StackBudgetCheck.run(new CheckRequest(List.of(), List.of(libframes), "", () -> engine, 1,
                devices, DeviceOrigin.configured(), null, null, new Demangler(List.of(), Duration.ofSeconds(5)), null,
                null, null), CheckListener.SILENT);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReportWriter.write(ReportModel.of(result), out);
        JsonNode written = JSON.readTree(out.toByteArray());
        // UNKNOWN: the image's stack is null
        assertThat(list(written.get("functions"))).filteredOn(f -> f.get("name").textValue()
                .equals("_Z15recursiveKernelPii")).singleElement()
                .satisfies(f -> assertThat(f.get("images").get(0).get(2).isNull()).isTrue());
        JsonNode root = SchemaTwo.asVersionOne(written);

        List<JsonNode> kernels = list(root.get("kernels"));
        JsonNode recursive = kernels.stream().filter(k -> k.get("name").textValue().equals("_Z15recursiveKernelPii"))
                .findFirst().orElseThrow();
        assertThat(recursive.has("stack")).isTrue();
        assertThat(recursive.get("stack").isNull()).isTrue();
        assertThat(recursive.get("stackUnknown").booleanValue()).isTrue();
        JsonNode known = kernels.stream().filter(k -> k.get("name").textValue().equals("_Z11frameKernelILi64EEvPii"))
                .findFirst().orElseThrow();
        assertThat(known.get("stack").longValue()).isEqualTo(256);
        assertThat(known.has("stackUnknown")).isFalse();
        JsonNode device = list(root.get("devices")).get(0);
        assertThat(device.get("worstKernel").get("name").textValue()).isEqualTo("_Z11frameKernelILi64EEvPii");
        assertThat(device.get("reservationBytes").longValue()).isEqualTo(270_336L * 256);
        assertThat(list(device.get("unknownStackKernels"))).extracting(k -> k.get("name").textValue())
                .containsExactly("_Z15recursiveKernelPii");
        List<String> names = new ArrayList<>();
        kernels.forEach(k -> names.add(k.get("name").textValue()));
        assertThat(names).isSorted();
        assertThat(list(root.get("warnings"))).extracting(JsonNode::textValue)
                .anySatisfy(warning -> assertThat(warning).contains("UNKNOWN").contains("_Z15recursiveKernelPii"));
    }
}
