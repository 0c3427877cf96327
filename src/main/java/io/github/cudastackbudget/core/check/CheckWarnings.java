package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.DriverDifference;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.device.DeviceOrigin;
import io.github.cudastackbudget.core.launch.LaunchLog;
import io.github.cudastackbudget.core.launch.LaunchMatch;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The check's warnings, each one line that says what to do, in the order found: each goes to the listener as it is
 * found and into the result. Also the check's informational lines about the same findings.
 */
final class CheckWarnings {

    private final CheckProgress listener;
    private final List<String> lines = new ArrayList<>();

    CheckWarnings(CheckProgress listener) {
        this.listener = listener;
    }

    /** The warnings so far. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    void warn(String line) {
        lines.add(line);
        listener.warn(line);
    }

    /** An explicitly named file without device code. */
    void noDeviceCode(DeviceCodeProbe probe) {
        warn("library '" + probe.file() + "' holds no CUDA device code (" + probe.detail() + "): nothing to check in it");
    }

    /** A file of relocatable device code: its STACK is not final. */
    void relocatable(DeviceCodeProbe probe) {
        warn(probe.file().getFileName() + " holds relocatable device code (-rdc): its frames are final only after the "
                + "device link, so STACK reads 0 there; check the linked library");
    }

    /** What the launch log matched, and the kernels it names that no scanned library holds. */
    void launched(LaunchedRun launched, Map<String, String> displayNames) {
        LaunchLog log = launched.log();
        LaunchMatch match = launched.match();
        int found = launched.scannedFromLibraryLog().size();
        listener.info("Launch log " + log.file() + ": " + launched.kernelCount() + " launched kernel(s), "
                + match.matched().size() + " matched, " + match.unmatched().size() + " in no scanned library"
                + (found == 0 ? "" : "; " + found + " librar" + (found == 1 ? "y" : "ies")
                        + " found through the library log"));
        int notHere = launched.libraryLogNotHere().size();
        if (notHere > 0) {
            listener.info(notHere + " librar" + (notHere == 1 ? "y" : "ies") + " named in the library log do not "
                    + "exist on this machine (the run happened elsewhere?), e.g. " + launched.libraryLogNotHere().get(0));
        }
        List<LaunchedKernel> driverReported = match.unmatched().stream().filter(LaunchedKernel::driverFrameKnown)
                .toList();
        List<LaunchedKernel> uncounted = match.unmatched().stream().filter(kernel -> !kernel.driverFrameKnown())
                .toList();
        if (!driverReported.isEmpty()) {
            LaunchedKernel largest = driverReported.stream()
                    .max(java.util.Comparator.comparing((LaunchedKernel kernel) -> kernel.driver().localBytes())
                            .thenComparing(LaunchedKernel::name, java.util.Comparator.reverseOrder()))
                    .orElseThrow();
            listener.info(driverReported.size() + " launched kernel(s) in no scanned library are counted with the "
                    + "frame the driver reported for them (driver-reported), the largest "
                    + displayNames.getOrDefault(largest.name(), largest.name()) + ": "
                    + ByteSize.grouped(largest.driver().localBytes()) + " B"
                    + (largest.driver().arch() == null ? "" : " (" + largest.driver().arch().sassLabel() + ")"));
        }
        if (!uncounted.isEmpty()) {
            LaunchedKernel first = uncounted.get(0);
            warn(uncounted.size() + " launched kernel(s) are in no scanned library" + (driverReported.isEmpty() ? ""
                    : " and have no driver-reported frame in the launch log") + ", so their frames are not "
                    + "counted, e.g. " + displayNames.getOrDefault(first.name(), first.name())
                    + (first.attributions().isEmpty() ? "" : " (launched under " + first.attributions().first() + ")")
                    + ": add the library that holds them to the checked libraries"
                    + (launched.libraryLog() == null ? ", or keep the library log next to the launch log" : ""));
        }
        if (log.format() != LaunchLog.Format.EMPTY && match.matched().isEmpty() && driverReported.isEmpty()) {
            warn(log.kernels().isEmpty()
                    ? "launch log " + log.file() + " lists no launched kernel: the launched reservation is 0 B"
                    : "launch log " + log.file() + " matches no kernel of the scanned libraries: the launched "
                            + "reservation is 0 B");
        }
    }

    /** Most driver/static differences warned one by one per device; the rest are counted in one more line. */
    static final int DRIVER_DIFFERENCES_WARNED = 5;

    /**
     * Per device, the launched kernels whose static image's frame differs from the one the driver reported (launch
     * log format 2): the driver loaded another image than the static rules chose.
     */
    void driverDifferences(List<DeviceResult> devices, Map<String, String> displayNames) {
        for (DeviceResult device : devices) {
            if (device.launched() == null) {
                continue;
            }
            List<DriverDifference> differences = device.launched().driverDifferences();
            for (int i = 0; i < differences.size() && i < DRIVER_DIFFERENCES_WARNED; i++) {
                DriverDifference difference = differences.get(i);
                KernelRecord image = difference.image();
                warn("device " + device.device().name() + ": launched kernel "
                        + displayNames.getOrDefault(image.name(), image.name()) + ": the driver reported a frame of "
                        + ByteSize.grouped(difference.driver().localBytes()) + " B ("
                        + (difference.driver().arch() == null ? "arch not recorded"
                                : difference.driver().arch().sassLabel() + " image")
                        + "), the static rules chose the " + image.arch().sassLabel() + " image in " + image.library()
                        + " with " + (image.stackUnknown() ? "an UNKNOWN frame" : ByteSize.grouped(image.stack()) + " B")
                        + ": the driver loaded another image than the rules chose (or the run loaded another build of "
                        + "the library); the launched figure counts the static one");
            }
            if (differences.size() > DRIVER_DIFFERENCES_WARNED) {
                warn("device " + device.device().name() + ": " + (differences.size() - DRIVER_DIFFERENCES_WARNED)
                        + " more launched kernel(s) with a driver-reported frame that differs from the static one ("
                        + differences.size() + " in all; the JSON report lists them)");
            }
        }
    }

