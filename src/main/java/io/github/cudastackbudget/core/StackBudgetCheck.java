package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.arch.InvalidValueException;
import io.github.cudastackbudget.core.budget.BudgetEvaluator;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.DeviceTarget;
import io.github.cudastackbudget.core.budget.SizeLimit;
import io.github.cudastackbudget.core.demangle.Demangler;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.KernelEngine;
import io.github.cudastackbudget.core.engine.KernelRecord;
import io.github.cudastackbudget.core.engine.LibraryScan;
import io.github.cudastackbudget.core.engine.LibraryScanner;
import io.github.cudastackbudget.core.scan.DeviceCodeProbe;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.LibraryDiscovery;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The Maven-free pipeline: discover files, read their kernels, choose each device's images, apply the budgets.
 * Writing reports and deciding whether to fail is the caller's (mojo, command line).
 */
public final class StackBudgetCheck {

    /** Creates the engine once device code has been found (so a project without CUDA needs no toolkit). */
    @FunctionalInterface
    public interface EngineProvider {
        KernelEngine get() throws EngineException;
    }

    /**
     * What to check.
     *
     * @param fileSets              pattern-matched inputs
     * @param explicitFiles         inputs named one by one
     * @param usedBy                the owner of the inputs for the "used by" listing (a Maven artifact)
     * @param engine                creates the engine
     * @param parallelism           files read at once
     * @param devices               the devices and their own budgets
     * @param defaultDevices        true when {@code devices} is the default set (not configured by the user)
     * @param deviceOrigin          a phrase saying where the devices came from, for the log
     * @param defaultMaxReservation the budget of devices without their own, or null
     * @param maxStackPerThread     the per-kernel frame limit, or null
     * @param demangler             names kernels for people
     */
    public record Request(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, boolean defaultDevices, String deviceOrigin,
            SizeLimit defaultMaxReservation, Long maxStackPerThread, Demangler demangler) {

        public Request {
            fileSets = List.copyOf(fileSets);
            explicitFiles = List.copyOf(explicitFiles);
            devices = List.copyOf(devices);
            Objects.requireNonNull(engine, "engine");
            Objects.requireNonNull(demangler, "demangler");
        }
    }

    private StackBudgetCheck() {
    }

