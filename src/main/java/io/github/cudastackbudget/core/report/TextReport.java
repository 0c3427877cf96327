package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.CheckResult;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.LaunchedFigures;
import io.github.cudastackbudget.core.budget.LaunchedImage;
import io.github.cudastackbudget.core.budget.Reservation;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The human report, in the origin tool's layout: counts, a block per device (resident threads, reservation =
 * threads x frame, the kernel, its library and arch, shared memory, fallback warnings), and with {@code verbose} the
 * kernels with a stack frame sorted by size (capped by {@code top}) and the libraries with their "used by".
 */
public final class TextReport {

    private TextReport() {
    }

    /** The report as lines (no trailing newlines). */
    public static List<String> render(CheckResult result, int top, boolean verbose) {
        List<String> out = new ArrayList<>();
        int libraries = result.scans().stream().mapToInt(scan -> scan.libraries().size()).sum();
        out.add("CUDA kernel stack budget");
        out.add(String.format(Locale.ROOT, "  files probed:                %s", ByteSize.grouped(result.filesProbed())));
        out.add(String.format(Locale.ROOT, "  files with device code:      %s", ByteSize.grouped(result.scans().size())));
        out.add(String.format(Locale.ROOT, "  CUDA libraries:              %s", ByteSize.grouped(libraries)));
        out.add(String.format(Locale.ROOT, "  kernels inspected:           %s records of %s functions",
                ByteSize.grouped(result.index().recordCount()), ByteSize.grouped(result.index().functionCount())));
        if (!result.index().sassArches().isEmpty()) {
            out.add("  embedded SASS:               " + result.index().sassArches().stream().map(GpuArch::sassLabel)
                    .collect(Collectors.joining(", ")));
        }
        out.add("  engine:                      " + result.engine());
        out.add("  devices:                     " + result.devices().size() + " (" + result.deviceOrigin() + ")");
        LaunchedRun launched = result.launched();
        if (launched != null) {
            out.add("  launched kernels:            " + ByteSize.grouped(launched.kernelCount()) + " ("
                    + launched.match().matched().size() + " matched, " + launched.match().unmatched().size()
                    + " in no scanned library) from " + launched.log().file());
            out.add("  launch log status:           " + launched.log().statusSummary() + (launched.headline()
                    ? " (headline = launched kernels)" : " (incomplete: headline = static worst case)"));
            if (!launched.scannedFromLibraryLog().isEmpty()) {
                out.add("  found through library log:   " + launched.scannedFromLibraryLog().stream()
                        .map(path -> path.getFileName().toString()).collect(Collectors.joining(", ")));
            }
        }
        if (result.noKernels()) {
            out.add("");
            out.add("  no CUDA kernels found: reservation is 0 B.");
            renderUnmatched(result, verbose, out);
            return out;
        }
        for (DeviceResult device : result.devices()) {
            out.add("");
            renderDevice(result, device, top, verbose, out);
        }
        if (verbose) {
            out.add("");
            out.add("CUDA libraries:");
            for (LibraryScan scan : result.scans()) {
                for (String library : scan.libraries()) {
                    long kernels = scan.records().stream().filter(r -> r.library().equals(library))
                            .map(KernelRecord::name).distinct().count();
                    out.add("  " + library + "  (" + kernels + " functions; SASS " + arches(scan.sassArchesOf(library), false)
                            + (scan.ptxArchesOf(library).isEmpty() ? "" : "; PTX " + arches(scan.ptxArchesOf(library), true))
                            + ")");
                    out.add("    path:    " + scan.path());
                    out.add("    used by: " + (scan.usedBy().isEmpty() ? "(not attributed)" : scan.usedBy()));
                }
            }
        }
        renderUnmatched(result, verbose, out);
        return out;
    }

    /** Launched kernels found in no scanned library: all with verbose, else the first few. */
    private static void renderUnmatched(CheckResult result, boolean verbose, List<String> out) {
        if (result.launched() == null || result.launched().match().unmatched().isEmpty()) {
            return;
        }
        List<LaunchedKernel> unmatched = result.launched().match().unmatched();
        out.add("");
        out.add("Launched kernels in no scanned library (" + unmatched.size() + ", frames not counted):");
        List<LaunchedKernel> shown = verbose ? unmatched : unmatched.subList(0, Math.min(UNMATCHED_SHOWN, unmatched.size()));
        for (LaunchedKernel kernel : shown) {
            out.add("  " + result.displayName(kernel.name()) + (kernel.attributions().isEmpty() ? ""
                    : "  (under " + String.join(", ", kernel.attributions()) + ")"));
        }
        if (shown.size() < unmatched.size()) {
            out.add("  (" + (unmatched.size() - shown.size()) + " more; verbose lists all)");
        }
    }

    /** Unmatched launched kernels listed without verbose. */
    static final int UNMATCHED_SHOWN = 5;

