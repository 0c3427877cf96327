package io.github.cudastackbudget.core.selection;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.CompatibilityRules;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
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
        List<KernelRecord> loadable = images.stream()
                .filter(image -> CompatibilityRules.sassRunsOn(image.arch(), device)).toList();
        if (loadable.isEmpty()) {
            Optional<GpuArch> ptx = libraryPtx.stream()
                    .filter(target -> CompatibilityRules.ptxCompilesFor(target, device))
                    .max(Comparator.naturalOrder());
            return ptx.map(target -> new FunctionChoice(function, FunctionChoice.Outcome.JIT, null, List.of(), target))
                    .orElseGet(() -> new FunctionChoice(function, FunctionChoice.Outcome.CANNOT_RUN, null, List.of(),
                            null));
        }
        Optional<KernelRecord> archSpecific = best(loadable, ArchVariant.ARCH_SPECIFIC);
        if (archSpecific.isPresent()) {
            return new FunctionChoice(function, FunctionChoice.Outcome.SASS, archSpecific.get(), List.of(), null);
        }
        Optional<KernelRecord> base = best(loadable, ArchVariant.BASE);
        Optional<KernelRecord> family = best(loadable, ArchVariant.FAMILY);
        if (base.isPresent() && family.isPresent()) {
            KernelRecord larger = BY_FRAME_THEN_ARCH.compare(base.get(), family.get()) >= 0 ? base.get() : family.get();
            KernelRecord other = larger == base.get() ? family.get() : base.get();
            return new FunctionChoice(function, FunctionChoice.Outcome.AMBIGUOUS, larger, List.of(other), null);
        }
        KernelRecord only = base.orElseGet(family::get);
        return new FunctionChoice(function, FunctionChoice.Outcome.SASS, only, List.of(), null);
    }

    /**
     * The image of one kind with the highest CC; among duplicates of one arch (the same function embedded twice),
     * the larger frame, so the bound stays safe.
     */
    private static Optional<KernelRecord> best(List<KernelRecord> loadable, ArchVariant variant) {
        return loadable.stream().filter(image -> image.arch().variant() == variant)
                .max(Comparator.comparing((KernelRecord image) -> image.arch().capability())
                        .thenComparingLong(KernelRecord::stackForRanking));
    }
}
