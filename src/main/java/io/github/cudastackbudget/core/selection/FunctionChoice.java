package io.github.cudastackbudget.core.selection;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import java.util.List;
import java.util.Objects;

/**
 * What a device would run for one function of one library.
 *
 * @param function     the function
 * @param outcome      how it runs
 * @param chosen       the SASS image counted (SASS and AMBIGUOUS outcomes), else null
 * @param alternatives for AMBIGUOUS: the other loadable images NVIDIA gives no rule between (the larger frame is
 *                     counted); else empty
 * @param jitFrom      for JIT: the PTX target the driver would compile; else null
 */
public record FunctionChoice(FunctionKey function, Outcome outcome, KernelRecord chosen, List<KernelRecord> alternatives,
        GpuArch jitFrom) {

    public FunctionChoice {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(outcome, "outcome");
        alternatives = List.copyOf(alternatives);
    }

    /** How a device runs a function. */
    public enum Outcome {
        /** one SASS image is the documented (or measured) best. */
        SASS,
        /** several loadable SASS images with no documented tie-break; the larger frame counts. */
        AMBIGUOUS,
        /** no loadable SASS, but a PTX image the driver JIT-compiles at load: frame unknown at build time. */
        JIT,
        /** no loadable SASS and no usable PTX: the kernel cannot launch on this device. */
        CANNOT_RUN
    }
}
