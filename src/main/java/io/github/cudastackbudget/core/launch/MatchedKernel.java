package io.github.cudastackbudget.core.launch;

import java.util.List;
import java.util.Objects;

/**
 * A launched kernel and the scanned libraries it is counted in.
 *
 * @param kernel        what the log says about it
 * @param libraries     library labels whose function of that name counts (see {@link LaunchMatcher})
 * @param notLoadedIn   library labels that hold a function of that name but were not loaded by the run according to
 *                      the library log, so they do not count; empty without a library log
 */
public record MatchedKernel(LaunchedKernel kernel, List<String> libraries, List<String> notLoadedIn) {

    public MatchedKernel {
        Objects.requireNonNull(kernel, "kernel");
        libraries = List.copyOf(libraries);
        notLoadedIn = List.copyOf(notLoadedIn);
    }
}
