package io.github.cudastackbudget.core.arch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.model.KernelRecord;
import org.junit.jupiter.api.Test;

/**
 * The records hashed per kernel record in a check have their equality written out (issue 11: the generated one is
 * slow in cold classes); it must be the record's.
 */
class HandWrittenEqualityTest {

    @Test
    void archesAreEqualByCapabilityAndVariant() {
        GpuArch sm90a = GpuArch.parse("sm_90a");
        assertThat(GpuArch.parse("sm_90a")).isEqualTo(sm90a).hasSameHashCodeAs(sm90a);
        assertThat(new GpuArch(new ComputeCapability(9, 0), ArchVariant.ARCH_SPECIFIC)).isEqualTo(sm90a);
        assertThat(GpuArch.parse("sm_90")).isNotEqualTo(sm90a);
        assertThat(GpuArch.parse("sm_90f")).isNotEqualTo(sm90a);
        assertThat(GpuArch.parse("sm_100a")).isNotEqualTo(sm90a);
        assertThat(GpuArch.parse("sm_91a")).isNotEqualTo(sm90a);
        assertThat(sm90a).isNotEqualTo("sm_90a").isNotEqualTo(null);
        assertThat(new ComputeCapability(9, 0)).isEqualTo(new ComputeCapability(9, 0))
                .hasSameHashCodeAs(new ComputeCapability(9, 0)).isNotEqualTo(new ComputeCapability(9, 1))
                .isNotEqualTo(new ComputeCapability(8, 0));
        // the hash does not depend on the run (an enum's identity hash would)
        assertThat(sm90a.hashCode()).isEqualTo(31 * (31 * 9 + 0) + ArchVariant.ARCH_SPECIFIC.ordinal() + 1);
    }

    @Test
    void functionKeysAreEqualByLibraryAndName() {
        KernelRecord.FunctionKey key = new KernelRecord.FunctionKey("lib.so", "_Z1kv");
        KernelRecord.FunctionKey copy = new KernelRecord.FunctionKey(new String("lib.so"), new String("_Z1kv"));
        assertThat(copy).isEqualTo(key).hasSameHashCodeAs(key);
        assertThat(new KernelRecord.FunctionKey("lib.so", "_Z1jv")).isNotEqualTo(key);
        assertThat(new KernelRecord.FunctionKey("lix.so", "_Z1kv")).isNotEqualTo(key);
        assertThat(key).isNotEqualTo(null).isNotEqualTo("lib.so");
    }
}
