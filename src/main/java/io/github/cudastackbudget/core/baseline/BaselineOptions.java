package io.github.cudastackbudget.core.baseline;

import java.nio.file.Path;

/**
 * The comparison with a previous report (issue 12).
 *
 * @param baseline              the previous JSON report, or null for no comparison
 * @param maxGrowth             the allowed growth (bytes or a percentage), or null
 * @param ignoreMissingBaseline a baseline that does not exist is an INFO line, not an error
 */
public record BaselineOptions(Path baseline, String maxGrowth, boolean ignoreMissingBaseline) {

    /** No comparison. */
    public static final BaselineOptions NONE = new BaselineOptions(null, null, false);
}
