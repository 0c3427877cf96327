package io.github.cudastackbudget.core.report.model;

import java.util.List;
import java.util.Objects;

/**
 * A kernel the launch log names that a scanned library holds.
 *
 * @param kernel      what the log says about it
 * @param libraries   the library labels its frame counts in
 * @param notLoadedIn library labels that hold it but that the run did not load (per the library log)
 */
public record MatchedLaunch(LaunchEntry kernel, List<String> libraries, List<String> notLoadedIn) {

    public MatchedLaunch {
        Objects.requireNonNull(kernel, "kernel");
        libraries = List.copyOf(libraries);
        notLoadedIn = List.copyOf(notLoadedIn);
    }
}
