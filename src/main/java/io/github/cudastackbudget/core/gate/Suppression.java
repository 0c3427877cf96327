package io.github.cudastackbudget.core.gate;

import java.time.LocalDate;
import java.util.Objects;

/**
 * One entry of a suppressions file: the kernels it takes out of the verdicts and why.
 *
 * @param index   the entry's position in the file, from 1 (how messages name it: {@code suppression[2]})
 * @param line    the line its {@code <suppress>} starts on
 * @param kernel  matches a kernel's mangled or its demangled name
 * @param library matches the library label ({@code libfoo.so}, {@code libfoo.a(member.o)},
 *                {@code app.jar!/native/libx.so}) or its last path segment; null: every library
 * @param device  matches a device's name or its preset id; null: every device
 * @param reason  why the kernel may exceed the budgets (required, shown in every report)
 * @param until   the last day the entry applies (ISO {@code yyyy-MM-dd}), or null for no expiry
 */
public record Suppression(int index, int line, Glob kernel, Glob library, Glob device, String reason, LocalDate until) {

    public Suppression {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(reason, "reason");
    }

    /** How messages name the entry: {@code suppression[2] (kernel 'demo::*', line 14)}. */
    public String label() {
        return "suppression[" + index + "] (kernel '" + kernel + "'"
                + (library == null ? "" : ", library '" + library + "'")
                + (device == null ? "" : ", device '" + device + "'") + ", line " + line + ")";
    }

    /** True when {@code until} is before {@code today}: the entry no longer applies and fails the check. */
    public boolean expired(LocalDate today) {
        return until != null && until.isBefore(today);
    }

    /** Whether the entry covers the kernel {@code mangled} (readable {@code display}) of {@code library}. */
    public boolean matchesKernel(String library, String mangled, String display) {
        return (this.library == null || this.library.matches(library) || this.library.matches(lastSegment(library)))
                && (kernel.matches(mangled) || kernel.matches(display));
    }

    /** Whether the entry covers the device {@code name} (catalog id {@code preset}, or null). */
    public boolean matchesDevice(String name, String preset) {
        return device == null || device.matches(name) || device.matches(preset);
    }

    /** {@code app.jar!/native/libx.so} -> {@code libx.so}; a label without a separator stays as it is. */
    static String lastSegment(String label) {
        int cut = Math.max(label.lastIndexOf('/'), label.lastIndexOf('\\'));
        return cut < 0 ? label : label.substring(cut + 1);
    }
}
