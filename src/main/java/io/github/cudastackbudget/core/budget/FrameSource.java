package io.github.cudastackbudget.core.budget;

/**
 * Where a launched kernel's frame comes from (launched mode).
 *
 * <p>The static check's own label for JIT (ptxas) figures is a separate enum of the static side; a launched kernel's
 * static figure is whatever that side computed for the image the device runs ({@link #STATIC}), and {@link #DRIVER}
 * marks the figures only the driver knew.
 */
public enum FrameSource {
    /** the image the static rules choose, read from a scanned file. */
    STATIC("static"),
    /** the driver's own figure for the launched function, from the launch log (format 2): a kernel in no scanned file. */
    DRIVER("driver");

    private final String id;

    FrameSource(String id) {
        this.id = id;
    }

    /** The JSON and report spelling: {@code static} or {@code driver}. */
    public String id() {
        return id;
    }
}
