package io.github.cudastackbudget.core.report.model;

import java.util.List;
import java.util.Objects;

/**
 * One CUDA library (or archive member) that was read.
 *
 * @param path        the file that was scanned
 * @param library     the library's name as kernels name it (file name, {@code libfoo.a(member.o)})
 * @param kernels     distinct functions
 * @param records     function images (one per function per SASS arch)
 * @param sassArches  embedded SASS arches, ascending
 * @param ptxArches   embedded PTX targets, ascending
 * @param maxStack    the largest known frame in any image (0 when none)
 * @param worstKernel the image with that frame, or null when no image has a frame
 * @param usedBy      what uses it ({@code groupId:artifactId:version}), empty when not attributed
 * @param foundThroughLibraryLog true when the launch's library log named it and it lies outside the configured file
 *                               sets
 * @param platform    the platform the library is built for: {@code linux-x86_64}, {@code windows-x86_64},
 *                    {@code unknown} (a bare cubin, or a report written before platforms were reported)
 * @param gated       whether the devices were judged over it (its platform is one of the {@code platforms} option's;
 *                    JSON {@code "gated": false} only for a library that is not)
 */
public record LibraryReport(String path, String library, long kernels, long records, List<String> sassArches,
        List<String> ptxArches, long maxStack, KernelRow worstKernel, String usedBy,
        boolean foundThroughLibraryLog, String platform, boolean gated) {

    /** A library the devices were judged over. */
    public LibraryReport(String path, String library, long kernels, long records, List<String> sassArches,
            List<String> ptxArches, long maxStack, KernelRow worstKernel, String usedBy,
            boolean foundThroughLibraryLog, String platform) {
        this(path, library, kernels, records, sassArches, ptxArches, maxStack, worstKernel, usedBy,
                foundThroughLibraryLog, platform, true);
    }

    /** A library whose platform is not known. */
    public LibraryReport(String path, String library, long kernels, long records, List<String> sassArches,
            List<String> ptxArches, long maxStack, KernelRow worstKernel, String usedBy,
            boolean foundThroughLibraryLog) {
        this(path, library, kernels, records, sassArches, ptxArches, maxStack, worstKernel, usedBy,
                foundThroughLibraryLog, "unknown");
    }

    public LibraryReport {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(library, "library");
        sassArches = List.copyOf(sassArches);
        ptxArches = List.copyOf(ptxArches);
        usedBy = usedBy == null ? "" : usedBy;
        platform = platform == null || platform.isEmpty() ? "unknown" : platform;
    }

    /** A library found through the configured file sets. */
    public LibraryReport(String path, String library, long kernels, long records, List<String> sassArches,
            List<String> ptxArches, long maxStack, KernelRow worstKernel, String usedBy) {
        this(path, library, kernels, records, sassArches, ptxArches, maxStack, worstKernel, usedBy, false);
    }

    /**
     * The label of the file the library is part of: the label without its archive member ({@code libfoo.a} of
     * {@code libfoo.a(member.o)}, {@code app.jar!/lib/libfoo.a} of {@code app.jar!/lib/libfoo.a(member.o)}).
     */
    public String fileLabel() {
        return library.replaceFirst("\\([^()]*\\)$", "");
    }
}