    private static void renderLaunched(CheckResult result, DeviceResult device, List<String> out) {
        LaunchedFigures launched = device.launched();
        long threads = device.device().maxResidentThreads();
        String role = launched.headline() ? "" : " (not judged: the launch log is incomplete)";
        KernelRecord worst = launched.worst();
        if (launched.kernels().isEmpty()) {
            out.add("  launched reservation: 0 B" + role + " (none of the launched kernels runs on this device)");
        } else if (worst == null || worst.stack() == 0) {
            out.add("  launched reservation: 0 B" + role + " (" + launched.kernels().size() + " launched kernel(s) run "
                    + "here, none with a stack frame)");
        } else {
            long limit = Reservation.stackLimitFor(worst.stack());
            out.add("  launched reservation: " + ByteSize.format(launched.reservationBytes()) + " = "
                    + ByteSize.grouped(threads) + " threads x " + ByteSize.grouped(limit) + " B" + role);
            out.add("      over the default " + Reservation.DEFAULT_STACK_LIMIT + " B limit: "
                    + ByteSize.format(launched.incrementBytes()));
            out.add("      largest launched frame " + ByteSize.grouped(worst.stack()) + " B in " + worst.library() + " ["
                    + worst.arch().sassLabel() + "]");
            out.add("      kernel: " + result.displayName(worst));
            launched.kernels().stream().filter(image -> image.image() == worst).findFirst().ifPresent(image ->
                    out.add("      shared memory per block: " + ByteSize.grouped(worst.shared()) + " B static + "
                            + dynamic(image) + " B dynamic = " + ByteSize.grouped(image.sharedPerBlock()) + " B"));
        }
        if (!launched.jit().isEmpty()) {
            out.add("  " + launched.jit().size() + " launched function(s) would JIT from PTX here (frame unknown)");
        }
        if (!launched.cannotRun().isEmpty()) {
            out.add("  " + launched.cannotRun().size() + " launched function(s) have no image for this device");
        }
        if (!launched.unknownStack().isEmpty()) {
            out.add("  " + launched.unknownStack().size() + " launched kernel(s) with UNKNOWN stack (not in the figure)");
        }
    }

    private static void renderLaunchedListing(CheckResult result, DeviceResult device, int top, List<String> out) {
        List<LaunchedImage> kernels = device.launched().kernels();
        if (kernels.isEmpty()) {
            out.add("  launched kernels: none runs on this device");
            return;
        }
        out.add("  launched kernels (" + kernels.size() + "; SHARED + DYN = shared memory per block):");
        List<LaunchedImage> shown = top <= 0 ? kernels : kernels.subList(0, Math.min(top, kernels.size()));
        for (LaunchedImage image : shown) {
            KernelRecord record = image.image();
            out.add(String.format(Locale.ROOT,
                    "    STACK %8s B  LOCAL %6d B  SHARED %6d B  DYN %6s B  REG %3d  %-8s %s  (%s)", stack(record),
                    record.local(), record.shared(), dynamic(image), record.registers(), record.arch().sassLabel(),
                    result.displayName(record), record.library()));
        }
        if (shown.size() < kernels.size()) {
            out.add("    (" + (kernels.size() - shown.size()) + " more launched kernels not shown; set top to 0 to list "
                    + "all)");
        }
    }

    private static String dynamic(LaunchedImage image) {
        Long dynamic = image.launch().maxDynamicShared();
        return dynamic == null ? "?" : ByteSize.grouped(dynamic);
    }

