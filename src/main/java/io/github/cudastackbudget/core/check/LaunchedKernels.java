package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.launch.LaunchMatch;
import io.github.cudastackbudget.core.launch.LaunchMatcher;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.launch.LibraryLog;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Stage 3 (launched mode): matches the launch log to the scanned libraries; while launched kernels remain unmatched,
 * scans the libraries the library log names outside the configured inputs and keeps those that hold one of them.
 *
 * @param run   what the recorded run launched, or null for the static check
 * @param scans the scans to count: the configured ones and those found through the library log
 */
record LaunchedKernels(LaunchedRun run, List<LibraryScan> scans) {

    /**
     * File names in a library log that belong to the launch recorder itself (the injection library and the CUPTI
     * libraries it loads), not to the application: never scanned through the library log.
     */
    static final List<String> RECORDER_LIBRARY_PREFIXES = List.of("libcuda-stack-budget-cupti", "libcupti.",
            "libnvperf_", "libpcsamplingutil.");

    /** The "used by" of a library found through the library log (followed by the log's path). */
    static final String FOUND_THROUGH_LIBRARY_LOG = "found through the library log";

    LaunchedKernels {
        scans = List.copyOf(scans);
    }

    /** The static check: nothing launched, the scans as read. */
    static LaunchedKernels none(List<LibraryScan> scans) {
        return new LaunchedKernels(null, scans);
    }

    static LaunchedKernels match(LaunchLogs launch, Inputs inputs, List<LibraryScan> scans, Engines engines,
            CheckProgress listener, CheckWarnings warnings) throws CheckProblem {
        if (launch == null) {
            return none(scans);
        }
        List<LibraryScan> counted = new ArrayList<>(scans);
        LaunchMatch match = LaunchMatcher.match(launch.log().kernels(), counted, launch.libraryLog());
        List<Path> added = new ArrayList<>();
        List<Path> notHere = new ArrayList<>();
        LibraryLog libraryLog = launch.libraryLog();
        if (!match.unmatched().isEmpty() && libraryLog != null) {
            Set<String> missing = new HashSet<>();
            match.unmatched().forEach(kernel -> missing.add(kernel.name()));
            List<DeviceCodeProbe> candidates = candidates(libraryLog, inputs, notHere, warnings);
            if (!candidates.isEmpty()) {
                listener.info(match.unmatched().size() + " launched kernel(s) are in no configured library: scanning "
                        + candidates.size() + " librar" + (candidates.size() == 1 ? "y" : "ies")
                        + " with device code named in the library log " + libraryLog.file());
            }
            for (DeviceCodeProbe candidate : candidates) {
                List<LibraryScan> read;
                try {
                    read = KernelReads.readFile(engines, candidate, listener);
                } catch (CheckProblem e) {
                    warnings.warn("cannot read " + candidate.file() + " (found through the library log "
                            + libraryLog.file() + "): " + e.getMessage() + "; its kernels are not counted");
                    continue;
                }
                for (LibraryScan scan : read) {
                    if (scan.records().stream().anyMatch(record -> missing.contains(record.name()))) {
                        counted.add(scan.withUsedBy(FOUND_THROUGH_LIBRARY_LOG + " " + libraryLog.file()));
                        added.add(scan.path());
                    } else {
                        listener.info("  " + scan.path().getFileName() + " (library log) holds none of the unmatched "
                                + "launched kernels: not counted");
                    }
                }
            }
            if (!added.isEmpty()) {
                match = LaunchMatcher.match(launch.log().kernels(), counted, libraryLog);
            }
        }
        return new LaunchedKernels(new LaunchedRun(launch.log(), libraryLog, match, added, notHere), counted);
    }

    /**
     * The libraries the library log names that hold device code and are not inputs already; those not on this machine
     * go to {@code notHere}.
     */
    private static List<DeviceCodeProbe> candidates(LibraryLog libraryLog, Inputs inputs, List<Path> notHere,
            CheckWarnings warnings) {
        Set<Path> known = new HashSet<>();
        inputs.files().forEach(probe -> known.add(realPath(probe.file())));
        List<DeviceCodeProbe> candidates = new ArrayList<>();
        for (Path library : libraryLog.libraries()) {
            String fileName = library.getFileName() == null ? "" : library.getFileName().toString();
            if (RECORDER_LIBRARY_PREFIXES.stream().anyMatch(fileName::startsWith)) {
                continue;
            }
            if (!Files.isRegularFile(library)) {
                notHere.add(library);
                continue;
            }
            if (!known.add(realPath(library))) {
                continue;
            }
            try {
                DeviceCodeProbe probe = DeviceCodeDetector.probe(library);
                if (probe.hasDeviceCode()) {
                    candidates.add(probe);
                }
            } catch (IOException e) {
                warnings.warn("cannot read " + library + " (named in the library log " + libraryLog.file() + "): "
                        + e.getMessage() + "; its kernels are not counted");
            }
        }
        return candidates;
    }

    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }
}
