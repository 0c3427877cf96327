package io.github.cudastackbudget.core.arch;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An embedded code target as cuobjdump labels it ({@code arch = sm_90a}): a compute capability plus a variant. The
 * same value names SASS ({@code sm_90a}) and PTX ({@code compute_90a}) targets; which one is meant is kept by the
 * holder.
 */
public record GpuArch(ComputeCapability capability, ArchVariant variant) implements Comparable<GpuArch> {

    // equality written out: the generated one goes through method handles, slow in the cold classes of a build's
    // one run, where the verdicts count records per arch (issue 11)
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof GpuArch arch && java.util.Objects.equals(capability, arch.capability)
                && variant == arch.variant;
    }

    @Override
    public int hashCode() {
        // the variant by its ordinal: an enum's own hash differs from run to run
        return 31 * java.util.Objects.hashCode(capability) + (variant == null ? 0 : variant.ordinal() + 1);
    }

    private static final Pattern LABEL = Pattern.compile("(?:sm|compute)_(\\d{2,3})([af]?)");

    /** Highest compute capability first; for one capability, a before f before base. */
    public static final Comparator<GpuArch> PREFERRED_FIRST = Comparator
            .comparing(GpuArch::capability).thenComparing(arch -> arch.variant().preference()).reversed();

    /**
     * Parses {@code sm_90}, {@code sm_90a}, {@code sm_100f}, {@code compute_120}.
     *
     * @throws InvalidValueException for anything else
     */
    public static GpuArch parse(String label) {
        Matcher match = LABEL.matcher(label == null ? "" : label.trim());
        if (!match.matches()) {
            throw new InvalidValueException("unknown CUDA arch label '" + label
                    + "': expected sm_NN or sm_NNN with an optional a/f suffix");
        }
        ComputeCapability capability = ComputeCapability.parse(match.group(1));
        ArchVariant variant = switch (match.group(2)) {
            case "a" -> ArchVariant.ARCH_SPECIFIC;
            case "f" -> ArchVariant.FAMILY;
            default -> ArchVariant.BASE;
        };
        return new GpuArch(capability, variant);
    }

    /** {@code sm_90a}. */
    public String sassLabel() {
        // issue 11: asked for every record by the verdicts and the report model: one string per arch, made once
        int slot = labelSlot();
        if (slot < 0) {
            return "sm_" + capability.number() + variant.suffix();
        }
        String label = SASS_LABELS[slot];
        if (label == null) {
            label = "sm_" + capability.number() + variant.suffix();
            SASS_LABELS[slot] = label; // a race only makes an equal string twice
        }
        return label;
    }

    /** How many variants there are ({@code values()} copies its array on every call). */
    private static final int VARIANTS = ArchVariant.values().length;
    /** Compute capabilities have at most three digits (ComputeCapability): one slot per number and variant. */
    private static final String[] SASS_LABELS = new String[1000 * VARIANTS];

    private int labelSlot() {
        int number = capability.number();
        return number >= 0 && number < 1000 ? number * VARIANTS + variant.ordinal() : -1;
    }

    /** {@code compute_90a}. */
    public String ptxLabel() {
        return "compute_" + capability.number() + variant.suffix();
    }

    @Override
    public int compareTo(GpuArch other) {
        int byCapability = capability.compareTo(other.capability);
        return byCapability != 0 ? byCapability : Integer.compare(variant.preference(), other.variant.preference());
    }

    @Override
    public String toString() {
        return sassLabel();
    }
}
