package io.github.cudastackbudget.core.launch;

import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Launched kernels matched to the scanned functions.
 *
 * @param matched   kernels found in at least one scanned library, by name
 * @param unmatched kernels found in no scanned library, by name
 */
public record LaunchMatch(List<MatchedKernel> matched, List<LaunchedKernel> unmatched) {

    public LaunchMatch {
        matched = List.copyOf(matched);
        unmatched = List.copyOf(unmatched);
    }

    /** Every counted function (library label + mangled name) with the log's data about it. */
    public Map<FunctionKey, LaunchedKernel> launchedFunctions() {
        Map<FunctionKey, LaunchedKernel> functions = new TreeMap<>();
        for (MatchedKernel kernel : matched) {
            for (String library : kernel.libraries()) {
                functions.put(new FunctionKey(library, kernel.kernel().name()), kernel.kernel());
            }
        }
        return Collections.unmodifiableMap(functions);
    }
}
