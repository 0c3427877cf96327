package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import java.util.Optional;

/**
 * The frames of functions a device JIT-compiles from PTX, where they were computed at build time (ptxas): a record
 * whose {@code origin} says how, and whose {@code arch} is the target compiled for.
 */
public interface JitFrameLookup {

    /** No JIT frame is known: every JIT function stays "frame unknown at build time". */
    JitFrameLookup NONE = (function, ptx, device) -> Optional.empty();

    /**
     * The frame of {@code function} JIT-compiled from its {@code ptx} image for a device of capability {@code device},
     * or empty when it was not computed.
     */
    Optional<KernelRecord> frame(KernelRecord.FunctionKey function, GpuArch ptx, ComputeCapability device);
}
