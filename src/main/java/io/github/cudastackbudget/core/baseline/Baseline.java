package io.github.cudastackbudget.core.baseline;

import java.util.List;
import java.util.Objects;

/**
 * The figures of a previous report that a check is compared with: per device its headline reservation (the figure its
 * verdict used: the static worst case, or the launched kernels' in launched mode) and the kernel behind it, and every
 * kernel image the report listed (to tell a new kernel from one whose frame grew).
 *
 * @param source  how messages name the baseline (its file or artifact)
 * @param devices the baseline's devices, in its order
 * @param images  every kernel image of the baseline
 */
public record Baseline(String source, List<Device> devices, List<Image> images) {

    public Baseline {
        Objects.requireNonNull(source, "source");
        devices = List.copyOf(devices);
        images = List.copyOf(images);
    }

    /**
     * One device of the baseline.
     *
     * @param name             the device's name
     * @param reservationBytes its headline reservation
     * @param skipped          the baseline's check skipped it (no figure to compare)
     * @param worst            the kernel behind the headline, or null
     */
    public record Device(String name, long reservationBytes, boolean skipped, Image worst) {
        public Device {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * One function in one image.
     *
     * @param library      the library label ({@code libfoo.so}, {@code libfoo.a(member.o)})
     * @param name         the mangled name
     * @param arch         the image's arch ({@code sm_90a})
     * @param stack        the frame in bytes per thread (0 when unknown)
     * @param stackUnknown the tool reported {@code STACK:UNKNOWN}
     */
    public record Image(String library, String name, String arch, long stack, boolean stackUnknown) {
        public Image {
            Objects.requireNonNull(library, "library");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arch, "arch");
        }
    }

    /** The device of this name, or null. */
    public Device device(String name) {
        return devices.stream().filter(device -> device.name().equals(name)).findFirst().orElse(null);
    }
}
