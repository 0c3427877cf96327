package io.github.cudastackbudget.core.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.report.JsonReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rules over two nvcc-built libraries with the same kernels (libframes.so and libframes_zstd.so: frames of 10,200 B,
 * 4,096 B, 256 B, 0 B and one UNKNOWN; ptxas-info.txt) on an H200 (270,336 resident threads: the 10,200-B frame
 * reserves 270,336 x 10,208 = 2,759,589,888 B) and an L4 (89,088 threads: 909,410,304 B).
 */
class RuleCheckerTest {

    private static final String BIG = "_Z11frameKernelILi2550EEvPii";
    private static final String MIDDLE = "_Z11frameKernelILi1024EEvPii";

    @TempDir
    Path tmp;

    private final List<String> warnings = new ArrayList<>();

    private static GateOptions.RuleSpec rule(String element, List<String> includes, List<String> excludes,
            GateOptions.LimitSpec... limits) {
        return new GateOptions.RuleSpec(element, includes, excludes, List.of(limits));
    }

    private static GateOptions.LimitSpec limit(String counter, String maximum, String level) {
        return new GateOptions.LimitSpec(counter, maximum, level);
    }

    private CheckOptions.Builder options(GateOptions.RuleSpec... rules) {
        return CheckOptions.builder()
                .libraryFiles(List.of(RecordedCuobjdump.testCuda("libframes.so"),
                        RecordedCuobjdump.testCuda("libframes_zstd.so")))
                .engine("native").devicePresets("h200-141gb,l4").detectLocalDevices(false)
                .outputDirectory(tmp.resolve("out")).environment(Map.of("PATH", System.getenv().getOrDefault("PATH", "")))
                .gate(GateOptions.NONE.withRules(List.of(rules)));
    }

    private CheckRunner.Outcome run(CheckOptions options) throws CheckException {
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

    private CheckRunner.Outcome run(GateOptions.RuleSpec... rules) throws CheckException {
        return run(options(rules).build());
    }

    @Test
    void aDeviceRuleJudgesTheIncludedDevicesReservation() throws Exception {
        CheckRunner.Outcome outcome = run(rule("DEVICE", List.of("h200*"), List.of(),
                limit("RESERVATION", "2 GiB", null), limit("INCREMENT", "2 GiB", "WARN"), limit("FRAME", "16 KiB", null)));

        assertThat(outcome.result().checks()).extracting(GateCheck::name, GateCheck::outcome, GateCheck::actual,
                GateCheck::limit).containsExactly(
                        tuple("rule[1] DEVICE h200-141gb RESERVATION <= 2 GiB", GateCheck.Outcome.FAIL, 2_759_589_888L,
                                2_147_483_648L),
                        tuple("rule[1] DEVICE h200-141gb INCREMENT <= 2 GiB", GateCheck.Outcome.WARN,
                                270_336L * (10_208 - 1_024), 2_147_483_648L),
                        tuple("rule[1] DEVICE h200-141gb FRAME <= 16 KiB", GateCheck.Outcome.PASS, 10_200L, 16_384L));
        GateCheck fail = outcome.result().checks().get(0);
        assertThat(fail.category()).isEqualTo("rule");
        assertThat(fail.device()).isEqualTo("h200-141gb");
        assertThat(fail.kernel()).isEqualTo(BIG);
        assertThat(fail.arch()).isEqualTo("sm_90a");
        assertThat(fail.message()).isEqualTo("rule[1] DEVICE RESERVATION <= 2 GiB: device h200-141gb: reservation "
                + "2.57 GiB (2,759,589,888 B) exceeds the maximum 2 GiB (2,147,483,648 B); kernel void frameKernel<2550>(int*, int) [sm_90a] "
                + "in libframes.so");
        // an ERROR breach fails the check as a budget does; a WARN one is logged as a warning
        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.violations()).containsExactly(fail.message());
        assertThat(warnings).contains(outcome.result().checks().get(1).message());
        assertThat(outcome.result().checks().get(1).message()).endsWith("(level WARN)");
    }

    @Test
    void theFlatBudgetIsTheShortFormOfADeviceReservationRule() throws Exception {
        CheckRunner.Outcome flat = run(options().maxReservation("2 GiB").build());
        CheckRunner.Outcome rule = run(rule(null, List.of(), List.of(), limit(null, "2 GiB", null)));

        assertThat(flat.failed()).isTrue();
        assertThat(rule.failed()).isTrue();
        assertThat(flat.result().violations()).extracting(v -> v.device(), v -> v.actual(), v -> v.limit())
                .containsExactly(tuple("h200-141gb", 2_759_589_888L, 2_147_483_648L));
        assertThat(rule.result().checks()).filteredOn(GateCheck::failed)
                .extracting(GateCheck::device, GateCheck::actual, GateCheck::limit)
                .containsExactly(tuple("h200-141gb", 2_759_589_888L, 2_147_483_648L));
    }

    @Test
    void aLibraryRuleJudgesTheIncludedLibrariesAloneButNotTheExcludedOne() throws Exception {
        CheckRunner.Outcome outcome = run(rule("LIBRARY", List.of("libframes*.so"), List.of("*_zstd.so"),
                limit("RESERVATION", "1 GiB", null)));

        assertThat(outcome.result().checks()).extracting(GateCheck::name, GateCheck::outcome, GateCheck::library,
                GateCheck::actual).containsExactly(
                        tuple("rule[1] LIBRARY libframes.so on h200-141gb RESERVATION <= 1 GiB", GateCheck.Outcome.FAIL,
                                "libframes.so", 2_759_589_888L),
                        tuple("rule[1] LIBRARY libframes.so on l4 RESERVATION <= 1 GiB", GateCheck.Outcome.PASS,
                                "libframes.so", 909_410_304L));
        assertThat(outcome.failed()).isTrue();
    }

