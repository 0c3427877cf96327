package io.github.cudastackbudget.core.report.model;

import java.util.List;
import java.util.Objects;

/**
 * A function a device runs in a noteworthy way: JIT-compiled from PTX, unable to launch, or with an undocumented
 * choice between SASS images.
 *
 * @param name        the mangled name
 * @param displayName the readable name
 * @param library     the file name
 * @param jitFrom     the PTX target the driver would compile ({@code compute_90}), or null
 * @param countedArch for an ambiguous choice: the image counted (the larger frame), else null
 * @param otherArches for an ambiguous choice: the other loadable images, else empty
 */
public record FunctionNote(String name, String displayName, String library, String jitFrom, String countedArch,
        List<String> otherArches) {

    public FunctionNote {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(library, "library");
        displayName = displayName == null ? name : displayName;
        otherArches = List.copyOf(otherArches);
    }
}
