package io.github.cudastackbudget.core.launch;

import io.github.cudastackbudget.core.arch.GpuArch;

/**
 * What the CUDA driver said about a launched function (launch log format 2): {@code cuFuncGetAttribute} of
 * {@code CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES}, {@code NUM_REGS}, {@code SHARED_SIZE_BYTES} and {@code BINARY_VERSION},
 * asked by the injection library once per launched function. Each figure is null when the driver did not give it
 * (the log says {@code unknown}).
 *
 * @param localBytes  the per-thread local memory the driver sizes the stack limit for (the frame), in bytes
 * @param registers   registers per thread
 * @param sharedBytes static shared memory per block, in bytes
 * @param arch        the image the driver loaded ({@code sm_90}; for PTX the JIT's target, the device's arch)
 */
public record DriverFrame(Long localBytes, Integer registers, Long sharedBytes, GpuArch arch) {

    /** A frame the driver gave no figure for. */
    public static final DriverFrame UNKNOWN = new DriverFrame(null, null, null, null);

    /** Whether the driver gave the frame (the local size). */
    public boolean known() {
        return localBytes != null;
    }

    /** This frame and another of the same kernel (another row, another process): the larger known figures. */
    DriverFrame merge(DriverFrame other) {
        if (other == null) {
            return this;
        }
        return new DriverFrame(max(localBytes, other.localBytes), registers == null ? other.registers
                : other.registers == null ? registers : Integer.valueOf(Math.max(registers, other.registers)),
                max(sharedBytes, other.sharedBytes), arch == null ? other.arch
                        : other.arch == null || arch.compareTo(other.arch) >= 0 ? arch : other.arch);
    }

    private static Long max(Long a, Long b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Long.valueOf(Math.max(a, b));
    }
}
