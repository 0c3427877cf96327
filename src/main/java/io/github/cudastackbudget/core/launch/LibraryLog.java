package io.github.cudastackbudget.core.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The libraries a recorded run had loaded, as the injection library lists them ({@code dl_iterate_phdr}):
 * <pre>
 * # cuda-stack-budget library log 1
 * /abs/path/libfoo.so
 * </pre>
 * A log of the origin tool has no header. Other {@code #} lines are ignored.
 *
 * @param file      the log
 * @param libraries the absolute paths as the loader named them, duplicates removed, in log order
 * @param warnings  malformed lines, naming file and line
 */
public record LibraryLog(Path file, List<Path> libraries, List<String> warnings) {

    public LibraryLog {
        Objects.requireNonNull(file, "file");
        libraries = List.copyOf(libraries);
        warnings = List.copyOf(warnings);
    }
}
