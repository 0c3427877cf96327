package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.launch.LaunchLog;
import io.github.cudastackbudget.core.launch.LibraryLog;
import java.util.Objects;

/**
 * The logs of a recorded run (launched mode).
 *
 * @param log        the kernel launch log
 * @param libraryLog the library log, or null when there is none
 */
public record LaunchLogs(LaunchLog log, LibraryLog libraryLog) {
    public LaunchLogs {
        Objects.requireNonNull(log, "log");
    }
}
