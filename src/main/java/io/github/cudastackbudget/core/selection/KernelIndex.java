package io.github.cudastackbudget.core.selection;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every function of every scanned library with all its SASS images, plus the PTX targets per library: the input of
 * per-device selection. Ordering is deterministic (library label, then mangled name).
 *
 * <p>Where the engine saw the PTX entry names (the native reader), a function's PTX targets are those whose PTX
 * declares it as an {@code .entry}, and kernels that exist only as PTX are functions too (with no SASS image). Where it
 * did not (cuobjdump), every PTX target of the library is assumed to hold every function: an over-approximation of
 * what would JIT.
 */
public final class KernelIndex {

    /** In {@link FunctionKey} order. */
    private final Map<FunctionKey, List<KernelRecord>> imagesByFunction;
    private final Map<String, SortedSet<GpuArch>> ptxByLibrary;
    private final Map<String, Map<GpuArch, SortedSet<String>>> ptxEntriesByLibrary;
    private final SortedSet<GpuArch> sassArches;
    private final int recordCount;
    /** Per function of a library whose PTX entries are known: the targets declaring it (one shared set per distinct set). */
    private final Map<FunctionKey, SortedSet<GpuArch>> ptxTargetsByFunction;

    private KernelIndex(Map<FunctionKey, List<KernelRecord>> imagesByFunction,
            Map<String, SortedSet<GpuArch>> ptxByLibrary, Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries,
            SortedSet<GpuArch> sassArches, int recordCount) {
        this.imagesByFunction = Collections.unmodifiableMap(imagesByFunction);
        this.ptxByLibrary = Collections.unmodifiableMap(ptxByLibrary);
        this.ptxEntriesByLibrary = Collections.unmodifiableMap(ptxEntries);
        this.sassArches = Collections.unmodifiableSortedSet(sassArches);
        this.recordCount = recordCount;
        this.ptxTargetsByFunction = targetsByFunction(ptxEntries);
    }

    /**
     * Inverts the PTX entry lists once: a function's targets were found by asking every target's name set, for every
     * function and device, twice per check (the JIT-frame stage and the verdicts); libtorch_cuda.so has 60,000
     * functions (issue 11).
     */
    private static Map<FunctionKey, SortedSet<GpuArch>> targetsByFunction(
            Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries) {
        Map<FunctionKey, SortedSet<GpuArch>> byFunction = new java.util.HashMap<>();
        ptxEntries.forEach((library, byTarget) -> byTarget.forEach((target, names) -> names.forEach(name -> byFunction
                .computeIfAbsent(new FunctionKey(library, name), key -> new TreeSet<>()).add(target))));
        Map<SortedSet<GpuArch>, SortedSet<GpuArch>> shared = new java.util.HashMap<>();
        byFunction.replaceAll((key, targets) -> shared.computeIfAbsent(targets,
                set -> Collections.unmodifiableSortedSet(set)));
        return byFunction;
    }

    public static KernelIndex of(List<LibraryScan> scans) {
        // grouped by hash, then ordered once (issue 11: a sorted map's insert per record compared long mangled names
        // a dozen times each; libtorch_cuda.so has 130,498 records of about 60,000 functions)
        Map<FunctionKey, List<KernelRecord>> images = new java.util.HashMap<>();
        Map<String, SortedSet<GpuArch>> ptx = new TreeMap<>();
        Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries = new TreeMap<>();
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
            if (scan.ptxEntriesKnown()) {
                for (String library : scan.libraries()) {
                    Map<GpuArch, SortedSet<String>> byTarget = ptxEntries.computeIfAbsent(library, key -> new TreeMap<>());
                    for (GpuArch target : scan.ptxArchesOf(library)) {
                        SortedSet<String> names = scan.ptxEntriesOf(library, target);
                        byTarget.computeIfAbsent(target, key -> new TreeSet<>()).addAll(names);
                        // a kernel that exists only as PTX: no SASS image, the driver JIT-compiles it (or cannot)
                        names.forEach(name -> images.computeIfAbsent(new FunctionKey(library, name),
                                key -> new ArrayList<>()));
                    }
                }
            }
        }
        FunctionKey[] keys = images.keySet().toArray(new FunctionKey[0]);
        // on every core where there are many (the keys are distinct, so the order is the one a sequential sort gives;
        // below 8,192 keys the JDK sorts on this thread): the comparisons of long mangled names are most of this stage
        java.util.Arrays.parallelSort(keys);
        Map<FunctionKey, List<KernelRecord>> ordered = new java.util.LinkedHashMap<>(keys.length * 4 / 3 + 1);
        for (FunctionKey key : keys) {
            ordered.put(key, List.copyOf(images.get(key)));
        }
        return new KernelIndex(ordered, ptx, ptxEntries, arches, count);
    }

    /** Function -> its SASS images (one record per embedded arch; duplicates kept), in {@link FunctionKey} order. */
    public Map<FunctionKey, List<KernelRecord>> imagesByFunction() {
        return imagesByFunction;
    }

    /** PTX targets embedded in a library, lowest first. */
    public SortedSet<GpuArch> ptxArches(String library) {
        return ptxByLibrary.getOrDefault(library, Collections.emptySortedSet());
    }

    /**
     * The PTX targets that can provide one function: those whose PTX declares it as a kernel when the engine saw PTX
     * entry names for its library, else every PTX target of the library.
     */
    public SortedSet<GpuArch> ptxTargets(FunctionKey function) {
        if (!ptxEntriesByLibrary.containsKey(function.library())) {
            return ptxArches(function.library());
        }
        return ptxTargetsByFunction.getOrDefault(function, Collections.emptySortedSet());
    }

    /** Whether the PTX of a library was read down to its kernel names (so JIT lists are per function). */
    public boolean ptxEntriesKnown(String library) {
        return ptxEntriesByLibrary.containsKey(library);
    }

    /** Every PTX target embedded in any library, lowest first. */
    public SortedSet<GpuArch> allPtxArches() {
        SortedSet<GpuArch> all = new TreeSet<>();
        ptxByLibrary.values().forEach(all::addAll);
        return Collections.unmodifiableSortedSet(all);
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
