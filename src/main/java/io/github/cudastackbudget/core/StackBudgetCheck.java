package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.arch.InvalidValueException;
import io.github.cudastackbudget.core.budget.BudgetEvaluator;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.demangle.Demangler;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.KernelEngine;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.engine.LibraryScanner;
import io.github.cudastackbudget.core.engine.JarEntryReads;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.launch.LaunchLog;
import io.github.cudastackbudget.core.launch.LaunchMatch;
import io.github.cudastackbudget.core.launch.LaunchMatcher;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.launch.LibraryLog;
import io.github.cudastackbudget.core.scan.DeviceCodeDetector;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarLibraryFinder;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import io.github.cudastackbudget.core.scan.DeviceCodeProbe;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.LibraryDiscovery;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.io.IOException;
import java.nio.file.Files;
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
     * @param launch                the logs of a recorded run (launched mode), or null for the static check
     */
    public record Request(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, boolean defaultDevices, String deviceOrigin,
            SizeLimit defaultMaxReservation, Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan,
            Launch launch) {

        /** A request without JAR scanning, of the static check. */
        public Request(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
                int parallelism, List<DeviceTarget> devices, boolean defaultDevices, String deviceOrigin,
                SizeLimit defaultMaxReservation, Long maxStackPerThread, Demangler demangler) {
            this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, defaultDevices, deviceOrigin,
                    defaultMaxReservation, maxStackPerThread, demangler, JarScanOptions.NONE, null);
        }

        /** A request of the static check. */
        public Request(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
                int parallelism, List<DeviceTarget> devices, boolean defaultDevices, String deviceOrigin,
                SizeLimit defaultMaxReservation, Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan) {
            this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, defaultDevices, deviceOrigin,
                    defaultMaxReservation, maxStackPerThread, demangler, jarScan, null);
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

    /**
     * The logs of a recorded run.
     *
     * @param log        the kernel launch log
     * @param libraryLog the library log, or null when there is none
     */
    public record Launch(LaunchLog log, LibraryLog libraryLog) {
        public Launch {
            Objects.requireNonNull(log, "log");
        }
    }

    /**
     * File names in a library log that belong to the launch recorder itself (the injection library and the CUPTI
     * libraries it loads), not to the application: never scanned through the library log.
     */
    static final List<String> RECORDER_LIBRARY_PREFIXES = List.of("libcuda-stack-budget-cupti", "libcupti.",
            "libnvperf_", "libpcsamplingutil.");

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
        jarEntries = withoutScannedFiles(jarEntries, files, listener);
        Launch launch = request.launch();
        if (files.isEmpty() && jarEntries.isEmpty() && launch == null) {
            return noDeviceCode(request, filesProbed, warnings);
        }

        LazyEngine engine = new LazyEngine(request.engine());
        KernelEngine fileEngine = null;
        if (!files.isEmpty()) {
            try {
                fileEngine = engine.get();
            } catch (EngineException e) {
                throw new CheckException(e.getMessage(), e);
            }
            listener.info("Reading " + files.size() + " file(s) with device code using " + fileEngine.description());
        }
        NativeEngine jarEngine = jarEntries.isEmpty() ? null : new NativeEngine(request.parallelism());
        if (jarEngine != null) {
            listener.info("Reading " + jarEntries.size() + " library entr" + (jarEntries.size() == 1 ? "y" : "ies")
                    + " of " + request.jarScan().jars().size() + " JAR(s) in place using " + jarEngine.description());
        }
        long start = System.nanoTime();
        List<LibraryScan> scans = List.of();
        if (fileEngine != null || jarEngine != null) {
            try {
                List<LibraryScanner.ReadTask> tasks = new ArrayList<>();
                KernelEngine readFiles = fileEngine;
                files.forEach(file -> tasks.add(() -> Optional.of(readFiles.read(file))));
                tasks.addAll(JarEntryReads.tasks(jarEntries, jarEngine));
                scans = new LibraryScanner(fileEngine != null ? fileEngine : jarEngine, request.parallelism()).run(tasks,
                        (scan, done, total) -> listener.info("  [" + done + "/" + total + "] " + name(scan) + ": "
                                + scan.records().size() + " kernel records, " + scan.libraries().size() + " librar"
                                + (scan.libraries().size() == 1 ? "y" : "ies") + ", " + scan.elapsedMillis() + " ms"));
            } catch (EngineException e) {
                throw new CheckException(e.getMessage(), e);
            }
        }
        int fromFiles = files.size(); // file reads come first and never come back empty
        List<LibraryScan> attributed = new ArrayList<>(scans.size());
        for (int i = 0; i < scans.size(); i++) {
            // files belong to the project; JAR entries already carry their JAR's owner
            attributed.add(i < fromFiles ? scans.get(i).withUsedBy(request.usedBy()) : scans.get(i));
        }
        LaunchedRun launched = null;
        if (launch != null) {
            launched = matchLaunched(launch, files, attributed, engine, listener, warnings);
        }
        long scanMillis = (System.nanoTime() - start) / 1_000_000;
        if (engine.created()) {
            engine.current().warnings().forEach(line -> warn(listener, warnings, line));
        }
        String fileEngineDescription = engine.created() ? engine.current().description() : null;
        String engineDescription = fileEngineDescription != null ? fileEngineDescription
                + (jarEngine != null ? "; JAR entries: " + jarEngine.description() : "")
                : jarEngine != null ? jarEngine.description() : "none (no device code)";
        if (attributed.isEmpty() && launched == null) {
            return noDeviceCode(request, filesProbed, warnings);
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
        if (launched != null) {
            launched.match().unmatched().forEach(kernel -> names.add(kernel.name()));
        }
        Map<String, String> displayNames = request.demangler().displayNames(names);
        if (launched != null) {
            reportLaunchWarnings(launched, listener, warnings, displayNames);
        }
        if (attributed.isEmpty()) {
            return new CheckResult(filesProbed, List.of(), index, displayNames, List.of(), request.defaultDevices(),
                    request.deviceOrigin(), warnings, engineDescription, scanMillis, launched);
        }

        BudgetEvaluator evaluator = new BudgetEvaluator(request.defaultMaxReservation(), request.maxStackPerThread());
        BudgetEvaluator.Launched launchedFunctions = launched == null ? null
                : new BudgetEvaluator.Launched(launched.launchedFunctions(), launched.headline());
        List<DeviceResult> devices = new ArrayList<>();
        for (DeviceTarget target : request.devices()) {
            try {
                devices.add(evaluator.evaluate(index, target, launchedFunctions));
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
                request.defaultDevices(), request.deviceOrigin(), warnings, engineDescription, scanMillis, launched);
    }

    private static List<LibraryScan> scan(LazyEngine engine, List<DeviceCodeProbe> files, int parallelism,
            CheckListener listener) throws CheckException {
        try {
            KernelEngine kernelEngine = engine.get();
            listener.info("Reading " + files.size() + " file(s) with device code using " + kernelEngine.description());
            return new LibraryScanner(kernelEngine, parallelism).scan(files, (scan, done, total) ->
                    listener.info("  [" + done + "/" + total + "] " + scan.path().getFileName() + ": "
                            + scan.records().size() + " kernel records, " + scan.libraries().size() + " librar"
                            + (scan.libraries().size() == 1 ? "y" : "ies") + ", " + scan.elapsedMillis() + " ms"));
        } catch (EngineException e) {
            throw new CheckException(e.getMessage(), e);
        }
    }

    /**
     * Matches the launch log to the configured libraries; while launched kernels remain unmatched, scans the
     * libraries the library log names outside the configured inputs and keeps (in {@code attributed}) those that hold
     * one of them.
     */
    private static LaunchedRun matchLaunched(Launch launch, List<DeviceCodeProbe> configured,
            List<LibraryScan> attributed, LazyEngine engine, CheckListener listener, List<String> warnings)
            throws CheckException {
        LaunchMatch match = LaunchMatcher.match(launch.log().kernels(), attributed, launch.libraryLog());
        List<Path> added = new ArrayList<>();
        List<Path> notHere = new ArrayList<>();
        if (!match.unmatched().isEmpty() && launch.libraryLog() != null) {
            Set<Path> known = new HashSet<>();
            configured.forEach(probe -> known.add(realPath(probe.file())));
            Set<String> missing = new HashSet<>();
            match.unmatched().forEach(kernel -> missing.add(kernel.name()));
            List<DeviceCodeProbe> candidates = new ArrayList<>();
            for (Path library : launch.libraryLog().libraries()) {
                String fileName = library.getFileName() == null ? "" : library.getFileName().toString();
                if (RECORDER_LIBRARY_PREFIXES.stream().anyMatch(fileName::startsWith)) {
                    continue;
                }
                if (!Files.isRegularFile(library)) {
                    notHere.add(library);
                    continue;
                }
                if (!known.add(realPath(library))) {
                    continue;
                }
                try {
                    DeviceCodeProbe probe = DeviceCodeDetector.probe(library);
                    if (probe.hasDeviceCode()) {
                        candidates.add(probe);
                    }
                } catch (IOException e) {
                    warn(listener, warnings, "cannot read " + library + " (named in the library log "
                            + launch.libraryLog().file() + "): " + e.getMessage() + "; its kernels are not counted");
                }
            }
            if (!candidates.isEmpty()) {
                listener.info(match.unmatched().size() + " launched kernel(s) are in no configured library: scanning "
                        + candidates.size() + " librar" + (candidates.size() == 1 ? "y" : "ies")
                        + " with device code named in the library log " + launch.libraryLog().file());
            }
            for (DeviceCodeProbe candidate : candidates) {
                List<LibraryScan> scans;
                try {
                    scans = scan(engine, List.of(candidate), 1, listener);
                } catch (CheckException e) {
                    warn(listener, warnings, "cannot read " + candidate.file() + " (found through the library log "
                            + launch.libraryLog().file() + "): " + e.getMessage() + "; its kernels are not counted");
                    continue;
                }
                for (LibraryScan scan : scans) {
                    if (scan.records().stream().anyMatch(record -> missing.contains(record.name()))) {
                        attributed.add(scan.withUsedBy(FOUND_THROUGH_LIBRARY_LOG + " " + launch.libraryLog().file()));
                        added.add(scan.path());
                    } else {
                        listener.info("  " + scan.path().getFileName() + " (library log) holds none of the unmatched "
                                + "launched kernels: not counted");
                    }
                }
            }
            if (!added.isEmpty()) {
                match = LaunchMatcher.match(launch.log().kernels(), attributed, launch.libraryLog());
            }
        }
        return new LaunchedRun(launch.log(), launch.libraryLog(), match, added, notHere);
    }

    /** The "used by" of a library found through the library log. */
    public static final String FOUND_THROUGH_LIBRARY_LOG = "found through the library log";

    private static void reportLaunchWarnings(LaunchedRun launched, CheckListener listener, List<String> warnings,
            Map<String, String> displayNames) {
        LaunchLog log = launched.log();
        LaunchMatch match = launched.match();
        listener.info("Launch log " + log.file() + ": " + launched.kernelCount() + " launched kernel(s), "
                + match.matched().size() + " matched, " + match.unmatched().size() + " in no scanned library"
                + (launched.scannedFromLibraryLog().isEmpty() ? ""
                        : "; " + launched.scannedFromLibraryLog().size() + " librar"
                                + (launched.scannedFromLibraryLog().size() == 1 ? "y" : "ies")
                                + " found through the library log"));
        if (!launched.libraryLogNotHere().isEmpty()) {
            listener.info(launched.libraryLogNotHere().size() + " librar"
                    + (launched.libraryLogNotHere().size() == 1 ? "y" : "ies") + " named in the library log do not "
                    + "exist on this machine (the run happened elsewhere?), e.g. " + launched.libraryLogNotHere().get(0));
        }
        if (!match.unmatched().isEmpty()) {
            LaunchedKernel first = match.unmatched().get(0);
            warn(listener, warnings, match.unmatched().size() + " launched kernel(s) are in no scanned library, so "
                    + "their frames are not counted, e.g. " + displayNames.getOrDefault(first.name(), first.name())
                    + (first.attributions().isEmpty() ? "" : " (launched under " + first.attributions().first() + ")")
                    + ": add the library that holds them to the checked libraries"
                    + (launched.libraryLog() == null ? ", or keep the library log next to the launch log" : ""));
        }
        if (log.format() != LaunchLog.Format.EMPTY && match.matched().isEmpty()) {
            warn(listener, warnings, log.kernels().isEmpty()
                    ? "launch log " + log.file() + " lists no launched kernel: the launched reservation is 0 B"
                    : "launch log " + log.file() + " matches no kernel of the scanned libraries: the launched "
                            + "reservation is 0 B");
        }
    }

    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    /** Creates the engine on first use, once. */
    private static final class LazyEngine {
        private final EngineProvider provider;
        private KernelEngine engine;

        LazyEngine(EngineProvider provider) {
            this.provider = provider;
        }

        KernelEngine get() throws EngineException {
            if (engine == null) {
                engine = provider.get();
            }
            return engine;
        }

        boolean created() {
            return engine != null;
        }

        KernelEngine current() {
            return engine;
        }
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

    /** The result when no scanned input holds device code. */
    private static CheckResult noDeviceCode(Request request, int filesProbed, List<String> warnings) {
        return new CheckResult(filesProbed, List.of(), KernelIndex.of(List.of()), Map.of(), List.of(),
                request.defaultDevices(), request.deviceOrigin(), warnings, "none (no device code)", 0);
    }

    /** JAR entries minus those whose bytes equal a file scanned anyway (a build-output library the JAR packages). */
    private static List<JarEntryLibrary> withoutScannedFiles(List<JarEntryLibrary> entries, List<DeviceCodeProbe> files,
            CheckListener listener) throws CheckException {
        List<JarEntryLibrary> kept = new ArrayList<>();
        for (JarEntryLibrary entry : entries) {
            Path same = null;
            for (DeviceCodeProbe file : files) {
                try {
                    if (entry.sameBytesAs(file.file())) {
                        same = file.file();
                        break;
                    }
                } catch (java.io.IOException e) {
                    throw new CheckException("library '" + file.file() + "' cannot be read: " + e.getMessage(), e);
                }
            }
            if (same == null) {
                kept.add(entry);
            } else {
                listener.info("  " + entry.label() + ": the same bytes as " + same + ", which is scanned as a file");
            }
        }
        return kept;
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
