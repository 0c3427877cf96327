package io.github.cudastackbudget.core.launch;

import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a check learned from a recorded run (launched mode): the logs, the match of launched kernels to scanned
 * functions, and the libraries the library log added.
 *
 * @param log                     the kernel launch log
 * @param libraryLog              the library log, or null when there is none
 * @param match                   launched kernels matched by name
 * @param scannedFromLibraryLog   files the library log named, outside the configured inputs, that were scanned because
 *                                they hold launched kernels missing from the configured libraries (counted like
 *                                configured ones, static figure included)
 * @param libraryLogNotHere       files the library log names that do not exist on this machine (not scanned)
 */
public record LaunchedRun(LaunchLog log, LibraryLog libraryLog, LaunchMatch match, List<Path> scannedFromLibraryLog,
        List<Path> libraryLogNotHere) {

    public LaunchedRun {
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(match, "match");
        scannedFromLibraryLog = List.copyOf(scannedFromLibraryLog);
        libraryLogNotHere = List.copyOf(libraryLogNotHere);
    }

    /** Whether the launched figure is the headline: only when the log describes a complete run. */
    public boolean headline() {
        return log.complete();
    }

    /** Distinct launched kernel names. */
    public int kernelCount() {
        return log.kernels().size();
    }

    /** Every counted function with the log's data about it. */
    public Map<FunctionKey, LaunchedKernel> launchedFunctions() {
        return match.launchedFunctions();
    }

    /** Whether {@code file} was added through the library log. */
    public boolean fromLibraryLog(Path file) {
        return scannedFromLibraryLog.contains(file);
    }
}
