package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.budget.DeviceResult;
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
        if (!match.unmatched().isEmpty()) {
            LaunchedKernel first = match.unmatched().get(0);
            warn(match.unmatched().size() + " launched kernel(s) are in no scanned library, so their frames are not "
                    + "counted, e.g. " + displayNames.getOrDefault(first.name(), first.name())
                    + (first.attributions().isEmpty() ? "" : " (launched under " + first.attributions().first() + ")")
                    + ": add the library that holds them to the checked libraries"
                    + (launched.libraryLog() == null ? ", or keep the library log next to the launch log" : ""));
        }
        if (log.format() != LaunchLog.Format.EMPTY && match.matched().isEmpty()) {
            warn(log.kernels().isEmpty()
                    ? "launch log " + log.file() + " lists no launched kernel: the launched reservation is 0 B"
                    : "launch log " + log.file() + " matches no kernel of the scanned libraries: the launched "
                            + "reservation is 0 B");
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
