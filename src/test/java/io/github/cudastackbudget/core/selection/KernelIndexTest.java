package io.github.cudastackbudget.core.selection;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class KernelIndexTest {

    private static KernelRecord rec(String library, String arch, String name, long stack) {
        return new KernelRecord(library, GpuArch.parse(arch), name, 32, stack, false, 0, 0);
    }

    private static SortedSet<GpuArch> arches(String... labels) {
        SortedSet<GpuArch> set = new TreeSet<>();
        for (String label : labels) {
            set.add(GpuArch.parse(label));
        }
        return set;
    }

    @Test
    void groupsImagesByFunctionAndKeepsPtxPerLibrary() {
        LibraryScan one = new LibraryScan(Path.of("libb.so"), List.of("libb.so"),
                List.of(rec("libb.so", "sm_80", "_Z1gv", 10), rec("libb.so", "sm_90", "_Z1gv", 20),
                        rec("libb.so", "sm_90", "_Z1gv", 30)),
                Map.of("libb.so", arches("sm_80", "sm_90")), Map.of("libb.so", arches("compute_90")), null, 1);
        LibraryScan two = new LibraryScan(Path.of("liba.a"), List.of("liba.a(k.o)"),
                List.of(rec("liba.a(k.o)", "sm_86", "_Z1gv", 5), rec("liba.a(k.o)", "sm_86", "_Z1av", 6)),
                Map.of("liba.a(k.o)", arches("sm_86")), Map.of("liba.a(k.o)", arches("compute_80", "compute_86")), "", 1);

        KernelIndex index = KernelIndex.of(List.of(one, two));

        assertThat(index.recordCount()).isEqualTo(5);
        assertThat(index.functionCount()).isEqualTo(3);
        assertThat(index.imagesByFunction().keySet()).containsExactly(new FunctionKey("liba.a(k.o)", "_Z1av"),
                new FunctionKey("liba.a(k.o)", "_Z1gv"), new FunctionKey("libb.so", "_Z1gv"));
        assertThat(index.imagesByFunction().get(new FunctionKey("libb.so", "_Z1gv")))
                .extracting(KernelRecord::stack).containsExactly(10L, 20L, 30L);
        assertThat(index.sassArches()).extracting(GpuArch::sassLabel).containsExactly("sm_80", "sm_86", "sm_90");
        assertThat(index.ptxArches("liba.a(k.o)")).extracting(GpuArch::ptxLabel)
                .containsExactly("compute_80", "compute_86");
        assertThat(index.ptxArches("libb.so")).extracting(GpuArch::ptxLabel).containsExactly("compute_90");
        assertThat(index.ptxArches("nope.so")).isEmpty();
    }

    @Test
    void emptyIndex() {
        KernelIndex index = KernelIndex.of(List.of());

        assertThat(index.recordCount()).isZero();
        assertThat(index.functionCount()).isZero();
        assertThat(index.sassArches()).isEmpty();
    }
}
