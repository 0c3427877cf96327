package io.github.cudastackbudget.core.report.model;

import java.util.List;
import java.util.Objects;

/**
 * The launch log a check read (launched mode): the JSON's top-level {@code launched} block and
 * {@code unmatchedLaunchedKernels}.
 *
 * @param log                the launch log file
 * @param format             the log's format ("cuda-stack-budget injection library", "origin tool (no header)")
 * @param status             the log's status summary ({@code ok}, or the problem the library wrote)
 * @param headline           true when the launched figures are the devices' headline (a complete log); false when
 *                           the log was incomplete and the static worst case stays the headline
 * @param libraryLog         the library log read, or null
 * @param kernels            distinct kernels the log names
 * @param matched            of those, found in a scanned library
 * @param unmatched          of those, in no scanned library
 * @param librariesLoaded    libraries the library log lists (0 without one)
 * @param foundThroughLibraryLog libraries outside the configured file sets that were scanned because the library
 *                           log names them
 * @param notOnThisMachine   library log entries that do not exist on the machine that ran the check
 * @param matchedKernels     the launched kernels found in a scanned library, with the libraries they count in
 * @param unmatchedKernels   the launched kernels found in no scanned library
 */
public record LaunchedRunReport(String log, String format, String status, boolean headline, String libraryLog,
        long kernels, long matched, long unmatched, long librariesLoaded, List<String> foundThroughLibraryLog,
        List<String> notOnThisMachine, List<MatchedLaunch> matchedKernels, List<LaunchEntry> unmatchedKernels) {

    public LaunchedRunReport {
        Objects.requireNonNull(log, "log");
        format = format == null ? "" : format;
        status = status == null ? "" : status;
        foundThroughLibraryLog = List.copyOf(foundThroughLibraryLog);
        notOnThisMachine = List.copyOf(notOnThisMachine);
        matchedKernels = List.copyOf(matchedKernels);
        unmatchedKernels = List.copyOf(unmatchedKernels);
    }
}
