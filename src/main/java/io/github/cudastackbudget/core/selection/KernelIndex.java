package io.github.cudastackbudget.core.selection;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.engine.KernelRecord;
import io.github.cudastackbudget.core.engine.KernelRecord.FunctionKey;
import io.github.cudastackbudget.core.engine.LibraryScan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every function of every scanned library with all its SASS images, plus the PTX targets per library: the input of
 * per-device selection. Ordering is deterministic (library label, then mangled name).
 */
public final class KernelIndex {

    private final SortedMap<FunctionKey, List<KernelRecord>> imagesByFunction;
    private final Map<String, SortedSet<GpuArch>> ptxByLibrary;
    private final SortedSet<GpuArch> sassArches;
    private final int recordCount;

    private KernelIndex(SortedMap<FunctionKey, List<KernelRecord>> imagesByFunction,
            Map<String, SortedSet<GpuArch>> ptxByLibrary, SortedSet<GpuArch> sassArches, int recordCount) {
        this.imagesByFunction = Collections.unmodifiableSortedMap(imagesByFunction);
        this.ptxByLibrary = Collections.unmodifiableMap(ptxByLibrary);
        this.sassArches = Collections.unmodifiableSortedSet(sassArches);
        this.recordCount = recordCount;
    }

    public static KernelIndex of(List<LibraryScan> scans) {
        SortedMap<FunctionKey, List<KernelRecord>> images = new TreeMap<>();
        Map<String, SortedSet<GpuArch>> ptx = new TreeMap<>();
        SortedSet<GpuArch> arches = new TreeSet<>();
        int count = 0;
        for (LibraryScan scan : scans) {
            for (KernelRecord record : scan.records()) {
                images.computeIfAbsent(record.functionKey(), key -> new ArrayList<>()).add(record);
                arches.add(record.arch());
                count++;
            }
            scan.ptxArches().forEach((library, targets) -> ptx.computeIfAbsent(library, key -> new TreeSet<>())
                    .addAll(targets));
        }
        images.replaceAll((key, list) -> List.copyOf(list));
        return new KernelIndex(images, ptx, arches, count);
    }

    /** Function -> its SASS images (one record per embedded arch; duplicates kept). */
    public SortedMap<FunctionKey, List<KernelRecord>> imagesByFunction() {
        return imagesByFunction;
    }

    /** PTX targets embedded in a library, lowest first. */
    public SortedSet<GpuArch> ptxArches(String library) {
        return ptxByLibrary.getOrDefault(library, Collections.emptySortedSet());
    }

    /** Every SASS arch that has at least one function record. */
    public SortedSet<GpuArch> sassArches() {
        return sassArches;
    }

    public int recordCount() {
        return recordCount;
    }

    public int functionCount() {
        return imagesByFunction.size();
    }
}
