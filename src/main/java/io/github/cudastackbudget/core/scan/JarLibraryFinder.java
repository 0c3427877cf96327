package io.github.cudastackbudget.core.scan;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.codehaus.plexus.util.SelectorUtils;

/**
 * Lists the entries of a JAR that may be native libraries with device code, by the same Ant-style patterns as the
 * file sets ({@code **}/{@code *.so} also matches entries at the top). Entries are not read here.
 */
public final class JarLibraryFinder {

    private JarLibraryFinder() {
    }

    /**
     * @param input    the JAR
     * @param includes include patterns (empty: {@link FileSetSpec#DEFAULT_INCLUDES})
     * @param excludes exclude patterns
     * @return matching file entries in entry-name order
     * @throws LibraryDiscovery.DiscoveryException naming the JAR when it is missing or not a readable ZIP
     */
    public static List<JarEntryLibrary> find(JarInput input, List<String> includes, List<String> excludes)
            throws LibraryDiscovery.DiscoveryException {
        if (!Files.isRegularFile(input.jar())) {
            throw new LibraryDiscovery.DiscoveryException("JAR '" + input.jar() + "' does not exist or is not a file"
                    + (input.usedBy().isEmpty() ? "" : " (" + input.usedBy() + ")") + ": build it first (run the "
                    + "check after 'package') or turn JAR scanning off");
        }
        List<String> patterns = includes.isEmpty() ? FileSetSpec.DEFAULT_INCLUDES : includes;
        List<JarEntryLibrary> found = new ArrayList<>();
        try (ZipFile zip = ZipFile.builder().setPath(input.jar()).get()) {
            Enumeration<ZipArchiveEntry> entries = zip.getEntries();
            while (entries.hasMoreElements()) {
                ZipArchiveEntry entry = entries.nextElement();
                if (entry.isDirectory() || entry.isUnixSymlink()) {
                    continue;
                }
                String name = entry.getName();
                if (!matchesAny(patterns, name) || matchesAny(excludes, name)) {
                    continue;
                }
                if (!zip.canReadEntryData(entry)) {
                    throw new LibraryDiscovery.DiscoveryException("JAR '" + input.jar() + "' entry '" + name
                            + "' uses a compression method or encryption that cannot be read (method "
                            + entry.getMethod() + "): repackage it with plain DEFLATE or STORED");
                }
                boolean stored = entry.getMethod() == ZipArchiveEntry.STORED;
                found.add(new JarEntryLibrary(input.jar().toAbsolutePath().normalize(), name, entry.getSize(), stored,
                        stored ? entry.getDataOffset() : -1, input.usedBy()));
            }
        } catch (IOException e) {
            throw new LibraryDiscovery.DiscoveryException("JAR '" + input.jar() + "' cannot be read as a ZIP archive ("
                    + e.getMessage() + "): check that the file is a complete JAR");
        }
        found.sort((a, b) -> a.entryName().compareTo(b.entryName()));
        return found;
    }

    private static boolean matchesAny(List<String> patterns, String entryName) {
        for (String pattern : patterns) {
            String normalized = pattern.replace('\\', '/');
            if (SelectorUtils.matchPath(normalized, entryName, "/", true)
                    || (normalized.startsWith("**/") && SelectorUtils.matchPath(normalized.substring(3), entryName, "/",
                            true))) {
                return true;
            }
        }
        return false;
    }

}
