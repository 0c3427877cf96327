package io.github.cudastackbudget.core.report;

import java.nio.file.Path;
import java.util.List;

/**
 * Which report files a check writes and how they name paths (issue 12's outputs).
 *
 * @param formats       the formats as the user wrote them ({@code html,json,txt}), or null/empty for the default three
 * @param baseDirectory the project's base directory: report paths are written relative to it; null: as given
 */
public record OutputOptions(List<String> formats, Path baseDirectory) {

    /** Today's three formats, paths as given. */
    public static final OutputOptions DEFAULT = new OutputOptions(List.of(), null);

    public OutputOptions {
        formats = formats == null ? List.of() : List.copyOf(formats);
    }
}
