package io.github.cudastackbudget.core.engine;

import java.util.Map;
import java.util.Set;

/**
 * The figures the kernels of {@code src/test/cuda/native-matrix} were written to have, independent of any tool: a
 * wrong log and a wrong engine cannot agree on them. Lower bounds where the compiler adds its own bytes.
 */
final class MatrixDesign {

    /** The kernels of matrix.cu (mangled where C++). */
    static final Set<String> MATRIX_KERNELS = Set.of("m_empty", "m_frame_256", "m_frame_4k", "m_frame_16k", "m_shared",
            "m_noinline", "m_recursive", "m_indirect", "m_printf", "m_big_param", "m_globals", "_Z9m_mangledPix");

    /** The kernels of rdc_a.cu and rdc_b.cu. */
    static final Set<String> RDC_A_KERNELS = Set.of("r_cross_frame", "r_cross_recursive", "r_cross_indirect", "r_plain",
            "r_div_a");
    static final Set<String> RDC_B_KERNELS = Set.of("r_b_kernel", "r_div_b");
    /** nvcc's 64-bit division helper: one copy per object that divides, kept apart by nvlink. */
    static final String DIVISION_HELPER = "__cuda_sm20_div_s64";
    /** The device functions of rdc_b.cu, listed as functions of their own in relocatable and device-linked code. */
    static final Set<String> RDC_B_DEVICE_FUNCTIONS = Set.of("_Z10ext_helperPii", "_Z13ext_recursivei",
            "_Z10ext_squarei");

    /** Per-thread stack a kernel must at least have (its volatile local arrays, its callees' arrays). */
    static final Map<String, Long> MIN_STACK = Map.of(
            "m_frame_256", 256L,
            "m_frame_4k", 4096L,
            "m_frame_16k", 16384L,
            "m_noinline", 1024L,
            "m_indirect", 256L);

    /** The same after device linking (rdc): own frame plus the deepest callee across files. */
    static final Map<String, Long> MIN_LINKED_STACK = Map.of(
            "r_cross_frame", 512L + 512L,
            "r_cross_indirect", 128L,
            "r_b_kernel", 64L);

    /** Kernels with no local memory and no call: STACK 0 in every form. */
    static final Set<String> NO_STACK = Set.of("m_empty", "m_shared", "r_plain");

    /** Static {@code __shared__} bytes, without the 1 KiB the driver reserves on sm_90 and newer. */
    static final Map<String, Long> STATIC_SHARED = Map.of("m_shared", 512L * 4 + 200L * 4, "r_plain", 64L * 4);

    /** matrix.cu's {@code __device__} globals: m_counters[1024] and m_total. */
    static final long MIN_MATRIX_GLOBALS = 1024L * 4 + 4;

    /** matrix.cu's {@code __constant__ float m_table[300]}. */
    static final long MATRIX_CONSTANT_TABLE = 300L * 4;

    /** The by-value parameter of m_big_param. */
    static final long BIG_PARAM = 200L * 4;

    private MatrixDesign() {
    }

    /**
     * SHARED as cuobjdump and the cubin count it: the size of the kernel's {@code .nv.shared.<f>} section, which on
     * sm_90 and newer includes the 1 KiB system reservation. A kernel without static shared memory has no such
     * section and reads 0 on every target (as cuobjdump 13.0 printed for frames_sm90.cubin, see
     * src/test/resources/recorded/cuobjdump; cuda-binary-format.md 4.5 says 1024 for an empty sm_90 kernel, which
     * the matrix contradicts).
     */
    static long sharedWithReservation(String arch, long smem) {
        return smem == 0 ? 0 : smem + (smNumber(arch) >= 90 ? 1024 : 0);
    }

    /** {@code sm_100f} to 100. */
    static int smNumber(String arch) {
        return Integer.parseInt(arch.replaceAll("^(?:sm|compute)_(\\d+)[af]?$", "$1"));
    }
}
