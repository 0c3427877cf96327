package io.github.cudastackbudget.core.scan;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The result of {@link DeviceCodeDetector#probe(Path)}: whether a file carries CUDA device code.
 *
 * @param file                  the probed file
 * @param kind                  what kind of file it is
 * @param hasDeviceCode         whether it contains CUDA device code
 * @param detail                a short human-readable reason, e.g. {@code "ELF64 with .nv_fatbin"} or
 *                              {@code "truncated ELF header"}
 * @param membersWithDeviceCode for an {@code ar} archive, the names of the members with device code,
 *                              in archive order; empty otherwise (an unmodifiable copy)
 */
public record DeviceCodeProbe(
        Path file, BinaryKind kind, boolean hasDeviceCode, String detail, List<String> membersWithDeviceCode) {

    /** Checks the arguments and copies the member list. */
    public DeviceCodeProbe {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        membersWithDeviceCode = membersWithDeviceCode == null ? List.of() : List.copyOf(membersWithDeviceCode);
    }
}
