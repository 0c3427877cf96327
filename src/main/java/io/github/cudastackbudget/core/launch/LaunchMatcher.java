package io.github.cudastackbudget.core.launch;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Matches launched kernels to scanned functions by mangled name.
 *
 * <p>A mangled name can exist in several scanned libraries (two builds of one library, a static archive and the shared
 * library linked from it). The rule:
 * <ol>
 *   <li>without a library log, or when the library log names none of the libraries that hold the name, every library
 *       that holds it counts (the safe upper bound: the log does not say which copy ran);</li>
 *   <li>otherwise only the libraries the run loaded count: a scanned file is "loaded" when the library log names the
 *       same file (same real path) or a file of the same name (the run may have happened on another machine or in
 *       another directory, e.g. a recorded log). The copies that were not loaded are listed, not counted;</li>
 *   <li>a name found in no scanned library is "unmatched" and listed.</li>
 *   <li>names are looked up among the SASS functions and, where the engine read them (the native reader), the PTX
 *       kernels: a launched kernel that exists only as PTX is matched, and each device reports it as JIT-compiled
 *       (frame unknown);</li>
 *   <li>a JAR entry ({@code app.jar!/native/libx.so}) counts as loaded when the library log names a file of the
 *       entry's name (the process loaded it from wherever it was extracted).</li>
 * </ol>
 * Within a counted library, each device counts the image it would run ({@code ImageSelector}), as for the static
 * figure.
 */
public final class LaunchMatcher {

    private LaunchMatcher() {
    }

    public static LaunchMatch match(List<LaunchedKernel> launched, List<LibraryScan> scans, LibraryLog libraryLog) {
        Map<String, Set<String>> librariesByName = new TreeMap<>();
        Map<String, LibraryScan> scanByLibrary = new TreeMap<>();
        for (LibraryScan scan : scans) {
            for (KernelRecord record : scan.records()) {
                librariesByName.computeIfAbsent(record.name(), name -> new TreeSet<>()).add(record.library());
                scanByLibrary.putIfAbsent(record.library(), scan);
            }
            // kernels that exist only as PTX (engines that read PTX entry names): the device JIT-compiles them
            for (String library : scan.libraries()) {
                for (GpuArch target : scan.ptxArchesOf(library)) {
                    for (String name : scan.ptxEntriesOf(library, target)) {
                        librariesByName.computeIfAbsent(name, key -> new TreeSet<>()).add(library);
                        scanByLibrary.putIfAbsent(library, scan);
                    }
                }
            }
        }
        Loaded loaded = Loaded.of(libraryLog);
        List<MatchedKernel> matched = new ArrayList<>();
        List<LaunchedKernel> unmatched = new ArrayList<>();
        for (LaunchedKernel kernel : launched) {
            Set<String> holders = librariesByName.get(kernel.name());
            if (holders == null) {
                unmatched.add(kernel);
                continue;
            }
            List<String> loadedHolders = holders.stream()
                    .filter(library -> loaded.contains(scanByLibrary.get(library))).toList();
            if (loadedHolders.isEmpty()) {
                matched.add(new MatchedKernel(kernel, List.copyOf(holders), List.of()));
            } else {
                List<String> others = holders.stream().filter(library -> !loadedHolders.contains(library)).toList();
                matched.add(new MatchedKernel(kernel, loadedHolders, others));
            }
        }
        return new LaunchMatch(matched, unmatched);
    }

    /** Real path of a file, or its normalized absolute path when it cannot be resolved (e.g. not on this machine). */
    static Path real(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException | SecurityException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    /** The files a library log names, by real path and by file name. */
    private record Loaded(Set<Path> paths, Set<String> fileNames) {

        static Loaded of(LibraryLog log) {
            Set<Path> paths = new HashSet<>();
            Set<String> names = new HashSet<>();
            if (log != null) {
                for (Path library : log.libraries()) {
                    paths.add(library.normalize());
                    paths.add(real(library));
                    if (library.getFileName() != null) {
                        names.add(library.getFileName().toString());
                    }
                }
            }
            return new Loaded(paths, names);
        }

        /**
         * @param scan the scan that holds a library; a JAR entry counts when the log names a file of the entry's name
         *             (a process loads such a library from wherever it was extracted)
         */
        boolean contains(LibraryScan scan) {
            if (scan == null) {
                return false;
            }
            if (scan.jarEntry() != null && fileNames.contains(scan.jarEntry().fileName())) {
                return true;
            }
            Path scanned = scan.path();
            Path absolute = scanned.toAbsolutePath().normalize();
            return paths.contains(absolute) || paths.contains(real(scanned))
                    || (absolute.getFileName() != null && fileNames.contains(absolute.getFileName().toString()));
        }
    }
}
