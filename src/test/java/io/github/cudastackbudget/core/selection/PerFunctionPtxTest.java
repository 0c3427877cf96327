package io.github.cudastackbudget.core.selection;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.budget.BudgetEvaluator;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.GpuCatalog;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.engine.NativeEngine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JIT and cannot-run lists per function, from a real library whose two objects differ: frames.cu built with sm_80
 * SASS and compute_80 PTX, sassonly.cu with sm_80 SASS only (src/test/cuda/build-test-binaries.sh, libmixedptx.so).
 */
class PerFunctionPtxTest {

    private static final Path LIBRARY = Path.of("target/test-cuda/libmixedptx.so");
    private static final List<String> FRAMES_KERNELS = List.of("_Z11frameKernelILi1024EEvPii",
            "_Z11frameKernelILi2550EEvPii", "_Z11frameKernelILi64EEvPii", "_Z13noStackKernelPi",
            "_Z15recursiveKernelPii");
    private static final String SASS_ONLY = "_Z14sassOnlyKernelPii";

    private static LibraryScan nativeScan;

    @BeforeAll
    static void read() throws Exception {
        assertThat(LIBRARY).as("built by src/test/cuda/build-test-binaries.sh").exists();
        nativeScan = new NativeEngine(2).read(LIBRARY);
    }

    private static DeviceResult evaluate(LibraryScan scan, String preset) throws Exception {
        return new BudgetEvaluator(null, null).evaluate(KernelIndex.of(List.of(scan)),
                new DeviceTarget(GpuCatalog.bundled().require(preset).toDevice(), null));
    }

    private static List<String> names(List<FunctionChoice> choices) {
        return choices.stream().map(choice -> choice.function().name()).toList();
    }

    @Test
    void theNativeReaderNamesThePtxKernels() {
        assertThat(nativeScan.ptxEntriesKnown()).isTrue();
        assertThat(nativeScan.ptxArchesOf("libmixedptx.so")).extracting(arch -> arch.sassLabel()).containsExactly("sm_80");
        assertThat(nativeScan.ptxEntriesOf("libmixedptx.so", nativeScan.ptxArchesOf("libmixedptx.so").first()))
                .containsExactlyElementsOf(FRAMES_KERNELS).doesNotContain(SASS_ONLY);
    }

    @Test
    void onAnSm90DeviceOnlyKernelsWithPtxWouldJitTheOthersCannotRun() throws Exception {
        DeviceResult h200 = evaluate(nativeScan, "h200-141gb");

        assertThat(h200.status()).isEqualTo(DeviceResult.Status.SKIPPED);
        assertThat(names(h200.jit())).containsExactlyElementsOf(FRAMES_KERNELS);
        assertThat(h200.jit()).extracting(choice -> choice.jitFrom().sassLabel()).containsOnly("sm_80");
        assertThat(names(h200.cannotRun())).containsExactly(SASS_ONLY);
    }

    @Test
    void withoutPtxKernelNamesEveryFunctionOfTheLibraryIsAssumedToJit() throws Exception {
        LibraryScan libraryLevel = new LibraryScan(nativeScan.path(), nativeScan.libraries(), nativeScan.records(),
                nativeScan.sassArches(), nativeScan.ptxArches(), "", 0);

        DeviceResult h200 = evaluate(libraryLevel, "h200-141gb");

        assertThat(names(h200.jit())).containsAll(FRAMES_KERNELS).contains(SASS_ONLY).hasSize(FRAMES_KERNELS.size() + 1);
        assertThat(h200.cannotRun()).isEmpty();
    }

    @Test
    void whereSassRunsNothingIsJitCompiled() throws Exception {
        DeviceResult a100 = evaluate(nativeScan, "a100-sxm4-80gb");

        assertThat(a100.status()).isEqualTo(DeviceResult.Status.PASS);
        assertThat(a100.jit()).isEmpty();
        assertThat(a100.cannotRun()).isEmpty();
        assertThat(a100.worst().name()).isEqualTo("_Z11frameKernelILi2550EEvPii");
    }

    /** The matrix's PTX-only library (compute_90 PTX, no SASS; src/test/cuda/build-native-matrix.sh). */
    @Test
    void kernelsThatExistOnlyAsPtxAreFunctionsThatWouldJit() throws Exception {
        Path ptxOnly = Path.of("target/native-matrix/so/libmatrix_ptx.so");
        assertThat(ptxOnly).as("built by src/test/cuda/build-native-matrix.sh").exists();
        LibraryScan scan = new NativeEngine(2).read(ptxOnly);
        assertThat(scan.records()).isEmpty();
        KernelIndex index = KernelIndex.of(List.of(scan));
        java.util.SortedSet<String> entries = scan.ptxEntriesOf("libmatrix_ptx.so",
                scan.ptxArchesOf("libmatrix_ptx.so").first());

        assertThat(entries).isNotEmpty();
        assertThat(index.functionCount()).isEqualTo(entries.size());
        DeviceResult h200 = evaluate(scan, "h200-141gb");
        assertThat(h200.status()).isEqualTo(DeviceResult.Status.SKIPPED);
        assertThat(names(h200.jit())).containsExactlyInAnyOrderElementsOf(entries);
        assertThat(evaluate(scan, "a100-sxm4-80gb").cannotRun()).hasSize(entries.size());
        // cuobjdump's view of the same file: no SASS record and no kernel names, so nothing to count
        LibraryScan libraryLevel = new LibraryScan(scan.path(), scan.libraries(), scan.records(), scan.sassArches(),
                scan.ptxArches(), "", 0);
        assertThat(KernelIndex.of(List.of(libraryLevel)).functionCount()).isZero();
    }
}
