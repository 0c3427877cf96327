package io.github.cudastackbudget.core.binary;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@link DeviceCodeDetector} found in one file: whether it carries CUDA device code, as typed facts and as one
 * line of text.
 *
 * @param file                      the probed file (for a JAR entry: the JAR)
 * @param kind                      what kind of file it is
 * @param hasDeviceCode             whether it contains CUDA device code
 * @param detail                    a short human-readable reason, e.g. {@code "ELF64 with .nv_fatbin"} or
 *                                  {@code "truncated ELF header"}
 * @param membersWithDeviceCode     for an {@code ar} archive, the names of the members with device code, in archive
 *                                  order; empty otherwise (an unmodifiable copy)
 * @param onlyRelocatableDeviceCode true for a host ELF file whose only device code is relocatable: a
 *                                  {@code __nv_relfatbin} section and no {@code .nv_fatbin} ({@code -rdc=true} objects,
 *                                  whose frames are final only after the device link)
 */
public record DeviceCodeProbe(Path file, BinaryKind kind, boolean hasDeviceCode, String detail,
        List<String> membersWithDeviceCode, boolean onlyRelocatableDeviceCode) {

    /** Checks the arguments and copies the member list. */
    public DeviceCodeProbe {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        membersWithDeviceCode = membersWithDeviceCode == null ? List.of() : List.copyOf(membersWithDeviceCode);
    }

    /** A probe of a file that is not only relocatable device code. */
    public DeviceCodeProbe(Path file, BinaryKind kind, boolean hasDeviceCode, String detail,
            List<String> membersWithDeviceCode) {
        this(file, kind, hasDeviceCode, detail, membersWithDeviceCode, false);
    }
}
