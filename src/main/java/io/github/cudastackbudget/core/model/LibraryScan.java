package io.github.cudastackbudget.core.model;

import io.github.cudastackbudget.core.arch.GpuArch;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one engine read from one file that holds device code.
 *
 * @param path          the file that was read
 * @param libraries     the library labels found in it, in the tool's order: the file name, or one
 *                      {@code libfoo.a(member.o)} per archive member with device code
 * @param records       every function record of every SASS image, in the tool's order
 * @param sassArches    targets of the embedded SASS images per library label (including images without functions)
 * @param ptxArches     targets of the embedded PTX images per library label (a PTX image carries no figures)
 * @param usedBy        who ships or uses the file (a Maven artifact, a module) for the "used by" listing; may be empty
 * @param elapsedMillis wall time of the read
 * @param ptxEntries    the kernels ({@code .entry} names) of the embedded PTX per library label and PTX target; only
 *                      meaningful when {@code ptxEntriesKnown}
 * @param ptxEntriesKnown whether the engine could see PTX entry names (native: yes; cuobjdump's resource listing:
 *                      no, so the map is empty and says nothing)
 * @param jarEntry      the JAR entry the bytes came from (the scan of a library read in place inside a JAR, whose
 *                      {@code path} is the JAR), or null for a file on disk
 * @param platform      the platform the file is built for: {@code linux-x86_64}, {@code windows-x86_64} (the fatbin's
 *                      host flags and the file format), {@code unknown} for a bare cubin or when not known
 */
public record LibraryScan(Path path, List<String> libraries, List<KernelRecord> records,
        Map<String, SortedSet<GpuArch>> sassArches, Map<String, SortedSet<GpuArch>> ptxArches, String usedBy,
        long elapsedMillis, Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries, boolean ptxEntriesKnown,
        JarEntry jarEntry, String platform) {

    /** The platform of a scan that does not say. */
    public static final String UNKNOWN_PLATFORM = "unknown";

    /**
     * A library read in place inside a JAR.
     *
     * @param label    how reports name the entry: {@code app.jar!/native/libx.so} (its library labels start with it)
     * @param fileName the entry's file name ({@code libx.so}): what a process that extracted and loaded it names
     */
    public record JarEntry(String label, String fileName) {
        public JarEntry {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(fileName, "fileName");
        }
    }

    public LibraryScan {
        Objects.requireNonNull(path, "path");
        libraries = List.copyOf(libraries);
        records = List.copyOf(records);
        sassArches = immutableCopy(sassArches);
        ptxArches = immutableCopy(ptxArches);
        usedBy = usedBy == null ? "" : usedBy;
        ptxEntries = immutableEntries(ptxEntries == null ? Map.of() : ptxEntries);
        platform = platform == null || platform.isEmpty() ? UNKNOWN_PLATFORM : platform;
    }

    /** A scan whose platform is not known. */
    public LibraryScan(Path path, List<String> libraries, List<KernelRecord> records,
            Map<String, SortedSet<GpuArch>> sassArches, Map<String, SortedSet<GpuArch>> ptxArches, String usedBy,
            long elapsedMillis, Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries, boolean ptxEntriesKnown,
            JarEntry jarEntry) {
        this(path, libraries, records, sassArches, ptxArches, usedBy, elapsedMillis, ptxEntries, ptxEntriesKnown,
                jarEntry, UNKNOWN_PLATFORM);
    }

    /** A scan of a file on disk. */
    public LibraryScan(Path path, List<String> libraries, List<KernelRecord> records,
            Map<String, SortedSet<GpuArch>> sassArches, Map<String, SortedSet<GpuArch>> ptxArches, String usedBy,
            long elapsedMillis, Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries, boolean ptxEntriesKnown) {
        this(path, libraries, records, sassArches, ptxArches, usedBy, elapsedMillis, ptxEntries, ptxEntriesKnown, null);
    }

    /** A scan by an engine that does not see PTX entry names (cuobjdump). */
    public LibraryScan(Path path, List<String> libraries, List<KernelRecord> records,
            Map<String, SortedSet<GpuArch>> sassArches, Map<String, SortedSet<GpuArch>> ptxArches, String usedBy,
            long elapsedMillis) {
        this(path, libraries, records, sassArches, ptxArches, usedBy, elapsedMillis, Map.of(), false, null);
    }

    private static Map<String, Map<GpuArch, SortedSet<String>>> immutableEntries(
            Map<String, Map<GpuArch, SortedSet<String>>> source) {
        Map<String, Map<GpuArch, SortedSet<String>>> copy = new TreeMap<>();
        source.forEach((library, byArch) -> {
            Map<GpuArch, SortedSet<String>> arches = new TreeMap<>();
            byArch.forEach((arch, names) -> arches.put(arch, Collections.unmodifiableSortedSet(new TreeSet<>(names))));
            copy.put(library, Collections.unmodifiableMap(arches));
        });
        return Collections.unmodifiableMap(copy);
    }

    /**
     * The kernel names of the PTX for {@code arch} in one library label; empty when there is none or when
     * {@link #ptxEntriesKnown()} is false.
     */
    public SortedSet<String> ptxEntriesOf(String library, GpuArch arch) {
        return ptxEntries.getOrDefault(library, Map.of()).getOrDefault(arch, Collections.emptySortedSet());
    }

    private static Map<String, SortedSet<GpuArch>> immutableCopy(Map<String, SortedSet<GpuArch>> source) {
        Map<String, SortedSet<GpuArch>> copy = new TreeMap<>();
        source.forEach((library, arches) -> copy.put(library, Collections.unmodifiableSortedSet(new TreeSet<>(arches))));
        return Collections.unmodifiableMap(copy);
    }

    /** The same scan attributed to {@code owner}. */
    public LibraryScan withUsedBy(String owner) {
        return new LibraryScan(path, libraries, records, sassArches, ptxArches, owner, elapsedMillis, ptxEntries,
                ptxEntriesKnown, jarEntry, platform);
    }

    /** The same scan for {@code newPlatform}. */
    public LibraryScan withPlatform(String newPlatform) {
        return new LibraryScan(path, libraries, records, sassArches, ptxArches, usedBy, elapsedMillis, ptxEntries,
                ptxEntriesKnown, jarEntry, newPlatform);
    }

    /** The same scan marked as read from a JAR entry. */
    public LibraryScan fromJarEntry(JarEntry entry) {
        return new LibraryScan(path, libraries, records, sassArches, ptxArches, usedBy, elapsedMillis, ptxEntries,
                ptxEntriesKnown, Objects.requireNonNull(entry, "entry"), platform);
    }

    /** The name progress lines and the file count use: the JAR entry's label, else the file name. */
    public String displayName() {
        return jarEntry != null ? jarEntry.label() : String.valueOf(path.getFileName());
    }

    /** SASS targets of one library label, lowest first; empty when unknown. */
    public SortedSet<GpuArch> sassArchesOf(String library) {
        return sassArches.getOrDefault(library, Collections.emptySortedSet());
    }

    /** PTX targets of one library label, lowest first; empty when none. */
    public SortedSet<GpuArch> ptxArchesOf(String library) {
        return ptxArches.getOrDefault(library, Collections.emptySortedSet());
    }
}
