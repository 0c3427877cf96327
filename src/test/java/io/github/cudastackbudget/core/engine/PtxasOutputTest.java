package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The ptxas {@code -v} reader on real recorded output: the {@code nvcc -Xptxas -v} logs that
 * src/test/cuda/build-test-binaries.sh records (jitframes.cu for sm_90/sm_100/sm_120; frames.cu for three targets in
 * one log, with device functions between the kernels).
 */
class PtxasOutputTest {

    private static final Path TEST_CUDA = Path.of("target", "test-cuda");

    private static List<PtxasOutput.Function> parse(String log) throws Exception {
        Path file = TEST_CUDA.resolve(log);
        assertThat(file).as("recorded by src/test/cuda/build-test-binaries.sh").exists();
        return PtxasOutput.parse(Files.readAllLines(file));
    }

    private static Map<String, Long> frames(List<PtxasOutput.Function> functions) {
        return functions.stream().collect(Collectors.toMap(PtxasOutput.Function::name, PtxasOutput.Function::frame));
    }

    @Test
    void theDesignedFramesOfTheJitKernelsOnEveryTarget() throws Exception {
        for (String sm : List.of("sm_90", "sm_100", "sm_120")) {
            List<PtxasOutput.Function> functions = parse("jitframes-ptxas-" + sm + ".txt");
            assertThat(functions).as(sm).extracting(PtxasOutput.Function::target).containsOnly(sm);
            Map<String, Long> frames = frames(functions);
            // the source's local arrays: jitFrame<N> holds N bytes, so ptxas gives exactly N
            assertThat(frames).as(sm).containsEntry("_Z8jitFrameILi1200EEvPci", 1200L)
                    .containsEntry("_Z8jitFrameILi4000EEvPci", 4000L)
                    .containsEntry("_Z8jitFrameILi10232EEvPci", 10232L)
                    .containsEntry("_Z8jitFrameILi16400EEvPci", 16400L)
                    .containsEntry("_Z10jitNoStackPi", 0L)
                    // the callee's frame counts in its caller (cumulative stack); the callee itself is no kernel
                    .doesNotContainKey("_Z9jitCalleei");
            assertThat(frames.get("_Z9jitCallerPii")).as(sm).isGreaterThanOrEqualTo(400L);
            assertThat(functions).allSatisfy(f -> assertThat(f.registers()).isPositive());
        }
    }

    @Test
    void aLogOfSeveralTargetsHoldsEachKernelOncePerTarget() throws Exception {
        List<PtxasOutput.Function> functions = parse("ptxas-info.txt");

        assertThat(functions).hasSize(15);
        assertThat(functions.stream().collect(Collectors.groupingBy(PtxasOutput.Function::target,
                Collectors.counting()))).containsOnly(Map.entry("sm_80", 5L), Map.entry("sm_90", 5L),
                        Map.entry("sm_90a", 5L));
        assertThat(functions).filteredOn(f -> f.name().equals("_Z11frameKernelILi2550EEvPii"))
                .extracting(PtxasOutput.Function::frame).containsOnly(10200L);
        // _Z7recursei is a device function ptxas prints between the kernels: not a kernel of its own
        assertThat(functions).extracting(PtxasOutput.Function::name).doesNotContain("_Z7recursei");
    }

    @Test
    void theStackSizeWarningMarksTheKernelUnknown() {
        List<PtxasOutput.Function> functions = PtxasOutput.parse(List.of(
                "ptxas info    : Compiling entry function '_Z15recursiveKernelPii' for 'sm_90'",
                "ptxas info    : Function properties for _Z15recursiveKernelPii",
                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads",
                "ptxas warning : Stack size for entry function '_Z15recursiveKernelPii' cannot be statically "
                        + "determined",
                "ptxas info    : Used 24 registers, used 0 barriers"));

        assertThat(functions).singleElement().satisfies(f -> {
            assertThat(f.stackUnknown()).isTrue();
            assertThat(f.registers()).isEqualTo(24);
        });
    }

    @Test
    void anEntryWithoutAFrameLineIsRefusedNeverZero() {
        PtxasOutput output = new PtxasOutput();
        output.accept("ptxas info    : Compiling entry function 'k' for 'sm_90'");
        output.accept("ptxas info    : Used 8 registers, used 0 barriers");

        assertThatThrownBy(output::functions).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no 'bytes stack frame' line for entry function 'k'");
    }

    @Test
    void errorLinesAreKept() {
        PtxasOutput output = new PtxasOutput();
        output.accept("ptxas fatal   : Unresolved extern function 'foo'");
        output.accept("ptxas /tmp/m.ptx, line 12; error   : Unknown symbol 'x'");

        assertThat(output.errors()).hasSize(2);
        assertThat(output.functions()).isEmpty();
    }
}
