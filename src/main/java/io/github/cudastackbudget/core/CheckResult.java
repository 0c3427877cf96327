package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.List;
import java.util.Map;

/**
 * Everything one check found: the report model every writer (log, JSON, HTML) renders.
 *
 * @param filesProbed     candidate files looked at
 * @param scans           files with device code and what was read from them, in discovery order
 * @param index           every function with its images
 * @param displayNames    mangled name -> readable name
 * @param devices         per-device verdicts, in configuration order
 * @param defaultDevices  true when no device was configured and the default set (or local GPUs) was used
 * @param deviceOrigin    a short phrase saying where the devices came from
 * @param warnings        one line each, in the order found
 * @param engine          the engine's description
 * @param scanMillis      wall time of reading the libraries
 * @param launched        what a recorded run launched (launched mode), or null without a launch log
 */
public record CheckResult(int filesProbed, List<LibraryScan> scans, KernelIndex index, Map<String, String> displayNames,
        List<DeviceResult> devices, boolean defaultDevices, String deviceOrigin, List<String> warnings, String engine,
        long scanMillis, LaunchedRun launched) {

    /** A result of the static check (no launch log). */
    public CheckResult(int filesProbed, List<LibraryScan> scans, KernelIndex index, Map<String, String> displayNames,
            List<DeviceResult> devices, boolean defaultDevices, String deviceOrigin, List<String> warnings,
            String engine, long scanMillis) {
        this(filesProbed, scans, index, displayNames, devices, defaultDevices, deviceOrigin, warnings, engine,
                scanMillis, null);
    }

    public CheckResult {
        scans = List.copyOf(scans);
        displayNames = Map.copyOf(displayNames);
        devices = List.copyOf(devices);
        warnings = List.copyOf(warnings);
    }

    /** The same result with {@code earlier} warnings (found before the scan) listed first. */
    public CheckResult withLeadingWarnings(List<String> earlier) {
        if (earlier.isEmpty()) {
            return this;
        }
        List<String> all = new java.util.ArrayList<>(earlier);
        all.addAll(warnings);
        return new CheckResult(filesProbed, scans, index, displayNames, devices, defaultDevices, deviceOrigin, all,
                engine, scanMillis, launched);
    }

    /** All violations, device by device. */
    public List<Violation> violations() {
        return devices.stream().flatMap(device -> device.violations().stream()).toList();
    }

    /** True when no file held device code (no SASS record and no PTX kernel). */
    public boolean noKernels() {
        return index.recordCount() == 0 && index.functionCount() == 0;
    }

    /** The readable name of a kernel. */
    public String displayName(KernelRecord record) {
        return displayNames.getOrDefault(record.name(), record.name());
    }

    /** The readable name of a mangled name. */
    public String displayName(String mangled) {
        return displayNames.getOrDefault(mangled, mangled);
    }
}
