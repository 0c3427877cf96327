package io.github.cudastackbudget.core.report.model;

/**
 * What the driver said about a launched function (launch log format 2), for reports; each figure null when the driver
 * did not give it.
 *
 * @param localBytes  the frame: {@code CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES}
 * @param registers   {@code NUM_REGS}
 * @param sharedBytes static shared memory per block, {@code SHARED_SIZE_BYTES}
 * @param arch        the image the driver loaded ({@code sm_90}), from {@code BINARY_VERSION}
 */
public record DriverFrameRow(Long localBytes, Integer registers, Long sharedBytes, String arch) {
}
