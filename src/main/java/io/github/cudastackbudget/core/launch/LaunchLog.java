package io.github.cudastackbudget.core.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A kernel launch log as the check read it ({@link LaunchLogReader}).
 *
 * <p>Format (written by this plugin's CUPTI injection library):
 * <pre>
 * # cuda-stack-budget launch log 2
 * # status: ok                          (or: # status: PROBLEM - DETAIL)
 * MANGLED-NAME &lt;TAB&gt; ATTRIBUTION &lt;TAB&gt; MAX-DYNAMIC-SHARED-BYTES &lt;TAB&gt; LOCAL &lt;TAB&gt; REGS &lt;TAB&gt; SHARED &lt;TAB&gt; sm_XX
 * </pre>
 * The last four columns (format 2) are the driver's figures of the launched function, each {@code unknown} when the
 * driver did not give it; format 1 has only the first three columns.
 * Other {@code #} lines are metadata and ignored; a log of several processes may repeat the header and status. A log
 * written by the origin tool has no {@code #} lines, and old ones lack the third column: both are accepted.
 *
 * @param file      the log
 * @param format    which writer's format it is in
 * @param statuses  every {@code # status:} value, in file order (empty for the origin tool's format)
 * @param kernels   the launched kernels, one per mangled name, sorted by name
 * @param dataLines the number of well-formed data lines
 * @param warnings  what was wrong with the log, one line each, naming the file (and line where there is one)
 */
public record LaunchLog(Path file, Format format, List<String> statuses, List<LaunchedKernel> kernels, int dataLines,
        List<String> warnings) {

    /** The status value that says the run was recorded completely. */
    public static final String STATUS_OK = "ok";

    public LaunchLog {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(format, "format");
        statuses = List.copyOf(statuses);
        kernels = List.copyOf(kernels);
        warnings = List.copyOf(warnings);
    }

    /** Who wrote the log. */
    public enum Format {
        /** this plugin's injection library: header, status line, three columns. */
        AGENT_V1("cuda-stack-budget launch log 1"),
        /** this plugin's injection library with the driver's figures: header, status line, seven columns. */
        AGENT_V2("cuda-stack-budget launch log 2"),
        /** the origin tool: no header, two or three columns. */
        SEED("origin tool (no header)"),
        /** a file with nothing in it. */
        EMPTY("empty file");

        private final String label;

        Format(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * Whether the log describes a complete run: not empty, and (in this plugin's format) every recorded status is
     * {@code ok}. Only then does the launched figure become the headline.
     */
    public boolean complete() {
        return switch (format) {
            case EMPTY -> false;
            case SEED -> true;
            case AGENT_V1, AGENT_V2 -> !statuses.isEmpty() && statuses.stream().allMatch(STATUS_OK::equals);
        };
    }

    /** Whether this plugin's injection library wrote the log (format 1 or 2). */
    public boolean agent() {
        return format == Format.AGENT_V1 || format == Format.AGENT_V2;
    }

    /** The status for reports: {@code ok}, the first problem, or the format's label when it has no status line. */
    public String statusSummary() {
        if (format == Format.EMPTY) {
            return "empty";
        }
        if (statuses.isEmpty()) {
            return format == Format.SEED ? STATUS_OK + " (origin tool format, no status line)" : "missing";
        }
        return statuses.stream().filter(status -> !STATUS_OK.equals(status)).findFirst().orElse(STATUS_OK);
    }
}
