package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.LibraryDiscovery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Decides whether the JSON report that {@code check} wrote still describes the build, so that the {@code report}
 * goal can render it instead of scanning again.
 *
 * <p>The rule ("up to date"): the JSON file exists, and its last-modified time is not earlier than that of
 * <ol>
 * <li>every file the configured {@code libraries} file sets match and every {@code libraryFiles} entry (the same
 * patterns {@code check} scans; matched, not probed, so a rebuilt library of any kind makes the JSON stale), and the
 * configured {@code launchLog} and its library log (a newer recorded run), and</li>
 * <li>the project's POM file (a changed configuration: devices, budgets, file sets),</li>
 * </ol>
 * and every library the JSON lists ({@code libraries[].path}) still exists ({@link #missingLibraries}). Anything else
 * is stale, and the goal scans with its own configuration. Equal times count as up to date (the JSON is written after
 * the scan it describes).
 */
final class JsonFreshness {

    /**
     * The decision and its reason, for the log.
     *
     * @param upToDate true when the JSON may be rendered
     * @param reason   one line: why (names the newer file when stale)
     */
    record Decision(boolean upToDate, String reason) {
    }

    private JsonFreshness() {
    }

    /**
     * @param json          the JSON report
     * @param fileSets      what the goal would scan, by pattern
     * @param explicitFiles what the goal would read, named one by one: {@code libraryFiles}, the launch logs
     * @param pom           the project's POM file, or null when the project has none
     */
    static Decision decide(Path json, List<FileSetSpec> fileSets, List<Path> explicitFiles, Path pom)
            throws IOException {
        FileTime written;
        try {
            written = Files.getLastModifiedTime(json);
        } catch (NoSuchFileException e) {
            return new Decision(false, json + " does not exist (check has not run)");
        }
        List<Path> inputs = new ArrayList<>();
        for (FileSetSpec fileSet : fileSets) {
            inputs.addAll(LibraryDiscovery.expand(fileSet));
        }
        inputs.addAll(explicitFiles);
        for (Path input : inputs) {
            if (Files.exists(input) && Files.getLastModifiedTime(input).compareTo(written) > 0) {
                return new Decision(false, input + " is newer than " + json);
            }
        }
        if (pom != null && Files.exists(pom) && Files.getLastModifiedTime(pom).compareTo(written) > 0) {
            return new Decision(false, pom + " is newer than " + json + " (the configuration may have changed)");
        }
        return new Decision(true, json + " is up to date (not older than the " + inputs.size()
                + " matched file(s) and the POM)");
    }

    /** The libraries a JSON report lists that no longer exist (a stale or foreign report). */
    static List<String> missingLibraries(Collection<String> listedPaths) {
        return missingLibraries(null, listedPaths);
    }

    /**
     * The libraries a JSON report lists that no longer exist; a relative path (the check writes paths under the
     * project relative to it) is resolved against {@code base} (null: the working directory).
     */
    static List<String> missingLibraries(Path base, Collection<String> listedPaths) {
        return listedPaths.stream().filter(path -> !Files.exists(base == null ? Path.of(path)
                : base.resolve(path.contains("!/") ? path.substring(0, path.indexOf("!/")) : path)))
                .sorted().toList();
    }
}
