package io.github.cudastackbudget.core.scan;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A directory with Ant-style include and exclude patterns ({@code **}/{@code *.so} also matches files at the top).
 *
 * @param directory the base directory
 * @param includes  include patterns; empty means everything
 * @param excludes  exclude patterns
 * @param usedBy    who the matched files belong to (a reactor module's {@code groupId:artifactId:version}, for the
 *                  "used by" listing of the {@code aggregate} goal), or empty: the check's own {@code usedBy}
 */
public record FileSetSpec(Path directory, List<String> includes, List<String> excludes, String usedBy) {

    /** What {@code check} scans when no {@code libraries} are configured. */
    public static final List<String> DEFAULT_INCLUDES = List.of("**/*.so", "**/*.so.*", "**/*.cubin", "**/*.fatbin",
            "**/*.o", "**/*.a", "**/*.dll");

    public FileSetSpec {
        Objects.requireNonNull(directory, "directory");
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
        usedBy = usedBy == null ? "" : usedBy;
    }

    /** A file set whose files belong to the check's own {@code usedBy}. */
    public FileSetSpec(Path directory, List<String> includes, List<String> excludes) {
        this(directory, includes, excludes, "");
    }
}
