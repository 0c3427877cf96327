package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.device.DeviceOrigin;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.gate.SuppressedKernel;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.model.PlatformSelection;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one check found; the report model ({@code core.report.model}) is built from it once.
 *
 * @param filesProbed  candidate files looked at
 * @param scans        files with device code and what was read from them, in discovery order
 * @param index        every function with its images
 * @param displayNames mangled name -> readable name
 * @param devices      per-device verdicts, in configuration order
 * @param deviceOrigin where the devices came from (configured, detected, the default set) and how reports say it
 * @param warnings     one line each, in the order found
 * @param engine       the engine's description
 * @param scanMillis   wall time of reading the libraries
 * @param launched     what a recorded run launched (launched mode), or null without a launch log
 * @param unreadable   device code that could not be read and was left out (only with failOnUnreadable false), in
 *                     input order
 * @param platforms    the platforms whose libraries the devices were judged over ({@link PlatformSelection#ALL}: all)
 * @param checks       the gate's checks beyond the per-device budgets (rules, suppressions, baseline), in the order
 *                     the stages made them
 * @param suppressed   the kernels that left a device's verdict because a suppression covers them, device by device
 */
public record CheckResult(int filesProbed, List<LibraryScan> scans, KernelIndex index, Map<String, String> displayNames,
        List<DeviceResult> devices, DeviceOrigin deviceOrigin, List<String> warnings, String engine, long scanMillis,
        LaunchedRun launched, List<DeviceCodeProbe.Unreadable> unreadable, PlatformSelection platforms,
        List<GateCheck> checks, List<SuppressedKernel> suppressed) {

    // gate (issue 12): suppressions
    /** A result in which nothing was suppressed. */
    public CheckResult(int filesProbed, List<LibraryScan> scans, KernelIndex index, Map<String, String> displayNames,
            List<DeviceResult> devices, DeviceOrigin deviceOrigin, List<String> warnings, String engine, long scanMillis,
            LaunchedRun launched, List<DeviceCodeProbe.Unreadable> unreadable, PlatformSelection platforms,
            List<GateCheck> checks) {
        this(filesProbed, scans, index, displayNames, devices, deviceOrigin, warnings, engine, scanMillis, launched,
                unreadable, platforms, checks, List.of());
    }

    /** The same result listing the kernels suppressions took out of the verdicts. */
    public CheckResult withSuppressed(List<SuppressedKernel> kernels) {
        return new CheckResult(filesProbed, scans, index, displayNames, devices, deviceOrigin, warnings, engine,
                scanMillis, launched, unreadable, platforms, checks, kernels);
    }

    /** A result without gate checks (rules, suppressions, baseline). */
    public CheckResult(int filesProbed, List<LibraryScan> scans, KernelIndex index, Map<String, String> displayNames,
            List<DeviceResult> devices, DeviceOrigin deviceOrigin, List<String> warnings, String engine, long scanMillis,
            LaunchedRun launched, List<DeviceCodeProbe.Unreadable> unreadable, PlatformSelection platforms) {
        this(filesProbed, scans, index, displayNames, devices, deviceOrigin, warnings, engine, scanMillis, launched,
                unreadable, platforms, List.of());
    }

    /** A result whose devices were judged over every platform's libraries. */
    public CheckResult(int filesProbed, List<LibraryScan> scans, KernelIndex index, Map<String, String> displayNames,
            List<DeviceResult> devices, DeviceOrigin deviceOrigin, List<String> warnings, String engine, long scanMillis,
            LaunchedRun launched, List<DeviceCodeProbe.Unreadable> unreadable) {
        this(filesProbed, scans, index, displayNames, devices, deviceOrigin, warnings, engine, scanMillis, launched,
                unreadable, PlatformSelection.ALL);
    }

    /** A result in which every input was read. */
    public CheckResult(int filesProbed, List<LibraryScan> scans, KernelIndex index, Map<String, String> displayNames,
            List<DeviceResult> devices, DeviceOrigin deviceOrigin, List<String> warnings, String engine, long scanMillis,
            LaunchedRun launched) {
        this(filesProbed, scans, index, displayNames, devices, deviceOrigin, warnings, engine, scanMillis, launched,
                List.of());
    }

    /** The engine description of a check that found no device code. */
    public static final String NO_ENGINE = "none (no device code)";

    public CheckResult {
        scans = List.copyOf(scans);
        displayNames = Map.copyOf(displayNames);
        devices = List.copyOf(devices);
        warnings = List.copyOf(warnings);
        unreadable = unreadable == null ? List.of() : List.copyOf(unreadable);
        platforms = platforms == null ? PlatformSelection.ALL : platforms;
        checks = checks == null ? List.of() : List.copyOf(checks);
        suppressed = suppressed == null ? List.of() : List.copyOf(suppressed);
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(deviceOrigin, "deviceOrigin");
    }

    /** The same result listing device code that could not be read. */
    public CheckResult withUnreadable(List<DeviceCodeProbe.Unreadable> files) {
        return new CheckResult(filesProbed, scans, index, displayNames, devices, deviceOrigin, warnings, engine,
                scanMillis, launched, files, platforms, checks, suppressed);
    }

    /** The result when no scanned input holds device code. */
    public static CheckResult noDeviceCode(int filesProbed, DeviceOrigin origin, List<String> warnings) {
        return new CheckResult(filesProbed, List.of(), KernelIndex.of(List.of()), Map.of(), List.of(), origin, warnings,
                NO_ENGINE, 0, null);
    }

    /** The same result with {@code earlier} warnings (found before the scan) listed first. */
    public CheckResult withLeadingWarnings(List<String> earlier) {
        if (earlier.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(earlier);
        all.addAll(warnings);
        return new CheckResult(filesProbed, scans, index, displayNames, devices, deviceOrigin, all, engine, scanMillis,
                launched, unreadable, platforms, checks, suppressed);
    }

    /** The same result with {@code more} gate checks after its own. */
    public CheckResult withChecks(List<GateCheck> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<GateCheck> all = new ArrayList<>(checks);
        all.addAll(more);
        return new CheckResult(filesProbed, scans, index, displayNames, devices, deviceOrigin, warnings, engine,
                scanMillis, launched, unreadable, platforms, all, suppressed);
    }

    /** Whether the devices were judged over this scan's libraries (its platform is gated). */
    public boolean gated(LibraryScan scan) {
        return platforms.gates(scan);
    }

    /** True when the devices were not configured (detected GPUs or the default set). */
    public boolean defaultDevices() {
        return deviceOrigin.isDefault();
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
