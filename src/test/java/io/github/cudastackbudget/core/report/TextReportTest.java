package io.github.cudastackbudget.core.report;

import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NCCL;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.TORCHAUDIO;
import static io.github.cudastackbudget.core.report.RecordedChecks.SEND_RECV;
import static io.github.cudastackbudget.core.report.RecordedChecks.SEND_RECV_DISPLAY;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.engine.ResourceUsageParser;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextReportTest {

    private static final String USED_BY = "com.example:gpu-app:1.0";

    private static CheckResult nccl;
    private static Path ncclFile;
    private static Path outputDirectory;

    @BeforeAll
    static void runTheCheckOnce(@TempDir Path work) throws Exception {
        CheckRunner.Outcome outcome = RecordedChecks.run(RecordedChecks.options(work, NCCL, "h200-141gb,l4", List.of(),
                "256 MiB", USED_BY));
        nccl = outcome.result();
        ncclFile = work.resolve("libs").resolve(NCCL).toAbsolutePath().normalize();
        outputDirectory = work.resolve("out");
    }

    /** The frames (one per function: its largest sm_90 image) above zero, largest first: what an H200 runs. */
    private static List<Long> sm90Frames() throws Exception {
        try (BufferedReader reader = RecordedCuobjdump.open(NCCL)) {
            Map<String, Long> perFunction = ResourceUsageParser.parse(NCCL, null, reader).records().stream()
                    .filter(r -> r.arch().sassLabel().equals("sm_90"))
                    .collect(Collectors.toMap(KernelRecord::name, KernelRecord::stack, Math::max));
            return perFunction.values().stream().filter(frame -> frame > 0).sorted(Comparator.reverseOrder()).toList();
        }
    }

    @Test
    void headerCounts() {
        List<String> lines = TextReport.render(ReportModel.of(nccl), 25, false);

        assertThat(lines.get(0)).isEqualTo("CUDA kernel stack budget");
        assertThat(lines).contains(
                "  files probed:                1",
                "  files with device code:      1",
                "  CUDA libraries:              1",
                "  kernels inspected:           5,312 records of 771 functions",
                "  embedded SASS:               sm_75, sm_80, sm_90, sm_100, sm_100f, sm_110, sm_120",
                "  devices:                     2 (configured)");
    }

    @Test
    void deviceBlocks() {
        List<String> lines = TextReport.render(ReportModel.of(nccl), 25, false);

        assertThat(lines).containsSubsequence(
                "h200-141gb (compute capability 9.0, sm_90): FAIL",
                "  max resident threads: 270,336 = 132 SMs x 2048",
                "  worst-case reservation: 511.50 MiB (536,346,624 B) = 270,336 threads x 1,984 B"
                        + " (frame 1,976 B rounded up to 16)",
                "      over the default 1024 B limit: 247.50 MiB (259,522,560 B)",
                "      largest stack frame 1,976 B in " + NCCL + " [sm_90]",
                "      kernel: " + SEND_RECV_DISPLAY,
                "      shared memory: 22,592 B static",
                "  budget: 256.00 MiB (268,435,456 B) (199.8% used) EXCEEDED",
                "l4 (compute capability 8.9, sm_89): PASS",
                "  max resident threads: 89,088 = 58 SMs x 1536",
                "  note: sm_89 not embedded; using compatible arch sm_80.",
                "  worst-case reservation: 127.78 MiB (133,988,352 B) = 89,088 threads x 1,504 B",
                "      largest stack frame 1,504 B in " + NCCL + " [sm_80]",
                "      kernel: " + SEND_RECV_DISPLAY,
                "      shared memory: 7,104 B static",
                "  budget: 256.00 MiB (268,435,456 B) (49.9% used)");
        assertThat(lines).as("the log's real warnings are not repeated as report lines")
                .noneMatch(line -> line.strip().startsWith("WARNING"));
        assertThat(lines).noneMatch(line -> line.contains("kernels with a stack frame"))
                .noneMatch(line -> line.contains("used by"));
    }

    @Test
    void verboseListsKernelsCappedByTopWithALineForTheRest() throws Exception {
        List<Long> frames = sm90Frames();
        int top = 3;
        List<String> lines = TextReport.render(ReportModel.of(nccl), top, true);

        int header = lines.indexOf("  kernels with a stack frame (" + frames.size() + "):");
        assertThat(header).as("h200 listing header in %s", lines).isPositive();
        assertThat(lines.get(header + 1)).startsWith("    STACK     1976 B  LOCAL      0 B  SHARED  22592 B  REG  96  sm_90 ")
                .contains(SEND_RECV_DISPLAY).endsWith("(" + NCCL + ")");
        assertThat(lines.subList(header + 1, header + 1 + top)).allMatch(line -> line.startsWith("    STACK "));
        assertThat(lines.get(header + 1 + top)).isEqualTo("    (" + (frames.size() - top) + " more kernels with STACK "
                + frames.get(frames.size() - 1) + "-" + frames.get(top) + " B not shown; set top to 0 to list all)");
        assertThat(lines).containsSubsequence("CUDA libraries:",
                "  " + NCCL + "  (771 functions; SASS sm_75, sm_80, sm_90, sm_100, sm_100f, sm_110, sm_120; PTX compute_120)",
                "    path:    " + ncclFile,
                "    used by: " + USED_BY);
    }

    @Test
    void topZeroListsEverything() throws Exception {
        List<Long> frames = sm90Frames();
        List<String> lines = TextReport.render(ReportModel.of(nccl), 0, true);

        int header = lines.indexOf("  kernels with a stack frame (" + frames.size() + "):");
        assertThat(header).isPositive();
        assertThat(lines.subList(header + 1, header + 1 + frames.size())).allMatch(line -> line.startsWith("    STACK "));
        assertThat(lines).noneMatch(line -> line.contains("more kernels with STACK"));
        List<Long> listed = lines.subList(header + 1, header + 1 + frames.size()).stream()
                .map(line -> Long.parseLong(line.substring("    STACK ".length(), line.indexOf(" B ")).strip())).toList();
        assertThat(listed).isEqualTo(frames);
    }

    @Test
    void eachKernelLineIsItsRowInTheListingsFormat() {
        // the lines are built by hand (issue 11); this is the format they keep, for every row of every device
        ReportModel model = ReportModel.of(nccl);
        List<String> lines = TextReport.render(model, 0, true);
        int checked = 0;
        for (io.github.cudastackbudget.core.report.model.DeviceReport device : model.devices()) {
            for (io.github.cudastackbudget.core.report.model.KernelRow kernel : device.kernelsWithFrame()) {
                String expected = String.format(java.util.Locale.ROOT,
                        "    STACK %8s B  LOCAL %6d B  SHARED %6d B  REG %3d  %-8s %s  (%s)",
                        kernel.stackUnknown() ? "UNKNOWN" : Long.toString(kernel.stack()), kernel.local(),
                        kernel.shared(), kernel.registers(), kernel.archLabel(), kernel.displayName(),
                        kernel.library());
                assertThat(lines).contains(expected);
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(10);
    }

    @Test
    void textReportFileIsTheFullVerboseReport() throws Exception {
        Path file = outputDirectory.resolve(CheckRunner.TEXT_REPORT);

        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).isEqualTo(TextReport.render(ReportModel.of(nccl), 0, true));
    }

    @Test
    void noFrameAnywhereSaysTheDefaultLimitIsHeld(@TempDir Path work) throws Exception {
        // torchaudio's only frame (8 B) is in its sm_90 image; an L4 runs the sm_86 images
        CheckResult result = RecordedChecks.run(RecordedChecks.options(work, TORCHAUDIO, "l4", List.of(), null, ""))
                .result();
        List<String> lines = TextReport.render(ReportModel.of(result), 25, true);

        assertThat(lines).contains("  worst-case reservation: 0 B (no kernel has a stack frame; the driver's default"
                + " 1024 B per thread = 87.00 MiB (91,226,112 B) is held anyway)",
                "  budget: none (set maxReservation to gate this device)",
                "  kernels with a stack frame (0):",
                "    used by: (not attributed)");
        assertThat(result.devices().get(0).chosenArch().sassLabel()).isEqualTo("sm_86");
    }

    @Test
    void worstKernelNameIsTheDemangledName() {
        assertThat(nccl.devices().get(0).worst().name()).isEqualTo(SEND_RECV);
        assertThat(nccl.displayName(SEND_RECV)).isEqualTo(SEND_RECV_DISPLAY);
    }

    @Test
    // regression: the "more kernels" line once printed an UNKNOWN stack as 0
    void hiddenKernelsWithUnknownStackAreNotCalledZero(@TempDir Path work) throws Exception {
        // nvlink output with recursion: cuobjdump prints STACK:UNKNOWN (docs/cuda-binary-format.md 4.7)
        String text = String.join("\n", "", "Fatbin elf code:", "================", "arch = sm_90", "code version = [1,8]",
                "host = linux", "compile_size = 64bit", "", "Resource usage:", " Common:", "  GLOBAL:0",
                " Function _Z10recursiveAPii:",
                "  REG:24 STACK:UNKNOWN SHARED:1024 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0",
                " Function _Z10recursiveBPii:",
                "  REG:24 STACK:UNKNOWN SHARED:1024 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0",
                " Function _Z11frameKernelILi64EEvPii:",
                "  REG:8 STACK:256 SHARED:1024 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0",
                " Function _Z11frameKernelILi16EEvPii:",
                "  REG:8 STACK:64 SHARED:1024 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0");
        Path cuobjdump = RecordedCuobjdump.executable(work.resolve("cuobjdump"), "#!/bin/sh\n"
                + "[ \"$1\" = --version ] && { echo 'Cuda compilation tools, release 13.0, V13.0.85'; exit 0; }\n"
                + "cat '" + Files.writeString(work.resolve("usage.txt"), text) + "'\n");
        CheckOptions options = new CheckOptions(List.of(),
                List.of(RecordedCuobjdump.testCuda("libframes.so")), "", "cuobjdump", cuobjdump.toString(),
                Duration.ofSeconds(60), 1, List.of(), "h200-141gb", false, null, null, work.resolve("out"), 1,
                true, Map.of());
        CheckResult result = RecordedChecks.run(options).result();
        List<String> lines = TextReport.render(ReportModel.of(result), 1, true);

        assertThat(lines).contains("  kernels with a stack frame (4):");
        String rest = lines.stream().filter(line -> line.contains("more kernels with STACK")).findFirst().orElseThrow();
        assertThat(rest).startsWith("    (3 more kernels with STACK ").contains("UNKNOWN").doesNotContain("64-0 B");
    }

    @Test
    void summaryCutsLongKernelNamesSoItStaysOneScreenWide() {
        String longName = "void at::native::unrolled_elementwise_kernel<" + "x".repeat(300) + ">";
        String cut = TextReport.abbreviate(longName, TextReport.SUMMARY_NAME_WIDTH);
        org.assertj.core.api.Assertions.assertThat(cut).hasSize(100).endsWith("...")
                .startsWith("void at::native::unrolled_elementwise_kernel<");
        org.assertj.core.api.Assertions.assertThat(TextReport.abbreviate("demo::stageTiles", 100))
                .isEqualTo("demo::stageTiles");
    }
}
