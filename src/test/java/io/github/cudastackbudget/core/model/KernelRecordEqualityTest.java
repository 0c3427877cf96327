package io.github.cudastackbudget.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.arch.GpuArch;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelRecord}'s equality is written by hand (issue 11: the verdicts compare every selected record with the
 * worst, and the generated equality is slow in cold classes); it must be the record's: every component counts, equal
 * records hash alike, and the hash is the same in every run.
 */
class KernelRecordEqualityTest {

    private static final GpuArch SM90 = GpuArch.parse("sm_90");
    private static final KernelRecord RECORD = new KernelRecord("lib.so", SM90, "_Z1kv", 32, 1024, false, 48, 16,
            FrameOrigin.STATIC);

    @Test
    void equalComponentsAreEqualRecordsWithEqualHashes() {
        KernelRecord same = new KernelRecord(new String("lib.so"), GpuArch.parse("sm_90"), new String("_Z1kv"), 32,
                1024, false, 48, 16, null);
        assertThat(same).isEqualTo(RECORD).hasSameHashCodeAs(RECORD);
        assertThat(RECORD).isEqualTo(RECORD).isNotEqualTo(null).isNotEqualTo("_Z1kv");
    }

    @Test
    void everyComponentCounts() {
        FrameOrigin other = FrameOrigin.jitPtxas(GpuArch.parse("sm_80"), "13.0.88");
        List<KernelRecord> others = List.of(
                new KernelRecord("lix.so", SM90, "_Z1kv", 32, 1024, false, 48, 16, FrameOrigin.STATIC),
                new KernelRecord("lib.so", GpuArch.parse("sm_90a"), "_Z1kv", 32, 1024, false, 48, 16, FrameOrigin.STATIC),
                new KernelRecord("lib.so", SM90, "_Z1jv", 32, 1024, false, 48, 16, FrameOrigin.STATIC),
                new KernelRecord("lib.so", SM90, "_Z1kv", 33, 1024, false, 48, 16, FrameOrigin.STATIC),
                new KernelRecord("lib.so", SM90, "_Z1kv", 32, 1025, false, 48, 16, FrameOrigin.STATIC),
                new KernelRecord("lib.so", SM90, "_Z1kv", 32, 1024, true, 48, 16, FrameOrigin.STATIC),
                new KernelRecord("lib.so", SM90, "_Z1kv", 32, 1024, false, 49, 16, FrameOrigin.STATIC),
                new KernelRecord("lib.so", SM90, "_Z1kv", 32, 1024, false, 48, 17, FrameOrigin.STATIC),
                new KernelRecord("lib.so", SM90, "_Z1kv", 32, 1024, false, 48, 16, other));
        assertThat(other).isNotEqualTo(FrameOrigin.STATIC);
        for (KernelRecord record : others) {
            assertThat(record).isNotEqualTo(RECORD);
            assertThat(RECORD).isNotEqualTo(record);
        }
    }

    @Test
    void originsAreEqualBySourceTargetAndTool() {
        FrameOrigin jit = FrameOrigin.jitPtxas(GpuArch.parse("sm_80"), "13.0.88");
        assertThat(FrameOrigin.jitPtxas(GpuArch.parse("sm_80"), new String("13.0.88"))).isEqualTo(jit)
                .hasSameHashCodeAs(jit);
        assertThat(FrameOrigin.jitPtxas(GpuArch.parse("sm_86"), "13.0.88")).isNotEqualTo(jit);
        assertThat(FrameOrigin.jitPtxas(GpuArch.parse("sm_80"), "13.1.0")).isNotEqualTo(jit);
        assertThat(new FrameOrigin(FrameSource.STATIC, null, null)).isEqualTo(FrameOrigin.STATIC)
                .hasSameHashCodeAs(FrameOrigin.STATIC).isNotEqualTo(jit);
        assertThat(jit).isNotEqualTo(null).isNotEqualTo("jit");
    }

    @Test
    void theHashDoesNotDependOnTheRun() {
        // an enum's own hash is its identity hash, another in every JVM: the origin's source counts by its ordinal
        int expected = "lib.so".hashCode();
        expected = 31 * expected + SM90.hashCode();
        expected = 31 * expected + "_Z1kv".hashCode();
        expected = 31 * expected + 32;
        expected = 31 * expected + Long.hashCode(1024);
        expected = 31 * expected;
        expected = 31 * expected + Long.hashCode(48);
        expected = 31 * expected + Long.hashCode(16);
        expected = 31 * expected + 31 * 31 * FrameSource.STATIC.ordinal();
        assertThat(RECORD.hashCode()).isEqualTo(expected);
    }
}
