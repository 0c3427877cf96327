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
import io.github.cudastackbudget.core.engine.JarEntryReads;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarLibraryFinder;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import io.github.cudastackbudget.core.scan.DeviceCodeProbe;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.LibraryDiscovery;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
     * @param jarScan               JAR files whose native-library entries are read in place (native engine)
     */
    public record Request(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, boolean defaultDevices, String deviceOrigin,
            SizeLimit defaultMaxReservation, Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan) {

        /** A request without JAR scanning. */
        public Request(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
                int parallelism, List<DeviceTarget> devices, boolean defaultDevices, String deviceOrigin,
                SizeLimit defaultMaxReservation, Long maxStackPerThread, Demangler demangler) {
            this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, defaultDevices, deviceOrigin,
                    defaultMaxReservation, maxStackPerThread, demangler, JarScanOptions.NONE);
        }

        public Request {
            jarScan = jarScan == null ? JarScanOptions.NONE : jarScan;
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
        List<JarEntryLibrary> jarEntries = new ArrayList<>();
        try {
            for (JarInput jar : request.jarScan().jars()) {
                jarEntries.addAll(JarLibraryFinder.find(jar, request.jarScan().includes(),
                        request.jarScan().excludes()));
            }
        } catch (LibraryDiscovery.DiscoveryException e) {
            throw new CheckException(e.getMessage(), e);
        }
        int filesProbed = discovery.filesProbed() + jarEntries.size();
        if (files.isEmpty() && jarEntries.isEmpty()) {
            return new CheckResult(filesProbed, List.of(), KernelIndex.of(List.of()), Map.of(), List.of(),
                    request.defaultDevices(), request.deviceOrigin(), warnings, "none (no device code)", 0);
        }

        KernelEngine engine = null;
        if (!files.isEmpty()) {
            try {
                engine = request.engine().get();
            } catch (EngineException e) {
                throw new CheckException(e.getMessage(), e);
            }
            listener.info("Reading " + files.size() + " file(s) with device code using " + engine.description());
        }
        NativeEngine jarEngine = jarEntries.isEmpty() ? null : new NativeEngine(request.parallelism());
        if (jarEngine != null) {
            listener.info("Reading " + jarEntries.size() + " library entr" + (jarEntries.size() == 1 ? "y" : "ies")
                    + " of " + request.jarScan().jars().size() + " JAR(s) in place using " + jarEngine.description());
        }
        long start = System.nanoTime();
        List<LibraryScan> scans;
        try {
            List<LibraryScanner.ReadTask> tasks = new ArrayList<>();
            KernelEngine fileEngine = engine;
            files.forEach(file -> tasks.add(() -> Optional.of(fileEngine.read(file))));
            tasks.addAll(JarEntryReads.tasks(jarEntries, jarEngine));
            scans = new LibraryScanner(engine != null ? engine : jarEngine, request.parallelism()).run(tasks,
                    (scan, done, total) -> listener.info("  [" + done + "/" + total + "] " + name(scan) + ": "
                            + scan.records().size() + " kernel records, " + scan.libraries().size() + " librar"
                            + (scan.libraries().size() == 1 ? "y" : "ies") + ", " + scan.elapsedMillis() + " ms"));
        } catch (EngineException e) {
            throw new CheckException(e.getMessage(), e);
        }
        long scanMillis = (System.nanoTime() - start) / 1_000_000;
        if (engine != null) {
            engine.warnings().forEach(line -> warn(listener, warnings, line));
        }
        String engineDescription = engine != null ? engine.description()
                + (jarEngine != null ? "; JAR entries: " + jarEngine.description() : "") : jarEngine.description();
        if (scans.isEmpty()) {
            return new CheckResult(filesProbed, List.of(), KernelIndex.of(List.of()), Map.of(), List.of(),
                    request.defaultDevices(), request.deviceOrigin(), warnings, "none (no device code)", 0);
        }
        int fromFiles = files.size(); // file reads come first and never come back empty
        List<LibraryScan> attributed = new ArrayList<>(scans.size());
        for (int i = 0; i < scans.size(); i++) {
            // files belong to the project; JAR entries already carry their JAR's owner
            attributed.add(i < fromFiles ? scans.get(i).withUsedBy(request.usedBy()) : scans.get(i));
        }
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
                reportDeviceWarnings(device, index, listener, warnings, displayNames);
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
        return new CheckResult(filesProbed, attributed, index, displayNames, devices,
                request.defaultDevices(), request.deviceOrigin(), warnings, engineDescription, scanMillis);
    }

    private static void reportDeviceWarnings(DeviceResult device, KernelIndex index, CheckListener listener, List<String> warnings,
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
            FunctionChoice first = device.jit().get(0);
            String example = displayNames.getOrDefault(first.function().name(), first.function().name()) + " in "
                    + first.function().library();
            boolean perKernel = device.jit().stream()
                    .allMatch(choice -> index.ptxEntriesKnown(choice.function().library()));
            if (perKernel) {
                warn(listener, warnings, "device " + name + ": " + device.jit().size() + " kernel(s) have no SASS for "
                        + device.device().capability().smName() + " and would be JIT-compiled from their PTX when "
                        + "launched; their frame is unknown at build time, so this device's figure does not cover "
                        + "them, e.g. " + example);
            } else {
                listener.info("device " + name + ": " + device.jit().size() + " function(s) have no SASS for "
                        + device.device().capability().smName() + "; their library embeds compatible PTX, so if they "
                        + "are launched there the driver JIT-compiles them (frame unknown at build time; the engine "
                        + "does not name PTX kernels, so this counts every such function of the library), e.g. "
                        + example);
            }
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

    /** A scan of a JAR entry: its library labels read {@code app.jar!/...}. */
    private static boolean isJarScan(LibraryScan scan) {
        return !scan.libraries().isEmpty() && scan.libraries().get(0).contains("!/");
    }

    /** The name a progress line shows: the file name, or the JAR entry's label. */
    private static String name(LibraryScan scan) {
        return isJarScan(scan) ? scan.libraries().get(0).replaceFirst("\\(.*$", "") : scan.path().getFileName().toString();
    }

    private static void warn(CheckListener listener, List<String> warnings, String line) {
        warnings.add(line);
        listener.warn(line);
    }
}
