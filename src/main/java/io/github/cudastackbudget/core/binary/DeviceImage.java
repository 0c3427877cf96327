package io.github.cudastackbudget.core.binary;

import io.github.cudastackbudget.core.arch.GpuArch;
import java.util.List;
import java.util.Objects;

/**
 * One embedded image: a fatbin entry (PTX or cubin) or a bare cubin file.
 *
 * @param entry      the fatbin entry header; null for a bare cubin
 * @param arch       the target with its {@code a}/{@code f} variant (PTX entries: the virtual architecture)
 * @param resources  the cubin's figures; null for a PTX entry
 * @param ptxEntries a PTX entry's kernel names in text order; empty for cubins
 */
public record DeviceImage(FatbinEntry entry, GpuArch arch, CubinResources resources, List<String> ptxEntries) {

    public DeviceImage {
        Objects.requireNonNull(arch, "arch");
        ptxEntries = List.copyOf(ptxEntries);
        if ((resources == null) == (entry == null || !entry.isPtx())) {
            throw new IllegalArgumentException("a PTX entry has no resources, a cubin has");
        }
    }

    public boolean isPtx() {
        return resources == null;
    }

    public boolean isBareCubin() {
        return entry == null;
    }
}
