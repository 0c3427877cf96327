package io.github.cudastackbudget.core.arch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.FunctionChoice.Outcome;
import io.github.cudastackbudget.core.selection.ImageSelector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NVIDIA's SASS/PTX compatibility rules and the project's "Decision" (compat.md), expressed through
 * {@link ImageSelector#choose}.
 *
 * <p>Image spec strings: {@code "sm_103f:800 sm_100:400 compute_100"} = SASS images with their STACK figures (bytes),
 * and PTX targets of the library ({@code compute_...}).
 */
class CompatibilityRulesTest {

    private static final String LIBRARY = "libkernels.so";
    private static final String FUNCTION = "_Z6kernelPf";
    private static final FunctionKey KEY = new FunctionKey(LIBRARY, FUNCTION);

    private static FunctionChoice choose(String device, String images) {
        List<KernelRecord> sass = new ArrayList<>();
        SortedSet<GpuArch> ptx = new TreeSet<>();
        for (String token : images.trim().split("\\s+")) {
            if (token.startsWith("compute_")) {
                ptx.add(GpuArch.parse(token));
            } else {
                String[] parts = token.split(":");
                long stack = parts.length > 1 ? Long.parseLong(parts[1]) : 0;
                sass.add(new KernelRecord(LIBRARY, GpuArch.parse(parts[0]), FUNCTION, 32, stack, false, 0, 0));
            }
        }
        return ImageSelector.choose(KEY, sass, ptx, ComputeCapability.parse(device));
    }

    /**
     * All 28 cases of compat.md's "Test cases for the chooser", plus the project's decisions for the undocumented ones.
     * Columns: case, device CC, images, outcome, expected (SASS label of the chosen image, PTX label for JIT, "" for
     * CANNOT_RUN), expected stack of the chosen image (-1: none), alternatives (SASS labels, space separated).
     */
    static Stream<Arguments> chooserTable() {
        return Stream.of(
                row("1 RTX 5090 sm_100", "12.0", "sm_100:100", Outcome.CANNOT_RUN, "", -1, ""),
                row("2 RTX 5090 sm_100+compute_100", "12.0", "sm_100:100 compute_100", Outcome.JIT, "compute_100", -1, ""),
                row("3 RTX 5090 sm_90a+sm_100a+compute_100a", "12.0", "sm_90a:100 sm_100a:200 compute_100a",
                        Outcome.CANNOT_RUN, "", -1, ""),
                row("4 RTX 5090 sm_89+compute_80", "12.0", "sm_89:100 compute_80", Outcome.JIT, "compute_80", -1, ""),
                row("5 RTX 5090 sm_120f", "12.0", "sm_120f:300", Outcome.SASS, "sm_120f", 300, ""),
                row("6 RTX 5090 sm_121", "12.0", "sm_121:300", Outcome.CANNOT_RUN, "", -1, ""),
                row("7 GB10 sm_120", "12.1", "sm_120:300", Outcome.SASS, "sm_120", 300, ""),
                row("8 GB10 sm_120f", "12.1", "sm_120f:300", Outcome.SASS, "sm_120f", 300, ""),
                row("9 GB10 sm_120a", "12.1", "sm_120a:300", Outcome.CANNOT_RUN, "", -1, ""),
                row("10 B300 sm_100f", "10.3", "sm_100f:300", Outcome.SASS, "sm_100f", 300, ""),
                row("11 B300 sm_100", "10.3", "sm_100:300", Outcome.SASS, "sm_100", 300, ""),
                row("12 B300 sm_100a+compute_100", "10.3", "sm_100a:300 compute_100", Outcome.JIT, "compute_100", -1, ""),
                // 13: undocumented; project decision: base vs family both loadable -> AMBIGUOUS, larger frame counted
                row("13 B300 sm_103f(800)+sm_100(400)", "10.3", "sm_103f:800 sm_100:400", Outcome.AMBIGUOUS, "sm_103f", 800,
                        "sm_100"),
                row("13' B300 sm_103f(400)+sm_100(800)", "10.3", "sm_103f:400 sm_100:800", Outcome.AMBIGUOUS, "sm_100", 800,
                        "sm_103f"),
                row("14 B200 sm_103", "10.0", "sm_103:300", Outcome.CANNOT_RUN, "", -1, ""),
                // 15: undocumented; project decision: the a image for the exact CC wins, even with the smallest frame
                row("15 B200 sm_100+sm_100f+sm_100a", "10.0", "sm_100:900 sm_100f:700 sm_100a:100", Outcome.SASS,
                        "sm_100a", 100, ""),
                row("15' B200 sm_100(900)+sm_100f(700)", "10.0", "sm_100:900 sm_100f:700", Outcome.AMBIGUOUS, "sm_100", 900,
                        "sm_100f"),
                row("15'' B200 sm_100(700)+sm_100f(900)", "10.0", "sm_100:700 sm_100f:900", Outcome.AMBIGUOUS, "sm_100f",
                        900, "sm_100"),
                row("16 Thor sm_100+compute_100", "11.0", "sm_100:300 compute_100", Outcome.JIT, "compute_100", -1, ""),
                row("17 Thor sm_110f", "11.0", "sm_110f:300", Outcome.SASS, "sm_110f", 300, ""),
                // 18: unknown per NVIDIA; project treats the old sm_101 cubin as not loadable on 11.0
                row("18 Thor sm_101", "11.0", "sm_101:300", Outcome.CANNOT_RUN, "", -1, ""),
                row("19 H200 sm_90a", "9.0", "sm_90a:300", Outcome.SASS, "sm_90a", 300, ""),
                row("20 H200 sm_80+sm_86+compute_86", "9.0", "sm_80:100 sm_86:200 compute_86", Outcome.JIT, "compute_86",
                        -1, ""),
                row("21 H200 sm_80+sm_86", "9.0", "sm_80:100 sm_86:200", Outcome.CANNOT_RUN, "", -1, ""),
                row("22 L4 sm_80+sm_86", "8.9", "sm_80:100 sm_86:200", Outcome.SASS, "sm_86", 200, ""),
                row("23 Orin sm_80+sm_86", "8.7", "sm_80:100 sm_86:200", Outcome.SASS, "sm_86", 200, ""),
                row("24 A100 sm_86", "8.0", "sm_86:200", Outcome.CANNOT_RUN, "", -1, ""),
                row("24' A100 sm_86+compute_80", "8.0", "sm_86:200 compute_80", Outcome.JIT, "compute_80", -1, ""),
                row("25 A10 sm_80+sm_89", "8.6", "sm_80:100 sm_89:200", Outcome.SASS, "sm_80", 100, ""),
                row("26 T4 sm_70", "7.5", "sm_70:100", Outcome.SASS, "sm_70", 100, ""),
                row("27 T4 sm_70+sm_75", "7.5", "sm_70:100 sm_75:200", Outcome.SASS, "sm_75", 200, ""),
                row("28 V100 sm_75", "7.0", "sm_75:200", Outcome.CANNOT_RUN, "", -1, ""));
    }

    private static Arguments row(String name, String device, String images, Outcome outcome, String expected,
            long stack, String alternatives) {
        return Arguments.of(name, device, images, outcome, expected, stack, alternatives);
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("chooserTable")
    void chooserTableOfCompatMd(String name, String device, String images, Outcome outcome, String expected, long stack,
            String alternatives) {
        FunctionChoice choice = choose(device, images);

        assertChoice(choice, outcome, expected, stack, alternatives);
    }

    /** The chooser cases must not depend on the order cuobjdump prints the images in. */
    @ParameterizedTest(name = "case {0}, images reversed")
    @MethodSource("chooserTable")
    void chooserTableIsIndependentOfImageOrder(String name, String device, String images, Outcome outcome,
            String expected, long stack, String alternatives) {
        List<String> tokens = new ArrayList<>(Arrays.asList(images.trim().split("\\s+")));
        java.util.Collections.reverse(tokens);

        FunctionChoice choice = choose(device, String.join(" ", tokens));

        assertChoice(choice, outcome, expected, stack, alternatives);
    }

    private static void assertChoice(FunctionChoice choice, Outcome outcome, String expected, long stack,
            String alternatives) {
        assertThat(choice.function()).isEqualTo(KEY);
        assertThat(choice.outcome()).isEqualTo(outcome);
        switch (outcome) {
            case SASS, AMBIGUOUS -> {
                assertThat(choice.chosen()).isNotNull();
                assertThat(choice.chosen().arch().sassLabel()).isEqualTo(expected);
                assertThat(choice.chosen().stack()).isEqualTo(stack);
                assertThat(choice.jitFrom()).isNull();
            }
            case JIT -> {
                assertThat(choice.chosen()).isNull();
                assertThat(choice.jitFrom()).isNotNull();
                assertThat(choice.jitFrom().ptxLabel()).isEqualTo(expected);
            }
            case CANNOT_RUN -> {
                assertThat(choice.chosen()).isNull();
                assertThat(choice.jitFrom()).isNull();
            }
            default -> throw new AssertionError(outcome);
        }
        List<String> expectedAlternatives = alternatives.isBlank() ? List.of() : List.of(alternatives.split(" "));
        assertThat(choice.alternatives()).extracting(record -> record.arch().sassLabel())
                .containsExactlyElementsOf(expectedAlternatives);
    }

    /** compat.md, "Measured on an H200 (CC 9.0, driver 580.159.04, CUDA 13.0)". */
    @Nested
    class H200Measurements {

        @Test
        void archSpecificWinsOverBaseInEitherOrder() {
            for (String images : List.of("sm_90:400 sm_90a:4000", "sm_90a:4000 sm_90:400")) {
                FunctionChoice choice = choose("9.0", images);
                assertThat(choice.outcome()).as(images).isEqualTo(Outcome.SASS);
                assertThat(choice.chosen().arch().sassLabel()).as(images).isEqualTo("sm_90a");
                assertThat(choice.chosen().stack()).as(images).isEqualTo(4000);
                assertThat(choice.alternatives()).as(images).isEmpty();
            }
        }

        @Test
        void archSpecificWinsEvenWithTheSmallerFrame() {
            FunctionChoice choice = choose("9.0", "sm_90:4000 sm_90a:400");
            assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
            assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_90a");
            assertThat(choice.chosen().stack()).isEqualTo(400);
        }

        @Test
        void nativeBaseWinsOverOtherMajor() {
            FunctionChoice choice = choose("9.0", "sm_80:1200 sm_90:400");
            assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
            assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_90");
            assertThat(choice.chosen().stack()).isEqualTo(400);
        }

        @Test
        void sm80WithCompute80IsJitFromCompute80() {
            FunctionChoice choice = choose("9.0", "sm_80:1200 compute_80");
            assertThat(choice.outcome()).isEqualTo(Outcome.JIT);
            assertThat(choice.jitFrom()).isEqualTo(GpuArch.parse("compute_80"));
            assertThat(choice.chosen()).isNull();
        }

        @Test
        void sm80WithCompute90IsJitFromCompute90() {
            FunctionChoice choice = choose("9.0", "sm_80:1200 compute_90");
            assertThat(choice.outcome()).isEqualTo(Outcome.JIT);
            assertThat(choice.jitFrom().ptxLabel()).isEqualTo("compute_90");
        }

        @Test
        void sm80OnlyCannotRun() {
            FunctionChoice choice = choose("9.0", "sm_80:1200");
            assertThat(choice.outcome()).isEqualTo(Outcome.CANNOT_RUN);
            assertThat(choice.chosen()).isNull();
            assertThat(choice.jitFrom()).isNull();
            assertThat(choice.alternatives()).isEmpty();
        }

        @Test
        void sm90SassBeatsCompute90aPtx() {
            FunctionChoice choice = choose("9.0", "sm_90:400 compute_90a");
            assertThat(choice.outcome()).isEqualTo(Outcome.SASS);
            assertThat(choice.chosen().arch().sassLabel()).isEqualTo("sm_90");
            assertThat(choice.jitFrom()).isNull();
        }
    }

    @Nested
    class SassRules {

        private boolean runs(String image, String device) {
            return CompatibilityRules.sassRunsOn(GpuArch.parse(image), ComputeCapability.parse(device));
        }

        /** The origin tool claimed "base sm_100 SASS also runs on sm_120 devices": NVIDIA says no (cubins never cross majors). */
        @Test
        void originToolClaimBaseSm100RunsOnSm120IsRejected() {
            assertThat(runs("sm_100", "12.0")).isFalse();
            assertThat(runs("sm_100", "12.1")).isFalse();
            assertThat(runs("sm_100", "11.0")).isFalse();
            assertThat(runs("sm_103", "12.0")).isFalse();
        }

        @ParameterizedTest(name = "{0} on {1}: {2}")
        @CsvSource({
                // family table (PG13 Table 28)
                "sm_100f, 10.0, true", "sm_100f, 10.3, true", "sm_100f, 12.0, false", "sm_100f, 11.0, false",
                "sm_100f, 10.1, false", "sm_100f, 9.0, false",
                "sm_120f, 12.0, true", "sm_120f, 12.1, true", "sm_120f, 10.0, false", "sm_120f, 11.0, false",
                "sm_103f, 10.3, true", "sm_103f, 10.0, false", "sm_103f, 12.0, false",
                "sm_110f, 11.0, true", "sm_110f, 10.0, false", "sm_110f, 12.0, false", "sm_110f, 12.1, false",
                "sm_121f, 12.1, true", "sm_121f, 12.0, false"})
        void familyTable(String image, String device, boolean expected) {
            assertThat(runs(image, device)).isEqualTo(expected);
        }

        @ParameterizedTest(name = "{0} on {1}: {2}")
        @CsvSource({
                // base: same major, minor >= target
                "sm_86, 8.6, true", "sm_86, 8.9, true", "sm_86, 8.7, true", "sm_86, 8.0, false", "sm_86, 9.0, false",
                "sm_80, 8.6, true", "sm_70, 7.5, true", "sm_75, 7.0, false", "sm_90, 9.0, true", "sm_90, 10.0, false",
                "sm_100, 10.3, true", "sm_103, 10.0, false", "sm_120, 12.1, true", "sm_121, 12.0, false",
                // arch-specific: exactly X.Y
                "sm_90a, 9.0, true", "sm_90a, 10.0, false", "sm_100a, 10.0, true", "sm_100a, 10.3, false",
                "sm_120a, 12.1, false", "sm_120a, 12.0, true", "sm_103a, 10.3, true"})
        void baseAndArchSpecificRules(String image, String device, boolean expected) {
            assertThat(runs(image, device)).isEqualTo(expected);
        }
    }

    @Nested
    class PtxRules {

        private boolean compiles(String ptx, String device) {
            return CompatibilityRules.ptxCompilesFor(GpuArch.parse(ptx), ComputeCapability.parse(device));
        }

        @ParameterizedTest(name = "{0} for {1}: {2}")
        @CsvSource({
                // base PTX: any CC >= X.Y, across majors
                "compute_80, 12.0, true", "compute_80, 8.0, true", "compute_80, 7.5, false", "compute_90, 8.9, false",
                "compute_90, 9.0, true", "compute_100, 11.0, true", "compute_100, 12.1, true", "compute_120, 10.3, false",
                // a PTX: exactly X.Y
                "compute_100a, 10.0, true", "compute_100a, 12.0, false", "compute_100a, 10.3, false",
                "compute_90a, 9.0, true", "compute_90a, 10.0, false",
                // f PTX: family members only
                "compute_100f, 10.3, true", "compute_100f, 10.0, true", "compute_100f, 12.0, false",
                "compute_120f, 12.1, true", "compute_120f, 10.0, false", "compute_103f, 10.0, false",
                "compute_110f, 11.0, true", "compute_110f, 12.0, false"})
        void ptxRules(String ptx, String device, boolean expected) {
            assertThat(compiles(ptx, device)).isEqualTo(expected);
        }
    }
}
