package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.engine.BuildLog.LoggedFunction;
import io.github.cudastackbudget.core.engine.BuildLog.Tool;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The -Xptxas -v / -Xnvlink -v log parser, on the real logs of the native-reader matrix and on malformed input. */
class BuildLogTest {

    static Stream<NativeMatrix.Binary> cubins() {
        return NativeMatrix.ofForm("cubin").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cubins")
    void eachCubinLogDescribesTheDesignedKernelsForItsOwnTarget(NativeMatrix.Binary cubin) {
        BuildLog log = cubin.readLogs().get(0);
        String arch = cubin.sass().get(0);

        assertThat(log.arches()).containsExactly(arch);
        assertThat(log.functions()).filteredOn(LoggedFunction::entry).extracting(LoggedFunction::name)
                .containsExactlyInAnyOrderElementsOf(MatrixDesign.MATRIX_KERNELS);
        Map<String, LoggedFunction> entries = log.functions().stream().filter(LoggedFunction::entry)
                .collect(Collectors.toMap(LoggedFunction::name, function -> function));
        MatrixDesign.MIN_STACK.forEach((kernel, minimum) ->
                assertThat(entries.get(kernel).stack()).as(kernel + " cumulative stack").isGreaterThanOrEqualTo(minimum));
        MatrixDesign.NO_STACK.stream().filter(entries::containsKey).forEach(kernel ->
                assertThat(entries.get(kernel).stack()).as(kernel + " cumulative stack").isZero());
        assertThat(entries.get("m_shared").smem()).isEqualTo(MatrixDesign.STATIC_SHARED.get("m_shared"));
        assertThat(entries.get("m_empty").smem()).isZero();
        assertThat(log.functions()).allSatisfy(function -> {
            assertThat(function.tool()).isEqualTo(Tool.PTXAS);
            assertThat(function.lmem()).isEmpty();
            assertThat(function.stackUndetermined()).as("whole-program ptxas stays silent about recursion").isFalse();
        });
        assertThat(log.modules()).singleElement().satisfies(module ->
                assertThat(module.gmem()).isGreaterThanOrEqualTo(MatrixDesign.MIN_MATRIX_GLOBALS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cubins")
    void ptxasPrintsConstantBanksOnlyBelowSm90(NativeMatrix.Binary cubin) {
        BuildLog log = cubin.readLogs().get(0);
        boolean below90 = MatrixDesign.smNumber(cubin.sass().get(0)) < 90;
        LoggedFunction bigParam = log.functions().stream().filter(function -> function.name().equals("m_big_param"))
                .findFirst().orElseThrow();
        if (below90) {
            assertThat(bigParam.cmem().get(0)).isGreaterThan(MatrixDesign.BIG_PARAM);
            assertThat(log.modules().get(0).cmem()).containsEntry(3, MatrixDesign.MATRIX_CONSTANT_TABLE);
        } else {
            assertThat(bigParam.cmem()).isEmpty();
            assertThat(log.modules().get(0).cmem()).isEmpty();
        }
    }

    @Test
    void multiTargetLogIsSplitPerPtxasRun() {
        NativeMatrix.Binary mixed = NativeMatrix.named("so/libmatrix_mixed.so");
        BuildLog log = mixed.readLogs().get(0);

        assertThat(log.arches()).containsExactlyInAnyOrderElementsOf(mixed.sass());
        for (String arch : mixed.sass()) {
            assertThat(log.functionsOf(arch)).filteredOn(LoggedFunction::entry).extracting(LoggedFunction::name)
                    .as(arch).containsExactlyInAnyOrderElementsOf(MatrixDesign.MATRIX_KERNELS);
        }
    }

    @Test
    void debugBuildWarnsAboutTheRecursionOfEachTarget() {
        BuildLog log = NativeMatrix.named("so/libmatrix_debug.so").readLogs().get(0);

        assertThat(log.functions()).filteredOn(LoggedFunction::stackUndetermined)
                .extracting(function -> function.arch() + " " + function.name())
                .containsExactlyInAnyOrder("sm_80 m_recursive", "sm_90 m_recursive");
    }

    @Test
    void relocatableObjectLogsListTheDesignedKernelsPerTarget() {
        BuildLog a = NativeMatrix.named("rdc/rdc_a.o").readLogs().get(0);
        BuildLog b = NativeMatrix.named("rdc/rdc_b.o").readLogs().get(0);

        for (String arch : NativeMatrix.named("rdc/rdc_a.o").sass()) {
            assertThat(a.functionsOf(arch)).extracting(LoggedFunction::name).as(arch)
                    .containsExactlyInAnyOrderElementsOf(MatrixDesign.RDC_A_KERNELS);
            assertThat(b.functionsOf(arch)).filteredOn(LoggedFunction::entry).extracting(LoggedFunction::name).as(arch)
                    .containsExactlyInAnyOrderElementsOf(MatrixDesign.RDC_B_KERNELS);
            assertThat(a.functionsOf(arch)).allSatisfy(function -> assertThat(function.stack())
                    .as("ptxas prints no cumulative stack for relocatable code").isZero());
        }
    }

    @Test
    void relocatableObjectLogsListDeviceFunctionsWithTheirTarget() {
        BuildLog log = NativeMatrix.named("rdc/rdc_b.o").readLogs().get(0);

        assertThat(log.arches()).containsExactly("sm_75", "sm_90a", "sm_100f", "sm_120");
        for (String arch : log.arches()) {
            assertThat(log.functionsOf(arch)).filteredOn(function -> !function.entry())
                    .extracting(LoggedFunction::name).as(arch)
                    .containsExactlyInAnyOrderElementsOf(MatrixDesign.RDC_B_DEVICE_FUNCTIONS);
            assertThat(log.functionsOf(arch)).filteredOn(function -> !function.entry()).allSatisfy(function -> {
                assertThat(function.registers()).isEmpty();
                assertThat(function.stackFrame()).isPresent();
            });
            assertThat(log.functionsOf(arch)).filteredOn(function -> function.name().equals("_Z10ext_helperPii"))
                    .singleElement().satisfies(helper ->
                            assertThat(helper.stackFrame().orElseThrow()).isGreaterThanOrEqualTo(512));
        }
    }

    @Test
    void nvlinkLogGivesLinkedStacksAndTheUndeterminedRecursionPerTarget() {
        BuildLog log = BuildLog.read(NativeMatrix.DIR.resolve("logs/librdc.so.nvlink.log"));

        assertThat(log.arches()).containsExactly("sm_75", "sm_90a", "sm_100f", "sm_120");
        for (String arch : log.arches()) {
            Map<String, LoggedFunction> byName = log.functionsOf(arch).stream()
                    .collect(Collectors.toMap(LoggedFunction::name, function -> function));
            assertThat(byName.keySet()).as(arch).containsExactlyInAnyOrderElementsOf(
                    Stream.concat(MatrixDesign.RDC_A_KERNELS.stream(), MatrixDesign.RDC_B_KERNELS.stream()).toList());
            assertThat(byName.get("r_cross_indirect").stackUndetermined()).as("targets known to nvlink").isFalse();
            assertThat(byName.get("r_cross_indirect").stack()).isGreaterThanOrEqualTo(128);
            assertThat(byName.get("r_cross_recursive").stackUndetermined()).isTrue();
            assertThat(byName.get("r_cross_recursive").stack()).as("nvlink prints 0 for an undetermined stack").isZero();
            assertThat(byName.get("r_cross_frame").stackUndetermined()).isFalse();
            assertThat(byName.get("r_cross_frame").stack()).isGreaterThanOrEqualTo(1024);
            // nvlink 13.0 counts the 1 KiB system reservation in its smem figure for sm_90a, not for sm_100f / sm_120
            // (ptxas never does): the cross-check takes SHARED of linked code from the objects' ptxas smem instead
            assertThat(byName.get("r_plain").smem()).as(arch + " nvlink smem")
                    .isEqualTo(MatrixDesign.smNumber(arch) == 90 ? 256 + 1024 : 256);
            assertThat(byName.values()).allSatisfy(function -> {
                assertThat(function.tool()).isEqualTo(Tool.NVLINK);
                assertThat(function.lmem()).hasValue(0);
                assertThat(function.registers()).isPresent();
            });
        }
    }

    @Test
    void unknownLinesFailWithFileAndLine() {
        Path file = Path.of("sample.log");
        assertThatThrownBy(() -> BuildLog.parse(file, List.of("ptxas info    : 0 bytes gmem",
                "ptxas info    : Compiling entry function 'k' for 'sm_90'",
                "ptxas info    : Used 4 registers, used 0 barriers, 12 bytes teapots")))
                .isInstanceOf(BuildLog.UnknownLineException.class)
                .hasMessageContaining("sample.log:3").hasMessageContaining("12 bytes teapots");
        assertThatThrownBy(() -> BuildLog.parse(file, List.of("something else entirely")))
                .hasMessageContaining("sample.log:1").hasMessageContaining("not a ptxas or nvlink line");
        assertThatThrownBy(() -> BuildLog.parse(file, List.of(
                "nvlink info    : Function properties for 'k':",
                "nvlink info    : used 8 registers, used 0 barriers, 0 stack, 0 bytes smem, 0 bytes lmem")))
                .hasMessageContaining("sample.log:1").hasMessageContaining("(target: sm_XX)");
    }

    @Test
    void entryWithoutRegisterLineAndWarningWithoutEntryAreErrors() {
        Path file = Path.of("sample.log");
        assertThatThrownBy(() -> BuildLog.parse(file, List.of("ptxas info    : 0 bytes gmem",
                "ptxas info    : Compiling entry function 'k' for 'sm_90'")))
                .hasMessageContaining("entry k for sm_90 has no 'Used N registers' line");
        assertThatThrownBy(() -> BuildLog.parse(file, List.of(
                "ptxas warning : Stack size for entry function 'gone' cannot be statically determined",
                "ptxas info    : 0 bytes gmem",
                "ptxas info    : Compiling entry function 'k' for 'sm_90'",
                "ptxas info    : Used 4 registers, used 0 barriers")))
                .hasMessageContaining("ptxas warned about entry gone");
    }

    @Test
    void parsesEveryFigureOfAPtxasLine() {
        BuildLog log = BuildLog.parse(Path.of("sample.log"), List.of(
                "ptxas info    : 4143 bytes gmem, 1200 bytes cmem[3], 40 bytes cmem[4]",
                "ptxas info    : Compiling entry function 'm_noinline' for 'sm_75'",
                "ptxas info    : Function properties for m_noinline",
                "    1024 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads",
                "ptxas info    : Used 27 registers, used 0 barriers, 1024 bytes cumulative stack size, 64 bytes smem, "
                        + "364 bytes cmem[0], 24 bytes cmem[2]",
                "ptxas info    : Compile time = 2.869 ms",
                "ptxas info    : Function properties for _Z15noinline_helperPii",
                "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"));

        assertThat(log.modules()).singleElement().satisfies(module -> {
            assertThat(module.arch()).isEqualTo("sm_75");
            assertThat(module.gmem()).isEqualTo(4143);
            assertThat(module.cmem()).containsExactlyInAnyOrderEntriesOf(Map.of(3, 1200L, 4, 40L));
        });
        assertThat(log.functions()).hasSize(2);
        LoggedFunction kernel = log.functions().get(0);
        assertThat(kernel.name()).isEqualTo("m_noinline");
        assertThat(kernel.entry()).isTrue();
        assertThat(kernel.registers()).hasValue(27);
        assertThat(kernel.stackFrame()).hasValue(1024);
        assertThat(kernel.stack()).isEqualTo(1024);
        assertThat(kernel.smem()).isEqualTo(64);
        assertThat(kernel.cmem()).containsEntry(0, 364L).containsEntry(2, 24L);
        LoggedFunction helper = log.functions().get(1);
        assertThat(helper.entry()).isFalse();
        assertThat(helper.arch()).isEqualTo("sm_75");
        assertThat(helper.registers()).isEmpty();
        assertThat(helper.stackFrame()).hasValue(16);
        assertThat(helper.stack()).isZero();
    }
}
