package io.github.cudastackbudget.core.arch;

import java.util.Map;
import java.util.Set;

/**
 * NVIDIA's binary compatibility rules for SASS and PTX images (CUDA Programming Guide 13.1, sections 1.3.4.1/1.3.4.2
 * and Table 28; see {@code docs/compatibility.md} of this project).
 *
 * <ul>
 *   <li>base {@code sm_XY}: devices of the same major X with minor &ge; Y; never across majors. This is where the
 *       origin tool differed: it let base sm_10x SASS run on sm_12x devices, which NVIDIA says cannot happen.</li>
 *   <li>arch-specific {@code sm_XYa}: exactly X.Y.</li>
 *   <li>family-specific {@code sm_XYf}: the members listed in Table 28 (100f: 10.0, 10.3; 103f: 10.3; 110f: 11.0;
 *       120f: 12.0, 12.1; 121f: 12.1). A family target not in the table is assumed to cover the same major with
 *       minor &ge; Y, NVIDIA's general statement ("later-generation devices with the same major compute capability
 *       are in the same family").</li>
 *   <li>base PTX {@code compute_XY}: JIT-compiled for any device with CC &ge; X.Y; {@code a}/{@code f} PTX follow the
 *       SASS rules of their variant.</li>
 * </ul>
 */
public final class CompatibilityRules {

    private static final Map<Integer, Set<Integer>> FAMILY_MEMBERS = Map.of(
            100, Set.of(100, 103),
            103, Set.of(103),
            110, Set.of(110),
            120, Set.of(120, 121),
            121, Set.of(121));

    private CompatibilityRules() {
    }

    /** True when a SASS image built for {@code image} can be loaded on a device of compute capability {@code device}. */
    public static boolean sassRunsOn(GpuArch image, ComputeCapability device) {
        ComputeCapability target = image.capability();
        return switch (image.variant()) {
            case ARCH_SPECIFIC -> target.equals(device);
            case FAMILY -> inFamily(target, device);
            case BASE -> target.major() == device.major() && device.minor() >= target.minor();
        };
    }

    /** True when a PTX image for {@code image} can be JIT-compiled by the driver for a device of capability {@code device}. */
    public static boolean ptxCompilesFor(GpuArch image, ComputeCapability device) {
        return switch (image.variant()) {
            case ARCH_SPECIFIC -> image.capability().equals(device);
            case FAMILY -> inFamily(image.capability(), device);
            case BASE -> device.compareTo(image.capability()) >= 0;
        };
    }

    private static boolean inFamily(ComputeCapability family, ComputeCapability device) {
        Set<Integer> members = FAMILY_MEMBERS.get(family.number());
        if (members != null) {
            return members.contains(device.number());
        }
        return family.major() == device.major() && device.minor() >= family.minor();
    }
}