    /**
     * Per device: skipped, UNKNOWN frames, JIT, fallback; then, when no device can run any SASS, a warning for default
     * devices and an error for configured ones.
     *
     * @throws CheckProblem no configured device runs the scanned SASS
     */
    void devices(List<DeviceResult> devices, KernelIndex index, Map<String, String> displayNames, DeviceOrigin origin)
            throws CheckProblem {
        for (DeviceResult device : devices) {
            if (device.skipped()) {
                warn("device " + device.device().name() + " skipped: " + device.skipReason());
            } else {
                device(device, index, displayNames);
            }
        }
        if (index.recordCount() > 0 && !devices.isEmpty() && devices.stream().allMatch(DeviceResult::skipped)) {
            String message = "no " + origin.adjective() + " device can run the SASS in the scanned libraries (embedded: "
                    + sassByLibrary(index) + "); add a device with a matching "
                    + "compute capability or build the libraries for your devices";
            if (!origin.isDefault()) {
                throw new CheckProblem(message);
            }
            warn(message);
        }
    }

    /** Libraries shown in the no-device message: at most this many, the rest counted. */
    static final int LIBRARIES_NAMED = 3;

    /** {@code libfoo.so: sm_80, sm_90; libbar.so: sm_75; and 2 more libraries}: which library embeds which SASS. */
    static String sassByLibrary(KernelIndex index) {
        java.util.SortedMap<String, java.util.SortedSet<io.github.cudastackbudget.core.arch.GpuArch>> byLibrary =
                new java.util.TreeMap<>();
        index.imagesByFunction().forEach((function, images) -> images.forEach(record -> byLibrary
                .computeIfAbsent(record.library(), key -> new java.util.TreeSet<>()).add(record.arch())));
        StringBuilder out = new StringBuilder();
        int named = 0;
        for (var entry : byLibrary.entrySet()) {
            if (named == LIBRARIES_NAMED) {
                int more = byLibrary.size() - LIBRARIES_NAMED;
                out.append("; and ").append(more).append(more == 1 ? " more library" : " more libraries");
                break;
            }
            out.append(named == 0 ? "" : "; ").append(entry.getKey()).append(": ").append(entry.getValue().stream()
                    .map(io.github.cudastackbudget.core.arch.GpuArch::sassLabel)
                    .collect(java.util.stream.Collectors.joining(", ")));
            named++;
        }
        return out.toString();
    }

    private void device(DeviceResult device, KernelIndex index, Map<String, String> displayNames) {
        String name = device.device().name();
        String sm = device.device().capability().smName();
        if (!device.unknownStack().isEmpty()) {
            KernelRecord first = device.unknownStack().get(0);
            warn("device " + name + ": " + device.unknownStack().size() + " kernel(s) have a stack frame the tool "
                    + "reports as UNKNOWN (recursion or indirect calls), e.g. "
                    + displayNames.getOrDefault(first.name(), first.name()) + " in " + first.library()
                    + "; the driver then only guarantees cudaLimitStackSize");
        }
        if (!device.jit().isEmpty()) {
            FunctionChoice first = device.jit().get(0);
            String example = displayNames.getOrDefault(first.function().name(), first.function().name()) + " in "
                    + first.function().library();
            boolean perKernel = device.jit().stream()
                    .allMatch(choice -> index.ptxEntriesKnown(choice.function().library()));
            if (perKernel) {
                warn("device " + name + ": " + device.jit().size() + " kernel(s) have no SASS for " + sm + " and would "
                        + "be JIT-compiled from their PTX when launched; their frame is unknown at build time, so this "
                        + "device's figure does not cover them, e.g. " + example);
            } else {
                listener.info("device " + name + ": " + device.jit().size() + " function(s) have no SASS for " + sm
                        + "; their library embeds compatible PTX, so if they are launched there the driver "
                        + "JIT-compiles them (frame unknown at build time; the engine does not name PTX kernels, so "
                        + "this counts every such function of the library), e.g. " + example);
            }
        }
        if (!device.cannotRun().isEmpty()) {
            String first = device.cannotRun().get(0).function().name();
            listener.info("device " + name + ": " + device.cannotRun().size() + " function(s) have neither SASS nor "
                    + "PTX usable on " + sm + " (usually built only for other architectures on purpose); they cannot "
                    + "launch there, e.g. " + displayNames.getOrDefault(first, first));
        }
        if (device.fellBack()) {
            warn("device " + name + ": no " + sm + " image embedded; the compatible "
                    + device.chosenArch().sassLabel() + " image is used instead");
        }
        if (!device.ambiguous().isEmpty()) {
            listener.info("device " + name + ": " + device.ambiguous().size() + " function(s) have both a base and a "
                    + "family image loadable; NVIDIA documents no choice, so the larger frame is counted");
        }
    }
}
