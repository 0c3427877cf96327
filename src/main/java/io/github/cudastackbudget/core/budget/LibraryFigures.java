package io.github.cudastackbudget.core.budget;

import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One library label's figures, whatever the device: how many functions and images it holds and its largest known
 * frame.
 *
 * @param library   the label ({@code libfoo.so}, {@code libfoo.a(member.o)}, {@code app.jar!/native/libx.so})
 * @param functions distinct functions with a SASS image
 * @param records   SASS images (one per function per arch)
 * @param worst     the image with the largest known frame (the first of equals), or null when every frame is UNKNOWN
 *                  or there is no image
 */
public record LibraryFigures(String library, long functions, long records, KernelRecord worst) {

    public LibraryFigures {
        Objects.requireNonNull(library, "library");
    }

    /** The figures of one label of a scan. */
    public static LibraryFigures of(LibraryScan scan, String library) {
        List<KernelRecord> records = scan.records().stream().filter(r -> r.library().equals(library)).toList();
        KernelRecord worst = records.stream().filter(r -> !r.stackUnknown())
                .max(Comparator.comparingLong(KernelRecord::stack)).orElse(null);
        return new LibraryFigures(library, records.stream().map(KernelRecord::name).distinct().count(), records.size(),
                worst);
    }

    /** The largest known frame, 0 without one. */
    public long maxStack() {
        return worst == null ? 0 : worst.stack();
    }

    /** The worst image when its frame is larger than 0 (a library whose frames are all 0 has no worst kernel). */
    public KernelRecord worstWithFrame() {
        return worst == null || worst.stack() == 0 ? null : worst;
    }
}