    /**
     * Runs the check.
     *
     * @throws CheckException for misuse or broken inputs, with one line that names the file, value or tool
     */
    public static CheckResult run(Request request, CheckListener listener) throws CheckException {
        LibraryDiscovery.Discovery discovery;
        try {
            discovery = LibraryDiscovery.discover(request.fileSets(), request.explicitFiles());
        } catch (LibraryDiscovery.DiscoveryException e) {
            throw new CheckException(e.getMessage(), e);
        }
        List<String> warnings = new ArrayList<>();
        for (DeviceCodeProbe probe : discovery.explicitWithout()) {
            warn(listener, warnings, "library '" + probe.file() + "' holds no CUDA device code (" + probe.detail()
                    + "): nothing to check in it");
        }
        List<DeviceCodeProbe> files = discovery.withDeviceCode();
        if (files.isEmpty()) {
            return new CheckResult(discovery.filesProbed(), List.of(), KernelIndex.of(List.of()), Map.of(), List.of(),
                    request.defaultDevices(), request.deviceOrigin(), warnings, "none (no device code)", 0);
        }

        KernelEngine engine;
        try {
            engine = request.engine().get();
        } catch (EngineException e) {
            throw new CheckException(e.getMessage(), e);
        }
        listener.info("Reading " + files.size() + " file(s) with device code using " + engine.description());
        long start = System.nanoTime();
        List<LibraryScan> scans;
        try {
            scans = new LibraryScanner(engine, request.parallelism()).scan(files, (scan, done, total) ->
                    listener.info("  [" + done + "/" + total + "] " + scan.path().getFileName() + ": "
                            + scan.records().size() + " kernel records, " + scan.libraries().size() + " librar"
                            + (scan.libraries().size() == 1 ? "y" : "ies") + ", " + scan.elapsedMillis() + " ms"));
        } catch (EngineException e) {
            throw new CheckException(e.getMessage(), e);
        }
        long scanMillis = (System.nanoTime() - start) / 1_000_000;
        List<LibraryScan> attributed = scans.stream().map(scan -> scan.withUsedBy(request.usedBy())).toList();
        for (DeviceCodeProbe probe : files) {
            if (probe.detail() != null && probe.detail().endsWith(" with __nv_relfatbin")) {
                warn(listener, warnings, probe.file().getFileName() + " holds relocatable device code (-rdc): its "
                        + "frames are final only after the device link, so STACK reads 0 there; check the linked library");
            }
        }

        KernelIndex index = KernelIndex.of(attributed);
        Set<String> names = new HashSet<>();
        index.imagesByFunction().keySet().forEach(key -> names.add(key.name()));
        Map<String, String> displayNames = request.demangler().displayNames(names);

        BudgetEvaluator evaluator = new BudgetEvaluator(request.defaultMaxReservation(), request.maxStackPerThread());
        List<DeviceResult> devices = new ArrayList<>();
        for (DeviceTarget target : request.devices()) {
            try {
                devices.add(evaluator.evaluate(index, target));
            } catch (InvalidValueException e) {
                throw new CheckException(e.getMessage(), e);
            }
        }
        for (DeviceResult device : devices) {
            if (device.skipped()) {
                warn(listener, warnings, "device " + device.device().name() + " skipped: " + device.skipReason());
            } else {
                reportDeviceWarnings(device, listener, warnings, displayNames);
            }
        }
        if (index.recordCount() > 0 && !devices.isEmpty() && devices.stream().allMatch(DeviceResult::skipped)) {
            String message = "no configured device can run the SASS in the scanned libraries (embedded: "
                    + index.sassArches().stream().map(arch -> arch.sassLabel()).reduce((a, b) -> a + ", " + b).orElse("")
                    + "); add a device with a matching compute capability or build the libraries for your devices";
            if (!request.defaultDevices()) {
                throw new CheckException(message);
            }
            warn(listener, warnings, message.replace("configured", "default"));
        }
        return new CheckResult(discovery.filesProbed(), attributed, index, displayNames, devices,
                request.defaultDevices(), request.deviceOrigin(), warnings, engine.description(), scanMillis);
    }

    private static void reportDeviceWarnings(DeviceResult device, CheckListener listener, List<String> warnings,
            Map<String, String> displayNames) {
        String name = device.device().name();
        if (!device.unknownStack().isEmpty()) {
            KernelRecord first = device.unknownStack().get(0);
            warn(listener, warnings, "device " + name + ": " + device.unknownStack().size() + " kernel(s) have a stack "
                    + "frame the tool reports as UNKNOWN (recursion or indirect calls), e.g. "
                    + displayNames.getOrDefault(first.name(), first.name()) + " in " + first.library()
                    + "; the driver then only guarantees cudaLimitStackSize");
        }
        if (!device.jit().isEmpty()) {
            listener.info("device " + name + ": " + device.jit().size() + " function(s) have no SASS for "
                    + device.device().capability().smName() + "; their library embeds compatible PTX, so if they are "
                    + "launched there the driver JIT-compiles them (frame unknown at build time), e.g. "
                    + displayNames.getOrDefault(device.jit().get(0).function().name(),
                            device.jit().get(0).function().name()));
        }
        if (!device.cannotRun().isEmpty()) {
            listener.info("device " + name + ": " + device.cannotRun().size() + " function(s) have neither SASS nor "
                    + "PTX usable on " + device.device().capability().smName() + " (usually built only for other "
                    + "architectures on purpose); they cannot launch there, e.g. "
                    + displayNames.getOrDefault(device.cannotRun().get(0).function().name(),
                            device.cannotRun().get(0).function().name()));
        }
        if (device.fellBack()) {
            warn(listener, warnings, "device " + name + ": no " + device.device().capability().smName()
                    + " image embedded; the compatible " + device.chosenArch().sassLabel() + " image is used instead");
        }
        if (!device.ambiguous().isEmpty()) {
            listener.info("device " + name + ": " + device.ambiguous().size() + " function(s) have both a base and a "
                    + "family image loadable; NVIDIA documents no choice, so the larger frame is counted");
        }
    }

    private static void warn(CheckListener listener, List<String> warnings, String line) {
        warnings.add(line);
        listener.warn(line);
    }
}
