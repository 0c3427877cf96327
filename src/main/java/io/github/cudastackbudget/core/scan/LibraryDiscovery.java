package io.github.cudastackbudget.core.scan;

import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.codehaus.plexus.util.DirectoryScanner;

/**
 * Finds the files to scan and keeps those that hold device code (as the {@link DeviceCodeDetector} judges them; no
 * bytes are interpreted here).
 *
 * <p>Files matched by a pattern that turn out not to be ELF (or are truncated) are skipped quietly; files named
 * explicitly must exist and be readable, and one without device code is reported.
 */
public final class LibraryDiscovery {

    private LibraryDiscovery() {
    }

    /**
     * Expands file sets with Plexus' Ant-style matcher (the one Maven's own FileSets use), in a stable sorted order.
     * A missing base directory yields nothing.
     */
    public static List<Path> expand(FileSetSpec fileSet) {
        Path directory = fileSet.directory();
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        DirectoryScanner scanner = new DirectoryScanner();
        scanner.setBasedir(directory.toFile());
        if (!fileSet.includes().isEmpty()) {
            scanner.setIncludes(fileSet.includes().toArray(String[]::new));
        }
        if (!fileSet.excludes().isEmpty()) {
            scanner.setExcludes(fileSet.excludes().toArray(String[]::new));
        }
        scanner.addDefaultExcludes();
        scanner.setFollowSymlinks(true);
        scanner.scan();
        List<Path> files = new ArrayList<>();
        for (String relative : scanner.getIncludedFiles()) {
            files.add(directory.resolve(relative));
        }
        files.sort(null);
        return files;
    }

    /**
     * Probes every candidate.
     *
     * @param fileSets      pattern-matched inputs (non-ELF files skipped quietly)
     * @param explicitFiles named inputs (must exist; reported when they hold no device code)
     * @param frontend      how messages name the options
     * @throws DiscoveryException naming an explicit file that is missing or unreadable
     */
    public static Discovery discover(List<FileSetSpec> fileSets, List<Path> explicitFiles, Frontend frontend)
            throws DiscoveryException {
        Objects.requireNonNull(frontend, "frontend");
        Map<Path, Boolean> candidates = new LinkedHashMap<>();
        Map<Path, String> owners = new LinkedHashMap<>();
        java.util.Set<Path> seen = new java.util.HashSet<>();
        for (FileSetSpec fileSet : fileSets) {
            for (Path file : expand(fileSet)) {
                // libx.so -> libx.so.1 -> libx.so.1.2: one file, scanned once, under the first name matched
                if (seen.add(realPath(file))) {
                    Path absolute = file.toAbsolutePath().normalize();
                    candidates.putIfAbsent(absolute, false);
                    if (!fileSet.usedBy().isEmpty()) {
                        // the first file set that matched it owns it (aggregate: the module whose build made it)
                        owners.putIfAbsent(absolute, fileSet.usedBy());
                    }
                }
            }
        }
        for (Path file : explicitFiles) {
            Path absolute = file.toAbsolutePath().normalize();
            if (Files.isRegularFile(absolute) && !seen.add(realPath(absolute)) && !candidates.containsKey(absolute)) {
                continue;
            }
            if (!Files.isRegularFile(absolute)) {
                throw new DiscoveryException("library '" + file + "' does not exist or is not a file: fix the path in "
                        + frontend.howToSet(Option.LIBRARY_FILES, file.toString()) + " or remove it");
            }
            if (!Files.isReadable(absolute)) {
                throw new DiscoveryException("library '" + file + "' is not readable: check its permissions");
            }
            candidates.put(absolute, true);
        }
        List<DeviceCodeProbe> withDeviceCode = new ArrayList<>();
        List<DeviceCodeProbe> explicitWithout = new ArrayList<>();
        int probed = 0;
        for (Map.Entry<Path, Boolean> candidate : candidates.entrySet()) {
            DeviceCodeProbe probe;
            try {
                probe = DeviceCodeDetector.probe(candidate.getKey());
            } catch (IOException e) {
                if (candidate.getValue()) {
                    throw new DiscoveryException("library '" + candidate.getKey() + "' cannot be read: " + e.getMessage());
                }
                continue;
            }
            probed++;
            if (probe.hasDeviceCode()) {
                withDeviceCode.add(probe);
            } else if (candidate.getValue()) {
                explicitWithout.add(probe);
            }
        }
        owners.keySet().retainAll(withDeviceCode.stream().map(DeviceCodeProbe::file).toList());
        return new Discovery(probed, withDeviceCode, explicitWithout, owners);
    }

    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    /**
     * The outcome of discovery.
     *
     * @param filesProbed      how many candidate files were looked at
     * @param withDeviceCode   files holding device code, in discovery order
     * @param explicitWithout  explicitly named files without device code (to report)
     * @param owners           the owner of each file with device code that a file set with a {@code usedBy} matched
     *                         (the other files belong to the check's own {@code usedBy})
     */
    public record Discovery(int filesProbed, List<DeviceCodeProbe> withDeviceCode, List<DeviceCodeProbe> explicitWithout,
            Map<Path, String> owners) {
        public Discovery {
            withDeviceCode = List.copyOf(withDeviceCode);
            explicitWithout = List.copyOf(explicitWithout);
            owners = Map.copyOf(owners);
        }

        /** A discovery whose files all belong to the check's own {@code usedBy}. */
        public Discovery(int filesProbed, List<DeviceCodeProbe> withDeviceCode, List<DeviceCodeProbe> explicitWithout) {
            this(filesProbed, withDeviceCode, explicitWithout, Map.of());
        }
    }

    /** An input named by the user cannot be used. */
    public static final class DiscoveryException extends Exception {
        private static final long serialVersionUID = 1L;

        public DiscoveryException(String message) {
            super(message);
        }
    }
}
