package io.github.cudastackbudget.core.baseline;

import java.nio.file.Path;

/**
 * The comparison with a previous report (issue 12), as the user wrote it.
 *
 * @param baseline              the previous JSON report ({@code cuda-stack-budget.json} of an earlier check), or null
 *                              for no comparison
 * @param maxGrowth             the growth allowed over the baseline's reservation of every device and over the largest
 *                              reservation of all devices: a size ({@code 64 MiB}) or a percentage of the baseline's
 *                              figure ({@code 10%}); null or blank: the comparison is reported and gates nothing
 *                              (a device's own {@code maxGrowth} still gates that device)
 * @param ignoreMissingBaseline a baseline that does not exist is one INFO line (a first release), not an error
 * @param label                 how the reports and messages name the baseline (an artifact's coordinates, a path
 *                              relative to the project), or null for the file itself
 */
public record BaselineOptions(Path baseline, String maxGrowth, boolean ignoreMissingBaseline, String label) {

    /** No comparison. */
    public static final BaselineOptions NONE = new BaselineOptions(null, null, false, null);

    /** A baseline named by its file. */
    public BaselineOptions(Path baseline, String maxGrowth, boolean ignoreMissingBaseline) {
        this(baseline, maxGrowth, ignoreMissingBaseline, null);
    }

    /** How messages name the baseline: its label, else its file. */
    public String describe() {
        return label != null && !label.isBlank() ? label : String.valueOf(baseline);
    }
}
