package io.github.cudastackbudget.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.binary.NativeTestFiles;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The demangler starts before the index is built (issue 11: it ran after the index and the JIT frames), so the names it
 * is fed are taken from the scans: they must be exactly the names the index holds, PTX-only kernels included.
 */
class StackBudgetCheckNamesTest {

    @Test
    void theNamesFedToTheDemanglerAreTheIndexedFunctionsNames() throws Exception {
        List<LibraryScan> scans = new ArrayList<>();
        NativeEngine engine = new NativeEngine(2);
        for (String name : List.of("libjitptx.so", "libjitmixed.so", "libmixedptx.so", "libframes.so",
                "libframes.a")) {
            scans.add(engine.read(NativeTestFiles.testCuda(name)));
        }
        // the SASS of one PTX kernel left out: a kernel the driver can only JIT-compile, named by its PTX entry alone
        LibraryScan mixed = scans.get(1);
        String ptxKernel = mixed.ptxEntries().values().iterator().next().values().iterator().next().first();
        scans.set(1, new LibraryScan(mixed.path(), mixed.libraries(), mixed.records().stream()
                .filter(record -> !record.name().equals(ptxKernel)).toList(), mixed.sassArches(), mixed.ptxArches(),
                mixed.usedBy(), mixed.elapsedMillis(), mixed.ptxEntries(), mixed.ptxEntriesKnown(), mixed.jarEntry(),
                mixed.platform()));
        Set<String> indexed = KernelIndex.of(scans).imagesByFunction().keySet().stream().map(FunctionKey::name)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> ptxOnly = new TreeSet<>(indexed);
        scans.forEach(scan -> scan.records().forEach(record -> ptxOnly.remove(record.name())));

        assertThat(new TreeSet<>(StackBudgetCheck.functionNames(scans, null))).isEqualTo(indexed);
        assertThat(ptxOnly).as("kernels with no SASS image, named by the PTX entries only").contains(ptxKernel);
    }
}
