package io.github.cudastackbudget.core.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.report.JsonReportWriter;
import io.github.cudastackbudget.core.report.html.HtmlReportWriter;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.SuppressedRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Suppressions over the nvcc-built libframes.so (frames of 10,200 B, 4,096 B, 256 B, 0 B and one UNKNOWN;
 * ptxas-info.txt), judged on an H200 (270,336 resident threads) and an L4 (89,088) with a 2 GiB budget: the
 * 10,200-B frame reserves 270,336 x 10,208 = 2,759,589,888 B on the H200 (over), 909,410,304 B on the L4 (within).
 * The clock is fixed at 2026-12-02.
 */
class SuppressionsCheckTest {

    private static final String BIG = "_Z11frameKernelILi2550EEvPii";
    private static final String BIG_READABLE = "void frameKernel<2550>(int*, int)";
    private static final String MIDDLE = "_Z11frameKernelILi1024EEvPii";
    private static final Clock TODAY = Clock.fixed(Instant.parse("2026-12-02T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    private final List<String> warnings = new ArrayList<>();

    private Path suppressions(String entries) throws Exception {
        return Files.writeString(tmp.resolve("suppressions.xml"), "<suppressions>\n" + entries + "</suppressions>\n");
    }

    /** An entry; the kernel pattern is escaped for XML ({@code <} as {@code &lt;}), as a user writes it. */
    private static String entry(String kernel, String extra) {
        return "  <suppress>\n    <kernel>" + kernel.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                + "</kernel>\n" + extra + "    <reason>the tile test kernel</reason>\n"
                + "  </suppress>\n";
    }

    private CheckRunner.Outcome run(Path file, boolean failOnUnused, String out) throws CheckException {
        CheckOptions options = CheckOptions.builder()
                .libraryFiles(List.of(RecordedCuobjdump.testCuda("libframes.so"))).engine("native")
                .devicePresets("h200-141gb,l4").detectLocalDevices(false).maxReservation("2 GiB")
                .outputDirectory(tmp.resolve(out)).environment(Map.of("PATH", System.getenv().getOrDefault("PATH", "")))
                .gate(new GateOptions(file, failOnUnused).withClock(TODAY)).build();
        return CheckRunner.run(options, new CheckListener() {
            @Override
            public void info(String line) {
            }

            @Override
            public void warn(String line) {
                warnings.add(line);
            }
        });
    }

    private static DeviceResult device(CheckRunner.Outcome outcome, String name) {
        return outcome.result().devices().stream().filter(d -> d.device().name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void withoutSuppressionsTheH200IsOverBudget() throws Exception {
        CheckRunner.Outcome outcome = run(null, false, "plain");

        assertThat(outcome.failed()).isTrue();
        assertThat(device(outcome, "h200-141gb").reservationBytes()).isEqualTo(2_759_589_888L);
        assertThat(outcome.result().suppressed()).isEmpty();
        assertThat(outcome.result().checks()).isEmpty();
    }

    @Test
    void anActiveSuppressionTakesTheKernelOutOfTheVerdictsAndTheNextWorstDecides() throws Exception {
        Path file = suppressions(entry("void frameKernel<2550>*", "    <until>2099-12-31</until>\n"));

        CheckRunner.Outcome outcome = run(file, false, "out");

        assertThat(outcome.failed()).isFalse();
        DeviceResult h200 = device(outcome, "h200-141gb");
        assertThat(h200.status()).isEqualTo(DeviceResult.Status.PASS);
        assertThat(h200.worst().name()).isEqualTo(MIDDLE);
        assertThat(h200.reservationBytes()).isEqualTo(270_336L * 4_096);
        assertThat(h200.selected()).noneMatch(k -> k.name().equals(BIG));
        assertThat(h200.excluded()).singleElement().satisfies(k -> {
            assertThat(k.name()).isEqualTo(BIG);
            assertThat(k.arch().sassLabel()).isEqualTo("sm_90a");
        });
        assertThat(device(outcome, "l4").worst().name()).isEqualTo(MIDDLE);
        // listed apart, with the reason, device by device
        assertThat(outcome.result().suppressed()).extracting(SuppressedKernel::device, k -> k.image().name(),
                SuppressedKernel::reservationBytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("h200-141gb", BIG, 2_759_589_888L),
                        org.assertj.core.groups.Tuple.tuple("l4", BIG, 909_410_304L));
        assertThat(outcome.result().checks()).singleElement().satisfies(check -> {
            assertThat(check.category()).isEqualTo("suppression");
            assertThat(check.name()).isEqualTo("suppression[1] void frameKernel<2550>*");
            assertThat(check.outcome()).isEqualTo(GateCheck.Outcome.PASS);
            assertThat(check.message()).contains("suppresses 2 kernel image(s) on h200-141gb, l4: the tile test kernel "
                    + "(until 2099-12-31)");
        });
        assertThat(warnings).noneMatch(line -> line.contains("suppression"));

        // every report lists it: the model, the JSON (read back equal), the text and the page
        ReportModel model = ReportModel.of(outcome.result());
        assertThat(model.suppressed()).hasSize(2);
        SuppressedRow row = model.suppressed().get(0);
        assertThat(row.kernel().displayName()).isEqualTo(BIG_READABLE);
        assertThat(row.because()).isEqualTo("suppression[1], until 2099-12-31: the tile test kernel");
        Path json = tmp.resolve("out").resolve(JsonReportWriter.FILE_NAME);
        assertThat(Files.readString(json)).contains("\"suppressed\"").contains("\"reason\":\"the tile test kernel\"");
        assertThat(ReportModel.read(json).suppressed()).isEqualTo(model.suppressed());
        assertThat(outcome.reportLines()).contains("Suppressed kernels (left out of the verdicts; 2):",
                "  h200-141gb: " + BIG_READABLE + " [sm_90a] in libframes.so, 10,200 B per thread (alone it would "
                        + "reserve 2.57 GiB (2,759,589,888 B))",
                "    suppression[1], until 2099-12-31: the tile test kernel");
        assertThat(HtmlReportWriter.render(model, 25)).contains("<h2>Suppressed kernels</h2>")
                .contains("the tile test kernel");
        assertThat(io.github.cudastackbudget.core.report.MarkdownReport.render(model,
                io.github.cudastackbudget.core.text.Frontend.PARAMETERS, List.of(), false))
                .contains("### Suppressed")
                // Markdown-escaped as every cell of the summary is
                .contains("| h200-141gb | void frameKernel&lt;2550&gt;(int\\*, int) | sm\\_90a | libframes.so | 10,200 B | "
                        + "2.57 GiB | suppression\\[1\\], until 2099-12-31: the tile test kernel |");
    }

    @Test
    void theMangledNameAndADeviceScopeMatchToo() throws Exception {
        Path file = suppressions(entry(BIG, "    <library>lib*.so</library>\n    <device>h200*</device>\n"));

        CheckRunner.Outcome outcome = run(file, false, "out");

        assertThat(outcome.failed()).isFalse();
        assertThat(device(outcome, "h200-141gb").excluded()).extracting(k -> k.name()).containsExactly(BIG);
        // the L4 is outside the entry's device: its verdict still counts the kernel
        assertThat(device(outcome, "l4").excluded()).isEmpty();
        assertThat(device(outcome, "l4").worst().name()).isEqualTo(BIG);
        assertThat(outcome.result().suppressed()).extracting(SuppressedKernel::device).containsExactly("h200-141gb");
    }

    @Test
    void anExpiredEntrySuppressesNothingAndFailsNamingIt() throws Exception {
        Path file = suppressions(entry(BIG_READABLE, "    <until>2026-12-01</until>\n"));

        CheckRunner.Outcome outcome = run(file, false, "out");

        assertThat(outcome.failed()).isTrue();
        assertThat(device(outcome, "h200-141gb").worst().name()).isEqualTo(BIG);
        assertThat(outcome.result().suppressed()).isEmpty();
        assertThat(outcome.violations()).contains(file + ": suppression[1] (kernel '" + BIG_READABLE + "', line 2) "
                + "expired on 2026-12-01 (today is 2026-12-02): it suppresses nothing, its kernels are judged again; "
                + "renew its <until> with a reason, or remove the entry");
        assertThat(outcome.result().checks()).singleElement().extracting(GateCheck::outcome)
                .isEqualTo(GateCheck.Outcome.FAIL);
    }

    @Test
    void anEntryUntilTodayStillApplies() throws Exception {
        Path file = suppressions(entry(BIG, "    <until>2026-12-02</until>\n"));

        assertThat(run(file, false, "out").failed()).isFalse();
    }

    @Test
    void anUnusedEntryWarnsOrFailsWithTheOption() throws Exception {
        Path file = suppressions(entry(BIG, "") + entry("noSuchKernel*", "") + entry(BIG, "    <library>libother.so"
                + "</library>\n"));

        CheckRunner.Outcome warned = run(file, false, "warned");

        assertThat(warned.failed()).isFalse();
        assertThat(warned.result().checks()).extracting(GateCheck::name, GateCheck::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple("suppression[1] " + BIG, GateCheck.Outcome.PASS),
                org.assertj.core.groups.Tuple.tuple("suppression[2] noSuchKernel*", GateCheck.Outcome.WARN),
                org.assertj.core.groups.Tuple.tuple("suppression[3] " + BIG, GateCheck.Outcome.WARN));
        assertThat(warnings).filteredOn(line -> line.contains("suppression[")).containsExactly(
                file + ": suppression[2] (kernel 'noSuchKernel*', line 6) matches no kernel on any device: remove it "
                        + "(failOnUnusedSuppressions=true fails the build on it)",
                file + ": suppression[3] (kernel '" + BIG + "', library 'libother.so', line 10) matches no kernel on "
                        + "any device: remove it (failOnUnusedSuppressions=true fails the build on it)");

        CheckRunner.Outcome failed = run(file, true, "failed");

        assertThat(failed.failed()).isTrue();
        assertThat(failed.violations()).hasSize(2).allMatch(line -> line.contains("matches no kernel on any device"));
    }

    @Test
    void theSameInputsGiveTheSameReport() throws Exception {
        Path file = suppressions(entry(BIG, ""));
        run(file, false, "one");
        run(file, false, "two");

        assertThat(Files.readAllBytes(tmp.resolve("one").resolve(JsonReportWriter.FILE_NAME)))
                .isEqualTo(Files.readAllBytes(tmp.resolve("two").resolve(JsonReportWriter.FILE_NAME)));
    }

    @Test
    void aBrokenFileStopsTheCheckBeforeTheScanWithOneLine() throws Exception {
        Path file = Files.writeString(tmp.resolve("bad.xml"), "<suppressions>\n<suppress><kernel>x</kernel>"
                + "</suppress>\n</suppressions>");

        // the build's configuration, not a tool: failOnError does not cover it
        assertThatThrownBy(() -> run(file, false, "out"))
                .isInstanceOf(CheckRunner.InvalidOptions.class)
                .hasMessage(file + ", line 2: suppression[1] (line 2) has no <reason>: say why the kernel may exceed "
                        + "the budgets");
        // the report says so (none is left from an earlier run)
        assertThat(Files.readString(tmp.resolve("out").resolve(JsonReportWriter.FILE_NAME))).contains("has no <reason>");
    }
}
