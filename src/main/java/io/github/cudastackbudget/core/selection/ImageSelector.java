package io.github.cudastackbudget.core.selection;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.CompatibilityRules;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;

/**
 * Chooses, for one function and one device, the image the driver would run (docs/compatibility.md, "Decision"):
 * <ol>
 *   <li>an {@code a} image for exactly the device's CC wins (measured on an H200: sm_90a over sm_90);</li>
 *   <li>otherwise, within one kind (base or family), the highest compatible CC wins;</li>
 *   <li>a base image and a family image both loadable: NVIDIA documents no tie-break, so the larger frame counts and
 *       the choice is marked AMBIGUOUS;</li>
 *   <li>no loadable SASS: JIT from the highest compatible PTX of the library, else CANNOT_RUN.</li>
 * </ol>
 * This deliberately differs from the origin tool, which preferred f over base without NVIDIA's backing.
 */
public final class ImageSelector {

    private static final Comparator<KernelRecord> BY_FRAME_THEN_ARCH = Comparator
            .comparingLong(KernelRecord::stackForRanking).thenComparing(KernelRecord::arch);

    private ImageSelector() {
    }

    public static FunctionChoice choose(FunctionKey function, List<KernelRecord> images, SortedSet<GpuArch> libraryPtx,
            ComputeCapability device) {
        // plain loops, no streams: this runs for every function and device, twice per check, mostly in cold code
        // (libtorch_cuda.so: 60,000 functions; issue 11); ties keep the first, as Stream.max did
        KernelRecord archSpecific = null;
        KernelRecord base = null;
        KernelRecord family = null;
        for (KernelRecord image : images) {
            if (!CompatibilityRules.sassRunsOn(image.arch(), device)) {
                continue;
            }
            switch (image.arch().variant()) {
                case ARCH_SPECIFIC -> archSpecific = better(archSpecific, image);
                case BASE -> base = better(base, image);
                case FAMILY -> family = better(family, image);
                default -> throw new IllegalStateException(image.arch().variant().toString());
            }
        }
        if (archSpecific == null && base == null && family == null) {
            GpuArch ptx = null;
            for (GpuArch target : libraryPtx) {
                if (CompatibilityRules.ptxCompilesFor(target, device) && (ptx == null || target.compareTo(ptx) > 0)) {
                    ptx = target;
                }
            }
            return ptx != null ? new FunctionChoice(function, FunctionChoice.Outcome.JIT, null, List.of(), ptx)
                    : new FunctionChoice(function, FunctionChoice.Outcome.CANNOT_RUN, null, List.of(), null);
        }
        if (archSpecific != null) {
            return new FunctionChoice(function, FunctionChoice.Outcome.SASS, archSpecific, List.of(), null);
        }
        if (base != null && family != null) {
            KernelRecord larger = BY_FRAME_THEN_ARCH.compare(base, family) >= 0 ? base : family;
            KernelRecord other = larger == base ? family : base;
            return new FunctionChoice(function, FunctionChoice.Outcome.AMBIGUOUS, larger, List.of(other), null);
        }
        return new FunctionChoice(function, FunctionChoice.Outcome.SASS, base != null ? base : family, List.of(), null);
    }

    /**
     * Of the image of one kind kept so far and another: the one with the higher CC; among duplicates of one arch (the
     * same function embedded twice), the larger frame, so the bound stays safe; a tie keeps the first.
     */
    private static KernelRecord better(KernelRecord kept, KernelRecord image) {
        if (kept == null) {
            return image;
        }
        int byCapability = image.arch().capability().compareTo(kept.arch().capability());
        if (byCapability != 0) {
            return byCapability > 0 ? image : kept;
        }
        return image.stackForRanking() > kept.stackForRanking() ? image : kept;
    }
}
