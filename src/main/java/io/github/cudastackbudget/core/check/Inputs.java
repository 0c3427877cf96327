package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarLibraryFinder;
import io.github.cudastackbudget.core.scan.LibraryDiscovery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Stage 1: the inputs that hold device code: the files the file sets and the explicit files name, and the
 * native-library entries of the JARs, minus entries whose bytes equal a file scanned anyway.
 *
 * @param files       files with device code, in discovery order
 * @param jarEntries  JAR entries to read in place
 * @param filesProbed candidate files and JAR entries looked at
 * @param jars        JAR files searched
 * @param owners      the owner of each file a file set with its own {@code usedBy} matched (aggregate: the module);
 *                    other files belong to the request's {@code usedBy}
 */
record Inputs(List<DeviceCodeProbe> files, List<JarEntryLibrary> jarEntries, int filesProbed, int jars,
        Map<Path, String> owners) {

    Inputs {
        files = List.copyOf(files);
        jarEntries = List.copyOf(jarEntries);
        owners = Map.copyOf(owners);
    }

    /** The same inputs with other files (the owners kept). */
    Inputs withFiles(List<DeviceCodeProbe> kept) {
        return new Inputs(kept, jarEntries, filesProbed, jars, owners);
    }

    /** Who the file belongs to: its file set's {@code usedBy}, else {@code fallback} (the request's). */
    String owner(Path file, String fallback) {
        return owners.getOrDefault(file.toAbsolutePath().normalize(), fallback);
    }

    /**
     * Finds the inputs; an explicit file without device code is a warning.
     *
     * @throws CheckProblem a configured input that does not exist or cannot be read
     */
    static Inputs find(CheckRequest request, CheckWarnings warnings, CheckProgress listener) throws CheckProblem {
        LibraryDiscovery.Discovery discovery;
        List<JarEntryLibrary> entries = new ArrayList<>();
        try {
            discovery = LibraryDiscovery.discover(request.fileSets(), request.explicitFiles(), request.frontend());
            for (DeviceCodeProbe probe : discovery.explicitWithout()) {
                warnings.noDeviceCode(probe);
            }
            for (JarInput jar : request.jarScan().jars()) {
                entries.addAll(JarLibraryFinder.find(jar, request.jarScan().includes(), request.jarScan().excludes()));
            }
        } catch (LibraryDiscovery.DiscoveryException e) {
            throw new CheckProblem(e.getMessage(), e);
        }
        List<DeviceCodeProbe> files = discovery.withDeviceCode();
        return new Inputs(files, withoutScannedFiles(entries, files, listener), discovery.filesProbed() + entries.size(),
                request.jarScan().jars().size(), discovery.owners());
    }

    boolean isEmpty() {
        return files.isEmpty() && jarEntries.isEmpty();
    }

    /** The files that hold relocatable device code (-rdc), whose frames are final only after the device link. */
    List<DeviceCodeProbe> relocatable() {
        return files.stream().filter(DeviceCodeProbe::onlyRelocatableDeviceCode).toList();
    }


    /** JAR entries minus those whose bytes equal a file scanned anyway (a build-output library the JAR packages). */
    private static List<JarEntryLibrary> withoutScannedFiles(List<JarEntryLibrary> entries, List<DeviceCodeProbe> files,
            CheckProgress listener) throws CheckProblem {
        List<JarEntryLibrary> kept = new ArrayList<>();
        for (JarEntryLibrary entry : entries) {
            Path same = null;
            for (DeviceCodeProbe file : files) {
                try {
                    if (entry.sameBytesAs(file.file())) {
                        same = file.file();
                        break;
                    }
                } catch (IOException e) {
                    throw new CheckProblem("library '" + file.file() + "' cannot be read: " + e.getMessage(), e);
                }
            }
            if (same == null) {
                kept.add(entry);
            } else {
                listener.info("  " + entry.label() + ": the same bytes as " + same + ", which is scanned as a file");
            }
        }
        return kept;
    }
}
