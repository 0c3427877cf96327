package io.github.cudastackbudget.core.report.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelRow}'s equality is written by hand (issue 11: the generated one is slow in cold classes); it must be the
 * record's: every component counts, and equal rows hash alike.
 */
class KernelRowEqualityTest {

    private static final KernelRow ROW = new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1024, false, 48, 16,
            "jit", "compute_80", "ptxas 13.0");

    @Test
    void equalComponentsAreEqualRowsWithEqualHashes() {
        KernelRow same = new KernelRow(new String("_Z1kv"), new String("k()"), new String("lib.so"),
                new String("sm_90"), 32, 1024, false, 48, 16, new String("jit"), new String("compute_80"),
                new String("ptxas 13.0"));
        assertThat(same).isEqualTo(ROW).hasSameHashCodeAs(ROW);
        KernelRow nulls = new KernelRow("_Z1kv", null, "lib.so", "sm_90", 32, 1024, false, 48, 16, null, null, null);
        assertThat(nulls).isEqualTo(new KernelRow("_Z1kv", "_Z1kv", "lib.so", "sm_90", 32, 1024, false, 48, 16,
                KernelRow.STATIC, null, null));
        assertThat(nulls.hashCode()).isEqualTo(new KernelRow("_Z1kv", "_Z1kv", "lib.so", "sm_90", 32, 1024, false, 48,
                16).hashCode());
    }

    @Test
    void everyComponentCounts() {
        List<KernelRow> others = List.of(
                new KernelRow("_Z1jv", "k()", "lib.so", "sm_90", 32, 1024, false, 48, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "j()", "lib.so", "sm_90", 32, 1024, false, 48, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lix.so", "sm_90", 32, 1024, false, 48, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_80", 32, 1024, false, 48, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 33, 1024, false, 48, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1025, false, 48, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1024, true, 48, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1024, false, 49, 16, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1024, false, 48, 17, "jit", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1024, false, 48, 16, "static", "compute_80", "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1024, false, 48, 16, "jit", null, "ptxas 13.0"),
                new KernelRow("_Z1kv", "k()", "lib.so", "sm_90", 32, 1024, false, 48, 16, "jit", "compute_80", null));
        for (KernelRow other : others) {
            assertThat(other).isNotEqualTo(ROW);
            assertThat(ROW).isNotEqualTo(other);
        }
        assertThat(ROW).isNotEqualTo(null).isNotEqualTo("k()");
    }
}
