package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.SizeLimit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class BudgetEvaluatorTest {

    // ---- devices (figures from the bundled catalog) ----
    private static final DeviceSpec L4 = device("l4", "8.9", 58, 1536, 23_570_219_008L);           // 89,088 threads
    private static final DeviceSpec A100 = device("a100", "8.0", 108, 2048, 85_100_068_864L);      // 221,184 threads
    private static final DeviceSpec H200 = device("h200", "9.0", 132, 2048, 151_397_597_184L);     // 270,336 threads
    private static final DeviceSpec V100 = device("v100", "7.0", 80, 2048, 16_935_682_048L);
    private static final DeviceSpec B300 = device("b300", "10.3", 158, 2048, 288_400_343_040L);

    private static DeviceSpec device(String name, String cc, int sms, int perSm, Long memory) {
        return new DeviceSpec(name, null, ComputeCapability.parse(cc), (long) sms * perSm, sms, perSm, memory, "test");
    }

    // ---- records ----
    private static KernelRecord rec(String library, String arch, String name, long stack, long local) {
        return new KernelRecord(library, GpuArch.parse(arch), name, 64, stack, false, 0, local);
    }

    private static KernelRecord unknownRec(String library, String arch, String name, long stackField) {
        return new KernelRecord(library, GpuArch.parse(arch), name, 64, stackField, true, 0, 0);
    }

    private static SortedSet<GpuArch> arches(String... labels) {
        SortedSet<GpuArch> set = new TreeSet<>();
        Arrays.stream(labels).filter(label -> !label.isBlank()).forEach(label -> set.add(GpuArch.parse(label)));
        return set;
    }

    /** One library file with its records; {@code ptx} is a space-separated list of compute_ labels (may be empty). */
    private static LibraryScan scan(String library, String ptx, KernelRecord... records) {
        Map<String, SortedSet<GpuArch>> sass = new TreeMap<>();
        for (KernelRecord record : records) {
            sass.computeIfAbsent(library, key -> new TreeSet<>()).add(record.arch());
        }
        Map<String, SortedSet<GpuArch>> ptxMap = ptx.isBlank() ? Map.of() : Map.of(library, arches(ptx.split(" ")));
        return new LibraryScan(Path.of("/build", library), List.of(library), List.of(records), sass, ptxMap, "", 1);
    }

    // libA.so: sm_80 + sm_86 images of two kernels
    private static final KernelRecord BIG_80 = rec("libA.so", "sm_80", "_Z3bigv", 4096, 0);
    private static final KernelRecord BIG_86 = rec("libA.so", "sm_86", "_Z3bigv", 8000, 0);
    private static final KernelRecord SMALL_80 = rec("libA.so", "sm_80", "_Z5smallv", 100, 0);
    private static final KernelRecord SMALL_86 = rec("libA.so", "sm_86", "_Z5smallv", 200, 64);
    // libB.so: a kernel only in sm_90 SASS, with compute_80 PTX
    private static final KernelRecord JIT_90 = rec("libB.so", "sm_90", "_Z4jitv", 50, 0);
    // libC.so: a kernel only in sm_90a SASS, no PTX
    private static final KernelRecord NONE_90A = rec("libC.so", "sm_90a", "_Z4nonev", 70, 0);

    private static KernelIndex mixedIndex() {
        return KernelIndex.of(List.of(
                scan("libA.so", "", BIG_80, BIG_86, SMALL_80, SMALL_86),
                scan("libB.so", "compute_80", JIT_90),
                scan("libC.so", "", NONE_90A)));
    }

    private static KernelIndex libAOnly() {
        return KernelIndex.of(List.of(scan("libA.so", "", BIG_80, BIG_86, SMALL_80, SMALL_86)));
    }

    private static DeviceResult evaluate(String defaultBudget, Long maxStack, KernelIndex index, DeviceSpec device,
            String deviceBudget) {
        BudgetEvaluator evaluator = new BudgetEvaluator(
                defaultBudget == null ? null : SizeLimit.parse(defaultBudget, "maxReservation"), maxStack);
        return evaluator.evaluate(index, new DeviceTarget(device,
                deviceBudget == null ? null : SizeLimit.parse(deviceBudget, "maxReservation")));
    }

    private static List<String> names(List<FunctionChoice> choices) {
        return choices.stream().map(choice -> choice.function().name()).toList();
    }

    @Nested
    class Pass {

        @Test
        void l4PassesWithinBudgetAndFallsBackToSm86() {
            DeviceResult result = evaluate("1 GiB", null, mixedIndex(), L4, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.PASS);
            assertThat(result.status().id()).isEqualTo("pass");
            assertThat(result.skipped()).isFalse();
            assertThat(result.skipReason()).isNull();
            assertThat(result.device()).isSameAs(L4);
            assertThat(result.chosenArch()).isEqualTo(GpuArch.parse("sm_86"));
            assertThat(result.fellBack()).isTrue();
            assertThat(result.imageCounts()).containsExactly(entry("sm_86", 2));
            assertThat(result.selected()).containsExactly(BIG_86, SMALL_86);
            assertThat(result.worst()).isEqualTo(BIG_86);
            assertThat(result.reservationBytes()).isEqualTo(712_704_000L); // 89,088 x 8000
            assertThat(result.staticReservationBytes()).isEqualTo(712_704_000L);
            assertThat(result.incrementBytes()).isEqualTo(621_477_888L); // 89,088 x (8000 - 1024)
            assertThat(result.budgetBytes()).isEqualTo(1_073_741_824L);
            assertThat(result.worstLocal()).isEqualTo(SMALL_86);
            assertThat(result.violations()).isEmpty();
            assertThat(result.ambiguous()).isEmpty();
            assertThat(result.unknownStack()).isEmpty();
        }

        @Test
        void jitAndCannotRunFunctionsAreListedWhileTheDeviceRunsTheRest() {
            DeviceResult result = evaluate(null, null, mixedIndex(), L4, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.PASS);
            assertThat(names(result.jit())).containsExactly("_Z4jitv");
            assertThat(result.jit().get(0).jitFrom().ptxLabel()).isEqualTo("compute_80");
            assertThat(result.jit().get(0).function().library()).isEqualTo("libB.so");
            assertThat(names(result.cannotRun())).containsExactly("_Z4nonev");
            assertThat(result.cannotRun().get(0).outcome()).isEqualTo(FunctionChoice.Outcome.CANNOT_RUN);
            assertThat(result.selected()).doesNotContain(JIT_90, NONE_90A);
        }

        @Test
        void noBudgetMeansNoReservationViolation() {
            DeviceResult result = evaluate(null, null, mixedIndex(), H200, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.PASS);
            assertThat(result.budgetBytes()).isNull();
        }

        @Test
        void exactCapabilityDoesNotFallBack() {
            DeviceResult result = evaluate(null, null, libAOnly(), A100, null);

            assertThat(result.chosenArch().sassLabel()).isEqualTo("sm_80");
            assertThat(result.fellBack()).isFalse();
            assertThat(result.worst()).isEqualTo(BIG_80);
            assertThat(result.reservationBytes()).isEqualTo(905_969_664L); // 221,184 x 4096
            assertThat(result.incrementBytes()).isEqualTo(679_477_248L); // 221,184 x 3072
            assertThat(result.worstLocal()).as("no sm_80 image spills").isNull();
            assertThat(result.imageCounts()).containsExactly(entry("sm_80", 2));
        }

        @Test
        void chosenArchIsTheHighestEmbeddedArchThatRunsEvenWhenFunctionsDiffer() {
            // on 9.0: libA (sm_80/sm_86, no PTX) cannot run; libB runs sm_90; libC runs sm_90a
            DeviceResult result = evaluate(null, null, mixedIndex(), H200, null);

            assertThat(result.chosenArch().sassLabel()).isEqualTo("sm_90a");
            assertThat(result.fellBack()).isFalse();
            assertThat(result.imageCounts()).containsExactly(entry("sm_90", 1), entry("sm_90a", 1));
            assertThat(result.selected()).containsExactly(NONE_90A, JIT_90);
            assertThat(names(result.cannotRun())).containsExactly("_Z3bigv", "_Z5smallv");
            assertThat(result.jit()).isEmpty();
            assertThat(result.worst()).isEqualTo(NONE_90A);
            assertThat(result.reservationBytes()).isEqualTo(21_626_880L); // 270,336 x roundup16(70) = 80
            assertThat(result.incrementBytes()).isZero();
        }

        @Test
        void imageCountsPerFunctionWhenALibraryMixesArches() {
            KernelRecord onlyOld = rec("libD.so", "sm_80", "_Z3oldv", 300, 0);
            KernelRecord newer80 = rec("libD.so", "sm_80", "_Z3newv", 900, 0);
            KernelRecord newer86 = rec("libD.so", "sm_86", "_Z3newv", 100, 0);
            KernelIndex index = KernelIndex.of(List.of(scan("libD.so", "", onlyOld, newer80, newer86)));

            DeviceResult result = evaluate(null, null, index, L4, null);

            assertThat(result.chosenArch().sassLabel()).isEqualTo("sm_86");
            assertThat(result.fellBack()).isTrue();
            assertThat(result.imageCounts()).containsExactly(entry("sm_80", 1), entry("sm_86", 1));
            assertThat(result.worst()).isEqualTo(onlyOld);
            assertThat(result.reservationBytes()).isEqualTo(89_088L * 304);
        }

        @Test
        void ambiguousFunctionsAreListedAndCountTheLargerFrame() {
            KernelRecord base = rec("libE.so", "sm_100", "_Z1kv", 400, 0);
            KernelRecord family = rec("libE.so", "sm_103f", "_Z1kv", 800, 0);
            KernelIndex index = KernelIndex.of(List.of(scan("libE.so", "", base, family)));

            DeviceResult result = evaluate(null, null, index, B300, null);

            assertThat(names(result.ambiguous())).containsExactly("_Z1kv");
            assertThat(result.ambiguous().get(0).alternatives()).containsExactly(base);
            assertThat(result.selected()).containsExactly(family);
            assertThat(result.worst()).isEqualTo(family);
            assertThat(result.reservationBytes()).isEqualTo(323_584L * 800);
            assertThat(result.chosenArch().sassLabel()).isEqualTo("sm_103f");
            assertThat(result.fellBack()).isFalse();
            assertThat(result.imageCounts()).containsExactly(entry("sm_103f", 1));
        }
    }

    @Nested
    class Violations {

        @Test
        void reservationViolationNamesActualLimitAndKernel() {
            DeviceResult result = evaluate("512 MiB", null, mixedIndex(), L4, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.FAIL);
            assertThat(result.status().id()).isEqualTo("fail");
            assertThat(result.violations()).hasSize(1);
            Violation violation = result.violations().get(0);
            assertThat(violation.device()).isEqualTo("l4");
            assertThat(violation.kind()).isEqualTo(Violation.Kind.RESERVATION);
            assertThat(violation.kind().id()).isEqualTo("reservation");
            assertThat(violation.actual()).isEqualTo(712_704_000L);
            assertThat(violation.limit()).isEqualTo(536_870_912L);
            assertThat(violation.kernel()).isEqualTo(BIG_86);
        }

        @Test
        void reservationEqualToBudgetPasses() {
            DeviceResult result = evaluate("712704000", null, mixedIndex(), L4, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.PASS);
            assertThat(evaluate("712703999", null, mixedIndex(), L4, null).status())
                    .isEqualTo(DeviceResult.Status.FAIL);
        }

        @Test
        void maxStackPerThreadFlagsEveryLargerSelectedFrameLargestFirst() {
            DeviceResult result = evaluate(null, 150L, mixedIndex(), L4, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.FAIL);
            assertThat(result.violations()).extracting(Violation::kind)
                    .containsExactly(Violation.Kind.STACK, Violation.Kind.STACK);
            assertThat(result.violations()).extracting(Violation::kernel).containsExactly(BIG_86, SMALL_86);
            assertThat(result.violations()).extracting(Violation::actual).containsExactly(8000L, 200L);
            assertThat(result.violations()).extracting(Violation::limit).containsExactly(150L, 150L);
            assertThat(result.violations()).extracting(Violation::device).containsOnly("l4");
            assertThat(Violation.Kind.STACK.id()).isEqualTo("stack");
        }

        @Test
        void maxStackPerThreadComparesTheUnroundedFrameAndAllowsEquality() {
            assertThat(evaluate(null, 8000L, mixedIndex(), L4, null).violations()).isEmpty();
            assertThat(evaluate(null, 7999L, mixedIndex(), L4, null).violations()).extracting(Violation::kernel)
                    .containsExactly(BIG_86);
        }

        @Test
        void reservationAndStackViolationsTogether() {
            DeviceResult result = evaluate("100 MiB", 1000L, mixedIndex(), L4, null);

            assertThat(result.violations()).extracting(Violation::kind)
                    .containsExactly(Violation.Kind.RESERVATION, Violation.Kind.STACK);
            assertThat(result.violations().get(1).kernel()).isEqualTo(BIG_86);
        }

        @Test
        void perDeviceBudgetOverridesTheDefault() {
            DeviceResult stricter = evaluate("1 GiB", null, mixedIndex(), L4, "512 MiB");
            assertThat(stricter.status()).isEqualTo(DeviceResult.Status.FAIL);
            assertThat(stricter.budgetBytes()).isEqualTo(536_870_912L);
            assertThat(stricter.violations().get(0).limit()).isEqualTo(536_870_912L);

            DeviceResult looser = evaluate("512 MiB", null, mixedIndex(), L4, "1 GiB");
            assertThat(looser.status()).isEqualTo(DeviceResult.Status.PASS);
            assertThat(looser.budgetBytes()).isEqualTo(1_073_741_824L);
        }

        @Test
        void percentageBudgetResolvesAgainstDeviceMemory() {
            // 1 % of 23,570,219,008 B = 235,702,190 B < 712,704,000 B
            DeviceResult result = evaluate("1%", null, mixedIndex(), L4, null);
            assertThat(result.budgetBytes()).isEqualTo(235_702_190L);
            assertThat(result.status()).isEqualTo(DeviceResult.Status.FAIL);
            assertThat(result.violations().get(0).limit()).isEqualTo(235_702_190L);

            // 5 % = 1,178,510,950 B > 712,704,000 B
            DeviceResult ok = evaluate(null, null, mixedIndex(), L4, "5%");
            assertThat(ok.budgetBytes()).isEqualTo(1_178_510_950L);
            assertThat(ok.status()).isEqualTo(DeviceResult.Status.PASS);
        }

        @Test
        void percentageBudgetOnADeviceWithoutMemoryNamesTheDevice() {
            DeviceSpec custom = new DeviceSpec("custom", null, ComputeCapability.parse("8.9"), 89_088, null, null, null,
                    "configured");

            assertThatThrownBy(() -> evaluate("2%", null, mixedIndex(), custom, null))
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("device 'custom' has no <memory>")
                    .hasMessageStartingWith("maxReservation of device 'custom' '2%'");
        }
    }

    @Nested
    class UnknownStack {

        private final KernelRecord recursive = unknownRec("libA.so", "sm_86", "_Z7recursev", 999_999);

        private KernelIndex index() {
            return KernelIndex.of(List.of(scan("libA.so", "", BIG_80, BIG_86, SMALL_80, SMALL_86, recursive)));
        }

        @Test
        void unknownStackKernelsAreListedButExcludedFromTheReservation() {
            DeviceResult result = evaluate("1 GiB", 150L, index(), L4, null);

            assertThat(result.unknownStack()).containsExactly(recursive);
            assertThat(result.selected()).first().isEqualTo(recursive);
            assertThat(result.worst()).isEqualTo(BIG_86);
            assertThat(result.reservationBytes()).isEqualTo(712_704_000L);
            assertThat(result.imageCounts()).containsExactly(entry("sm_86", 3));
            assertThat(result.violations()).extracting(Violation::kernel).containsExactly(BIG_86, SMALL_86);
        }

        @Test
        void onlyUnknownStacksGiveNoWorstKernelAndNoReservationViolation() {
            KernelIndex index = KernelIndex.of(List.of(scan("libZ.so", "", unknownRec("libZ.so", "sm_90", "_Z1rv", 0))));

            DeviceResult result = evaluate("1", null, index, H200, null);

            assertThat(result.worst()).isNull();
            assertThat(result.reservationBytes()).isZero();
            assertThat(result.unknownStack()).hasSize(1);
            assertThat(result.violations()).isEmpty();
            assertThat(result.status()).isEqualTo(DeviceResult.Status.PASS);
        }
    }

    @Nested
    class Skipped {

        @Test
        void deviceWithoutCompatibleSassIsSkippedWithReason() {
            DeviceResult result = evaluate("1 GiB", 100L, mixedIndex(), V100, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.SKIPPED);
            assertThat(result.status().id()).isEqualTo("skipped");
            assertThat(result.skipped()).isTrue();
            assertThat(result.chosenArch()).isNull();
            assertThat(result.fellBack()).isFalse();
            assertThat(result.skipReason()).isEqualTo("no embedded SASS runs on sm_70 (compute capability 7.0); "
                    + "embedded: sm_80, sm_86, sm_90, sm_90a; no usable PTX either, so its kernels cannot launch there");
            assertThat(result.selected()).isEmpty();
            assertThat(result.imageCounts()).isEmpty();
            assertThat(result.worst()).isNull();
            assertThat(result.reservationBytes()).isZero();
            assertThat(result.violations()).isEmpty();
            assertThat(result.budgetBytes()).isEqualTo(1_073_741_824L);
            assertThat(names(result.cannotRun())).containsExactly("_Z3bigv", "_Z5smallv", "_Z4jitv", "_Z4nonev");
        }

        @Test
        void skipReasonCountsJitFunctions() {
            KernelIndex index = KernelIndex.of(List.of(scan("libA.so", "compute_80", BIG_80, SMALL_80)));

            DeviceResult result = evaluate(null, null, index, H200, null);

            assertThat(result.status()).isEqualTo(DeviceResult.Status.SKIPPED);
            assertThat(result.chosenArch()).isNull();
            assertThat(result.skipReason()).isEqualTo("no embedded SASS runs on sm_90 (compute capability 9.0); "
                    + "embedded: sm_80; 2 function(s) would be JIT-compiled from PTX, frame unknown at build time");
            assertThat(names(result.jit())).containsExactly("_Z3bigv", "_Z5smallv");
            assertThat(result.jit()).extracting(choice -> choice.jitFrom().ptxLabel()).containsOnly("compute_80");
            assertThat(result.cannotRun()).isEmpty();
        }
    }

    @Test
    void largestFrameFirstOrdersUnknownFirstThenLibraryNameArch() {
        List<KernelRecord> list = new ArrayList<>(List.of(
                rec("libB.so", "sm_90", "_Z1a", 512, 0),
                rec("libA.so", "sm_90", "_Z1b", 512, 0),
                rec("libA.so", "sm_80", "_Z1b", 512, 0),
                rec("libA.so", "sm_90", "_Z1a", 16, 0),
                unknownRec("libC.so", "sm_90", "_Z1u", 0),
                rec("libA.so", "sm_90", "_Z1a", 4096, 0)));

        list.sort(BudgetEvaluator.LARGEST_FRAME_FIRST);

        assertThat(list).extracting(r -> r.library() + ":" + r.name() + ":" + r.arch().sassLabel() + ":"
                + (r.stackUnknown() ? "?" : r.stack()))
                .containsExactly("libC.so:_Z1u:sm_90:?", "libA.so:_Z1a:sm_90:4096", "libA.so:_Z1b:sm_80:512",
                        "libA.so:_Z1b:sm_90:512", "libB.so:_Z1a:sm_90:512", "libA.so:_Z1a:sm_90:16");
    }

    @Test
    void deviceResultIsImmutable() {
        DeviceResult result = evaluate(null, 150L, mixedIndex(), L4, null);

        assertThatThrownBy(() -> result.violations().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> result.imageCounts().put("sm_90", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> result.selected().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
