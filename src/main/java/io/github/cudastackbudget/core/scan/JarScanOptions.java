package io.github.cudastackbudget.core.scan;

import java.util.List;

/**
 * Which JAR files to look into for native libraries, and which entries count.
 *
 * @param jars     the JARs (the project's own, and dependencies when asked for)
 * @param includes entry patterns; empty means {@link FileSetSpec#DEFAULT_INCLUDES}
 * @param excludes entry patterns to leave out
 */
public record JarScanOptions(List<JarInput> jars, List<String> includes, List<String> excludes) {

    /** No JAR scanning. */
    public static final JarScanOptions NONE = new JarScanOptions(List.of(), List.of(), List.of());

    public JarScanOptions {
        jars = List.copyOf(jars);
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
    }
}