    private static void renderDevice(CheckResult result, DeviceResult device, int top, boolean verbose, List<String> out) {
        DeviceSpec spec = device.device();
        out.add(spec.name() + " (compute capability " + spec.capability() + ", " + spec.capability().smName() + "): "
                + device.status().name());
        String perSm = spec.multiProcessorCount() != null && spec.maxThreadsPerMultiProcessor() != null
                ? " = " + spec.multiProcessorCount() + " SMs x " + spec.maxThreadsPerMultiProcessor() : "";
        out.add("  max resident threads: " + ByteSize.grouped(spec.maxResidentThreads()) + perSm);
        if (verbose && !spec.source().isEmpty()) {
            out.add("  figures from: " + spec.source());
        }
        if (device.skipped()) {
            out.add("  SKIPPED: " + device.skipReason());
            if (device.launched() != null && !device.launched().jit().isEmpty()) {
                out.add("  " + device.launched().jit().size() + " launched function(s) would JIT from PTX here (frame "
                        + "unknown)");
            }
            return;
        }
        if (device.fellBack()) {
            out.add("  WARNING: " + spec.capability().smName() + " not embedded; using compatible arch "
                    + device.chosenArch().sassLabel() + ".");
        }
        out.add("  images run: " + device.imageCounts().entrySet().stream()
                .map(entry -> entry.getKey() + " (" + entry.getValue() + " functions)").collect(Collectors.joining(", ")));
        if (device.launched() != null) {
            renderLaunched(result, device, out);
        }
        KernelRecord worst = device.worst();
        if (worst == null || worst.stack() == 0) {
            out.add("  worst-case reservation: 0 B (no kernel has a stack frame; the driver's default "
                    + Reservation.DEFAULT_STACK_LIMIT + " B per thread = "
                    + ByteSize.format(Reservation.bytesFor(spec.maxResidentThreads(), Reservation.DEFAULT_STACK_LIMIT))
                    + " is held anyway)");
        } else {
            long limit = Reservation.stackLimitFor(worst.stack());
            out.add("  worst-case reservation" + (device.launched() != null ? " (static, every kernel)" : "") + ": "
                    + ByteSize.format(device.staticReservationBytes()) + " = "
                    + ByteSize.grouped(spec.maxResidentThreads()) + " threads x " + ByteSize.grouped(limit) + " B"
                    + (limit != worst.stack() ? " (frame " + ByteSize.grouped(worst.stack()) + " B rounded up to 16)" : ""));
            out.add("      over the default " + Reservation.DEFAULT_STACK_LIMIT + " B limit: "
                    + ByteSize.format(Reservation.incrementFor(spec.maxResidentThreads(), worst.stack())));
            out.add("      largest stack frame " + ByteSize.grouped(worst.stack()) + " B in " + worst.library() + " ["
                    + worst.arch().sassLabel() + "]");
            out.add("      kernel: " + result.displayName(worst));
            out.add("      shared memory: " + ByteSize.grouped(worst.shared()) + " B static");
        }
        if (device.budgetBytes() != null) {
            out.add("  budget: " + ByteSize.format(device.budgetBytes()) + " (" + percent(device.reservationBytes(),
                    device.budgetBytes()) + " used" + (device.launchedHeadline() ? " by the launched kernels" : "")
                    + ")" + (device.status() == DeviceResult.Status.FAIL ? " EXCEEDED" : ""));
        } else {
            out.add("  budget: none (set maxReservation to gate this device)");
        }
        for (Violation violation : device.violations()) {
            if (violation.kind() == Violation.Kind.STACK) {
                out.add("  stack limit exceeded: " + result.displayName(violation.kernel()) + " ["
                        + violation.kernel().arch().sassLabel() + "] in " + violation.kernel().library() + ": "
                        + ByteSize.grouped(violation.actual()) + " B > " + ByteSize.grouped(violation.limit()) + " B");
            }
        }
        if (device.worstLocal() != null) {
            out.add("  (largest local-memory/spill per thread: " + ByteSize.grouped(device.worstLocal().local())
                    + " B in " + device.worstLocal().library() + ")");
        }
        if (!device.unknownStack().isEmpty()) {
            out.add("  " + device.unknownStack().size() + " kernel(s) with UNKNOWN stack (not in the figure above)");
        }
        if (!device.jit().isEmpty()) {
            out.add("  " + device.jit().size() + " function(s) would JIT from PTX (frame unknown at build time)");
        }
        if (!device.cannotRun().isEmpty()) {
            out.add("  " + device.cannotRun().size() + " function(s) cannot launch (no usable SASS or PTX)");
        }
        if (!device.ambiguous().isEmpty()) {
            out.add("  " + device.ambiguous().size() + " function(s) with an undocumented choice of image (larger frame counted)");
        }
        if (verbose) {
            List<KernelRecord> spilling = device.selected().stream()
                    .filter(record -> record.stackUnknown() || record.stack() > 0).toList();
            out.add("  kernels with a stack frame (" + spilling.size() + "):");
            List<KernelRecord> shown = top <= 0 ? spilling : spilling.subList(0, Math.min(top, spilling.size()));
            for (KernelRecord record : shown) {
                out.add(String.format(Locale.ROOT, "    STACK %8s B  LOCAL %6d B  SHARED %6d B  REG %3d  %-8s %s  (%s)",
                        stack(record), record.local(), record.shared(),
                        record.registers(), record.arch().sassLabel(), result.displayName(record), record.library()));
            }
            List<KernelRecord> hidden = spilling.subList(shown.size(), spilling.size());
            if (!hidden.isEmpty()) {
                out.add("    (" + hidden.size() + " more kernels with STACK " + stack(hidden.get(hidden.size() - 1))
                        + "-" + stack(hidden.get(0)) + " B not shown; set top to 0 to list all)");
            }
            if (device.launched() != null) {
                renderLaunchedListing(result, device, top, out);
            }
        }
    }

    private static String stack(KernelRecord record) {
        return record.stackUnknown() ? "UNKNOWN" : Long.toString(record.stack());
    }

    private static String arches(SortedSet<GpuArch> arches, boolean ptx) {
        return new TreeSet<>(arches).stream().map(arch -> ptx ? arch.ptxLabel() : arch.sassLabel())
                .collect(Collectors.joining(", "));
    }

    private static String percent(long part, long whole) {
        if (whole == 0) {
            return part == 0 ? "0%" : "inf%";
        }
        return BigDecimal.valueOf(part).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(whole), 1, RoundingMode.HALF_UP).toPlainString() + "%";
    }
}
