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
 */
public record FileSetSpec(Path directory, List<String> includes, List<String> excludes) {

    /** What {@code check} scans when no {@code libraries} are configured. */
    public static final List<String> DEFAULT_INCLUDES = List.of("**/*.so", "**/*.so.*", "**/*.cubin", "**/*.fatbin",
            "**/*.o", "**/*.a", "**/*.dll");

    public FileSetSpec {
        Objects.requireNonNull(directory, "directory");
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
    }
}
