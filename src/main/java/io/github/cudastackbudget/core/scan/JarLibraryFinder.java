package io.github.cudastackbudget.core.scan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.codehaus.plexus.util.SelectorUtils;

/**
 * Lists the entries of a JAR that may be native libraries with device code, by the same Ant-style patterns as the
 * file sets ({@code **}/{@code *.so} also matches entries at the top). Entries are not read here.
 *
 * <p>Limits, for JARs the build did not make: at most {@link #MAX_ENTRIES} entries per archive (more is refused with
 * one line), JARs nested one level deep are opened (Spring Boot's {@code BOOT-INF/lib}, a WAR's {@code WEB-INF/lib}),
 * JARs nested in those are not; the size limits of an entry are {@link JarEntryLibrary}'s.
 */
public final class JarLibraryFinder {

    /** The most entries one archive may have: 3 times the largest JAR on Maven Central we know of. */
    public static final int MAX_ENTRIES = 500_000;

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
        return find(input, includes, excludes, MAX_ENTRIES);
    }

    /** {@link #find(JarInput, List, List)} with another entry limit (tests). */
    static List<JarEntryLibrary> find(JarInput input, List<String> includes, List<String> excludes, int maxEntries)
            throws LibraryDiscovery.DiscoveryException {
        if (!Files.isRegularFile(input.jar())) {
            throw new LibraryDiscovery.DiscoveryException("JAR '" + input.jar() + "' does not exist or is not a file"
                    + (input.usedBy().isEmpty() ? "" : " (" + input.usedBy() + ")") + ": build it first (run the "
                    + "check after 'package') or turn JAR scanning off");
        }
        List<String> patterns = includes.isEmpty() ? FileSetSpec.DEFAULT_INCLUDES : includes;
        List<JarEntryLibrary> found = new ArrayList<>();
        Path jar = input.jar().toAbsolutePath().normalize();
        if (holdsNoCandidate(jar, patterns, excludes, maxEntries)) {
            return found;
        }
        try (ZipFile zip = ZipFile.builder().setPath(input.jar()).get()) {
            List<JarEntryLibrary> nestedJars = collect(zip, jar, null, patterns, excludes, input.usedBy(), found,
                    maxEntries);
            for (JarEntryLibrary nested : nestedJars) {
                try (ZipFile inner = ZipFile.builder().setSeekableByteChannel(new ByteBufferChannel(nested.read()))
                        .get()) {
                    collect(inner, jar, nested, patterns, excludes, input.usedBy(), found, maxEntries);
                } catch (IOException e) {
                    // an entry named .jar that is not a ZIP: skipped like any pattern-matched file that is no library
                }
            }
        } catch (IOException e) {
            throw new LibraryDiscovery.DiscoveryException("JAR '" + input.jar() + "' cannot be read as a ZIP archive ("
                    + e.getMessage() + "): check that the file is a complete JAR");
        }
        found.sort((a, b) -> a.label().compareTo(b.label()));
        return found;
    }

    /**
     * Whether the JAR certainly holds no entry that {@link #collect} would keep: no file entry matching the patterns
     * and no nested JAR, at most {@code maxEntries} entries, all listed by the JDK's {@link java.util.zip.ZipFile}
     * (loaded in any JVM that runs a build). Most JARs of a project without native code are such, and this pass spares
     * them commons-compress' cold start (its ZIP classes and commons-io's builders, about 40 ms of a cold build; issue
     * 11). Anything else (a candidate, a symbolic link the JDK cannot tell from a file, too many entries, a ZIP the JDK
     * cannot read) goes through commons-compress as before, which keeps or rejects it with its own message.
     */
    private static boolean holdsNoCandidate(Path jar, List<String> patterns, List<String> excludes, int maxEntries) {
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            if (zip.size() > maxEntries) {
                return false;
            }
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (!entry.isDirectory() && ((matchesAny(patterns, name) && !matchesAny(excludes, name))
                        || name.toLowerCase(Locale.ROOT).endsWith(".jar"))) {
                    return false;
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Adds the library entries of one ZIP to {@code found}.
     *
     * @param container the nested JAR entry the ZIP is, or null for the JAR on disk
     * @return the nested JARs of the JAR on disk (e.g. {@code BOOT-INF/lib/*.jar}); none for a nested JAR (one level)
     */
    private static List<JarEntryLibrary> collect(ZipFile zip, Path jar, JarEntryLibrary container,
            List<String> patterns, List<String> excludes, String usedBy, List<JarEntryLibrary> found, int maxEntries)
            throws LibraryDiscovery.DiscoveryException {
        List<JarEntryLibrary> nestedJars = new ArrayList<>();
        Enumeration<ZipArchiveEntry> entries = zip.getEntries();
        int count = 0;
        while (entries.hasMoreElements()) {
            ZipArchiveEntry entry = entries.nextElement();
            if (++count > maxEntries) {
                throw new LibraryDiscovery.DiscoveryException("JAR '" + (container == null ? jar : container.location())
                        + "' has more than " + maxEntries + " entries, more than any real JAR: it is damaged or "
                        + "hostile; leave it out of the scan or unpack the libraries it ships");
            }
            if (entry.isDirectory() || entry.isUnixSymlink()) {
                continue;
            }
            String name = entry.getName();
            boolean library = matchesAny(patterns, name) && !matchesAny(excludes, name);
            boolean nestedJar = container == null && name.toLowerCase(Locale.ROOT).endsWith(".jar");
            if (!library && !nestedJar) {
                continue;
            }
            String where = container == null ? jar + "!/" + name : container.location() + "!/" + name;
            if (!zip.canReadEntryData(entry)) {
                throw new LibraryDiscovery.DiscoveryException("JAR entry '" + where + "' uses a compression method "
                        + "or encryption that cannot be read (method " + entry.getMethod() + "): repackage it with "
                        + "plain DEFLATE or STORED");
            }
            boolean stored = entry.getMethod() == ZipArchiveEntry.STORED;
            JarEntryLibrary candidate = new JarEntryLibrary(jar, container, name, entry.getSize(), stored,
                    stored ? entry.getDataOffset() : -1, entry.getCrc(), entry.getCompressedSize(), usedBy);
            if (library) {
                found.add(candidate);
            } else {
                nestedJars.add(candidate);
            }
        }
        return nestedJars;
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