    @Test
    void aKernelRuleNamesEachKernelOverItsLimitAndSummarisesTheRest() throws Exception {
        CheckRunner.Outcome outcome = run(
                // the readable name: every frameKernel but the 10,200-B one, on the H200 only
                rule("KERNEL", List.of("void frameKernel<*>(int*, int)"), List.of("*2550*"),
                        limit("FRAME", "4 KiB", null), limit("FRAME", "1 KiB", "WARN")),
                rule("KERNEL", List.of(BIG), List.of(), limit("MEMORY_SHARE", "1%", null)));

        List<GateCheck> checks = outcome.result().checks();
        // rule 1, FRAME <= 4 KiB: nothing over it; one check per device naming the largest included kernel
        assertThat(checks).filteredOn(c -> c.name().startsWith("rule[1]") && c.name().endsWith("4 KiB"))
                .extracting(GateCheck::name, GateCheck::outcome, GateCheck::actual).containsExactly(
                        tuple("rule[1] KERNEL h200-141gb FRAME <= 4 KiB", GateCheck.Outcome.PASS, 4_096L),
                        tuple("rule[1] KERNEL l4 FRAME <= 4 KiB", GateCheck.Outcome.PASS, 4_096L));
        // FRAME <= 1 KiB at WARN: the 4,096-B kernel of each library on each device
        assertThat(checks).filteredOn(c -> c.name().startsWith("rule[1]") && c.name().endsWith("1 KiB"))
                .extracting(GateCheck::outcome, GateCheck::kernel, GateCheck::library, GateCheck::device)
                .containsExactlyInAnyOrder(
                        tuple(GateCheck.Outcome.WARN, MIDDLE, "libframes.so", "h200-141gb"),
                        tuple(GateCheck.Outcome.WARN, MIDDLE, "libframes_zstd.so", "h200-141gb"),
                        tuple(GateCheck.Outcome.WARN, MIDDLE, "libframes.so", "l4"),
                        tuple(GateCheck.Outcome.WARN, MIDDLE, "libframes_zstd.so", "l4"));
        // rule 2: the mangled name; 2,759,589,888 B is more than 1% of the H200's memory, and of the L4's
        long h200Memory = outcome.result().devices().get(0).device().memoryBytes();
        assertThat(checks).filteredOn(c -> c.name().startsWith("rule[2]"))
                .extracting(GateCheck::outcome, GateCheck::device, GateCheck::limit).contains(
                        tuple(GateCheck.Outcome.FAIL, "h200-141gb", h200Memory / 100));
        assertThat(checks).filteredOn(c -> c.name().startsWith("rule[2]")).allMatch(GateCheck::failed)
                .allSatisfy(c -> assertThat(c.message()).contains("% of the device's memory exceeds the maximum 1% of memory ("));
        // names are unique within the category (a JUnit test case each)
        assertThat(checks).extracting(GateCheck::name).doesNotHaveDuplicates();
        assertThat(outcome.failed()).isTrue();
    }

    @Test
    void aRuleThatIncludesNothingWarns() throws Exception {
        CheckRunner.Outcome outcome = run(rule("LIBRARY", List.of("libmissing.so"), List.of(),
                limit(null, "1 GiB", null)));

        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.result().checks()).singleElement().satisfies(check -> {
            assertThat(check.outcome()).isEqualTo(GateCheck.Outcome.WARN);
            assertThat(check.message()).startsWith("rule[1] (LIBRARY, includes [libmissing.so], excludes []) judges "
                    + "nothing");
        });
    }

    @Test
    void suppressedKernelsAreNotJudgedByTheRules() throws Exception {
        Path file = Files.writeString(tmp.resolve("s.xml"), "<suppressions><suppress><kernel>" + BIG
                + "</kernel><reason>r</reason></suppress></suppressions>");
        CheckOptions options = options(rule("DEVICE", List.of(), List.of(), limit(null, "2 GiB", null))).gate(
                new GateOptions(file, false, List.of(rule("DEVICE", List.of(), List.of(), limit(null, "2 GiB", null))),
                        null)).build();

        CheckRunner.Outcome outcome = run(options);

        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.result().checks()).extracting(GateCheck::category, GateCheck::outcome).containsExactly(
                tuple("suppression", GateCheck.Outcome.PASS), tuple("rule", GateCheck.Outcome.PASS),
                tuple("rule", GateCheck.Outcome.PASS));
    }

    @Test
    void aShareOfMemoryOnADeviceOfUnknownMemoryIsOneLine() {
        CheckOptions options = options(rule(null, List.of(), List.of(), limit("MEMORY_SHARE", "2%", null)))
                .devicePresets(null).devices(List.of(new DeviceDefinition(null, "mine", "9.0", "1000", null, null, null,
                        null))).build();

        assertThatThrownBy(() -> run(options)).isInstanceOf(CheckException.class)
                .hasMessageStartingWith("rule[1] DEVICE mine MEMORY_SHARE maximum '2%' is a percentage of device "
                        + "memory, but device 'mine' has no <memory>")
                .hasMessageNotContaining("\n");
    }

    @Test
    void theSameRulesGiveTheSameReport() throws Exception {
        GateOptions.RuleSpec rule = rule("KERNEL", List.of(), List.of(), limit("FRAME", "1 KiB", "WARN"));
        run(options(rule).outputDirectory(tmp.resolve("one")).build());
        run(options(rule).outputDirectory(tmp.resolve("two")).build());

        assertThat(Files.readAllBytes(tmp.resolve("one").resolve(JsonReportWriter.FILE_NAME)))
                .isEqualTo(Files.readAllBytes(tmp.resolve("two").resolve(JsonReportWriter.FILE_NAME)));
    }
}
