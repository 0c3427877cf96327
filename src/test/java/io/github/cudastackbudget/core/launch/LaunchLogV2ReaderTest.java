package io.github.cudastackbudget.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launch log format 2 (the driver's figures per launched function): real logs the injection library wrote on the
 * project's H200 (src/test/resources/recorded/launch-driver-frames, README.txt there), malformed lines, and the format-1
 * logs that must still read.
 */
class LaunchLogV2ReaderTest {

    private static final Path RECORDED = Path.of("src/test/resources/recorded/launch-driver-frames");

    @TempDir
    Path tmp;

    private static Map<String, LaunchedKernel> byName(LaunchLog log) {
        return log.kernels().stream().collect(Collectors.toMap(LaunchedKernel::name, Function.identity()));
    }

    @Test
    void realNvrtcLogHoldsTheDriverFramesOfKernelsInNoFile() throws Exception {
        LaunchLog log = LaunchLogReader.readLaunchLog(RECORDED.resolve("nvrtc.launch.log"), Frontend.PARAMETERS);
        assertThat(log.format()).isEqualTo(LaunchLog.Format.AGENT_V2);
        assertThat(log.format().label()).isEqualTo("cuda-stack-budget launch log 2");
        assertThat(log.complete()).isTrue();
        assertThat(log.warnings()).isEmpty();
        Map<String, LaunchedKernel> kernels = byName(log);
        assertThat(log.kernels()).extracting(LaunchedKernel::name).containsExactly("bigFrame", "ptxFrame");
        // the workload's own cuFuncGetAttribute figures (nvrtc-injected.txt): 12000 B SASS, 6000 B JIT from PTX
        assertThat(kernels.get("bigFrame").driver()).isEqualTo(new DriverFrame(12000L, 31, 0L, GpuArch.parse("sm_90")));
        assertThat(kernels.get("ptxFrame").driver()).isEqualTo(new DriverFrame(6000L, 32, 0L, GpuArch.parse("sm_90")));
        assertThat(kernels.get("bigFrame").attributions()).containsExactly("nvrtc-frame");
        assertThat(Files.readString(RECORDED.resolve("nvrtc-injected.txt")))
                .contains("KERNEL bigFrame(sm,cubin) local=12000 regs=31 shared=0 binaryVersion=90")
                .contains("KERNEL ptxFrame(compute,JIT) local=6000 regs=32 shared=0 binaryVersion=90");
    }

    @Test
    void realTorchLogHasADriverFrameForEveryKernel() throws Exception {
        LaunchLog log = LaunchLogReader.readLaunchLog(RECORDED.resolve("torch.launch.log"), Frontend.PARAMETERS);
        assertThat(log.warnings()).isEmpty();
        assertThat(log.kernels()).hasSize(54);
        assertThat(log.kernels()).allMatch(LaunchedKernel::driverFrameKnown);
        Map<String, LaunchedKernel> kernels = byName(log);
        // cuFFT's run-time compiled kernel (in no file) and PyTorch's jiterator kernel (NVRTC)
        LaunchedKernel fft = kernels.get("_Z10vector_fftILj47E3EPTIJLj47EEELj128ELj0EL9padding_t14EL9twiddle_t0EL20"
                + "loadstore_modifier_t4EL8layout_t0Ejd21HostConfigPlaceholderEv18kernel_arguments_tIT7_E");
        assertThat(fft.driver()).isEqualTo(new DriverFrame(472L, 255, 0L, GpuArch.parse("sm_90")));
        assertThat(fft.maxDynamicShared()).isEqualTo(96256L);
        assertThat(kernels.get("bessel_j0_forward_vectorized4_kernel").driver().localBytes()).isEqualTo(32L);
        assertThat(kernels.get("calc_i0e_vectorized4_kernel").attributions()).containsExactly("jiterator");
        // a kernel launched under two attributions: one kernel, attributions joined, one driver frame
        LaunchedKernel reduce = kernels.get("_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIf"
                + "ZNS0_11sum_functorIfffEclERNS_14TensorIteratorEEUlffE_EEjfLi4ELi4EEEEEvT1_");
        assertThat(reduce.attributions()).containsExactly("cudnn-conv", "pt_autograd_0");
        assertThat(reduce.driver()).isEqualTo(new DriverFrame(0L, 32, 16L, GpuArch.parse("sm_90")));
        // the static image's 10,208 B frame (libtorch_cuda.so, sm_90), as the driver reports it
        assertThat(kernels.get("_ZN2at6native29vectorized_elementwise_kernelILi2EN48_GLOBAL__N__70991ef6_15_IGammaKernel"
                + "_cu_cb51a28d10CalcIgammaIdEESt5arrayIPcLm3EEEEviT0_T1_").driver().localBytes()).isEqualTo(10208L);
    }

    @Test
    void realGraphLogHasTheFramesOfGraphKernelNodes() throws Exception {
        LaunchLog log = LaunchLogReader.readLaunchLog(RECORDED.resolve("graphs.launch.log"), Frontend.PARAMETERS);
        Map<String, LaunchedKernel> kernels = byName(log);
        assertThat(kernels.get("_Z11frameKernelILi6144EEvPii").driver().localBytes()).isEqualTo(6144L);
        assertThat(kernels.get("_Z11frameKernelILi6144EEvPii").attributions()).containsExactly("<graph>",
                "<graph> graph-add");
        assertThat(kernels.get("_Z11frameKernelILi8192EEvPii").driver().localBytes()).isEqualTo(8192L);
    }

    @Test
    void unknownFiguresReadAsNullAndKnownOnesWinOverThemWhenMerged() throws Exception {
        Path file = Files.writeString(tmp.resolve("launch.log"), "# cuda-stack-budget launch log 2\n# status: ok\n"
                + "_Z1av\tmain\t0\tunknown\tunknown\tunknown\tunknown\n"
                + "_Z1bv\tmain\t0\tunknown\tunknown\tunknown\tunknown\n"
                + "_Z1bv\tother\t64\t2048\t40\t16\tsm_90\n"
                + "_Z1bv\tthird\t0\t1024\t48\t0\tsm_86\n", StandardCharsets.UTF_8);
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.warnings()).isEmpty();
        Map<String, LaunchedKernel> kernels = byName(log);
        assertThat(kernels.get("_Z1av").driver()).isEqualTo(DriverFrame.UNKNOWN);
        assertThat(kernels.get("_Z1av").driverFrameKnown()).isFalse();
        assertThat(kernels.get("_Z1bv").driver()).isEqualTo(new DriverFrame(2048L, 48, 16L, GpuArch.parse("sm_90")));
        assertThat(kernels.get("_Z1bv").maxDynamicShared()).isEqualTo(64L);
    }

    @Test
    void formatOneLogsStillReadWithoutDriverFigures() throws Exception {
        for (Path file : List.of(Path.of("src/test/resources/recorded/launch/launch-probe.launch.log"),
                Path.of("src/test/resources/recorded/launch/torch-gammainc.launch.log"),
                Path.of("src/test/resources/recorded/launch-graphs/graphs.launch.log"))) {
            LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
            assertThat(log.format()).as(file.toString()).isEqualTo(LaunchLog.Format.AGENT_V1);
            assertThat(log.warnings()).as(file.toString()).isEmpty();
            assertThat(log.kernels()).as(file.toString()).isNotEmpty().allMatch(kernel -> kernel.driver() == null);
        }
    }

    @Test
    void malformedFormatTwoLinesAreSkippedWithOneLineEach() throws Exception {
        Path file = Files.writeString(tmp.resolve("bad.log"), "# cuda-stack-budget launch log 2\n# status: ok\n"
                + "_Z1av\tmain\t0\n"
                + "_Z1bv\tmain\t0\t12x\t40\t0\tsm_90\n"
                + "_Z1cv\tmain\t0\t99999999999\t40\t0\tsm_90\n"
                + "_Z1dv\tmain\t0\t100\t70000\t0\tsm_90\n"
                + "_Z1ev\tmain\t0\t100\t40\t0\tcompute_90\n"
                + "_Z1fv\tmain\t0\t100\t40\t-1\tsm_90\n"
                + "_Z1gv\tmain\t0\t100\t40\t0\tsm_90\n", StandardCharsets.UTF_8);
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.kernels()).extracting(LaunchedKernel::name).containsExactly("_Z1gv");
        assertThat(log.warnings()).containsExactly(
                file + ":3: malformed line skipped: expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES"
                        + "<TAB>LOCAL<TAB>REGISTERS<TAB>SHARED<TAB>ARCH (format 2), found 3 tab-separated fields",
                file + ":4: malformed line skipped: the driver's frame (local size) '12x' is not a byte count or unknown",
                file + ":5: malformed line skipped: the driver's frame (local size) 99999999999 is more than any device "
                        + "has (at most 4294967295)",
                file + ":6: malformed line skipped: the driver's register count 70000 is more than any device has (at "
                        + "most 65535)",
                file + ":7: malformed line skipped: the driver's arch 'compute_90' is not sm_NN or unknown",
                file + ": 1 more malformed line(s) skipped (6 in all)");
    }
}
