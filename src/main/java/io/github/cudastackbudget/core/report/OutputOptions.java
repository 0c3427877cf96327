package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which report files a check writes and how they name paths (issue 12's outputs).
 *
 * @param formats       the format ids as the user wrote them ({@code html}, {@code json}, ...; an element may hold
 *                      several separated by commas), or null/empty for the default three ({@link #DEFAULT_FORMATS})
 * @param baseDirectory the project's base directory: library, log and file paths under it are written relative to
 *                      it in every report; null: as given
 */
public record OutputOptions(List<String> formats, Path baseDirectory) {

    /** The formats written when none are named: {@code html,json,txt}. */
    public static final String DEFAULT_FORMATS = "html,json,txt";

    /** Today's three formats, paths as given. */
    public static final OutputOptions DEFAULT = new OutputOptions(List.of(), null);

    public OutputOptions {
        formats = formats == null ? List.of() : List.copyOf(formats);
    }

    /** Options naming the formats as one comma-separated value ({@code -DcudaStackBudget.formats=json,sarif}). */
    public static OutputOptions of(String formats, Path baseDirectory) {
        return new OutputOptions(formats == null ? List.of() : List.of(formats), baseDirectory);
    }

    /** Every format id, comma-separated: {@code json, txt, html, markdown, junit, sarif}. */
    public static String allowed() {
        return Arrays.stream(ReportFormat.values()).map(ReportFormat::id).collect(Collectors.joining(", "));
    }

    /**
     * The formats to write, in {@link ReportFormat}'s order; the default three when none are named.
     *
     * @param option how the front end names the option ({@code formats}, {@code --formats})
     * @throws InvalidValueException an id that is no format (one line naming the option and the allowed ids), or a
     *                               list that names none
     */
    public Set<ReportFormat> selected(String option) {
        List<String> ids = formats.stream().flatMap(value -> Arrays.stream(value.split(",", -1)))
                .map(String::strip).toList();
        if (ids.stream().allMatch(String::isEmpty)) {
            ids = List.of(DEFAULT_FORMATS.split(","));
        }
        Set<ReportFormat> selected = EnumSet.noneOf(ReportFormat.class);
        for (String id : ids) {
            if (id.isEmpty()) {
                continue;
            }
            ReportFormat format = ReportFormat.byId(id);
            if (format == null) {
                throw new InvalidValueException(option + " '" + String.join(",", formats) + "': '" + id
                        + "' is not a report format; use a comma-separated list of " + allowed() + " (default "
                        + DEFAULT_FORMATS + ")");
            }
            selected.add(format);
        }
        return selected;
    }
}
