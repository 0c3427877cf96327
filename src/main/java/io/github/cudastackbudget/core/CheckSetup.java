package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.check.CheckRequest;
import io.github.cudastackbudget.core.check.EngineProvider;
import io.github.cudastackbudget.core.check.JitOptions;
import io.github.cudastackbudget.core.check.LaunchLogs;
import io.github.cudastackbudget.core.demangle.Demangler;
import io.github.cudastackbudget.core.device.DefaultDevices;
import io.github.cudastackbudget.core.device.DeviceOrigin;
import io.github.cudastackbudget.core.device.DeviceResolver;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.GpuCatalog;
import io.github.cudastackbudget.core.device.LocalGpuDetector;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.engine.AutoEngine;
import io.github.cudastackbudget.core.engine.CuobjdumpEngine;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.gate.Rules;
import io.github.cudastackbudget.core.gate.SuppressionFile;
import io.github.cudastackbudget.core.launch.LaunchLog;
import io.github.cudastackbudget.core.launch.LaunchLogException;
import io.github.cudastackbudget.core.launch.LaunchLogReader;
import io.github.cudastackbudget.core.launch.LibraryLog;
import io.github.cudastackbudget.core.model.PlatformSelection;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The check's first step: {@link CheckOptions} as the user wrote them, parsed and validated once into a
 * {@link CheckRequest} (sizes, devices or the default set, the engine, the launch logs). Problems are one-line
 * {@link CheckException}s that name the option as the front end spells it; what is only worth knowing (a local GPU the
 * catalog lacks, a malformed log line) is a warning.
 *
 * @param request  what to check
 * @param warnings the warnings found here, already sent to the listener; the result lists them first
 */
record CheckSetup(CheckRequest request, List<String> warnings) {

    CheckSetup {
        warnings = List.copyOf(warnings);
    }

    static CheckSetup of(CheckOptions options, CheckListener listener) throws CheckException {
        Frontend frontend = options.frontend();
        List<String> warnings = new ArrayList<>();
        GpuCatalog catalog = GpuCatalog.bundled();
        Limits limits = limits(options, catalog);
        List<DeviceTarget> devices = limits.devices();
        DeviceOrigin origin = DeviceOrigin.configured();
        if (devices.isEmpty()) {
            List<LocalGpuDetector.LocalGpu> local = options.detectLocalDevices()
                    ? LocalGpuDetector.detect(options.environment()) : List.of();
            List<String> found = new ArrayList<>();
            DefaultDevices.Choice choice = DefaultDevices.choose(catalog, local, found, frontend);
            devices = choice.devices();
            origin = choice.origin();
            warn(listener, warnings, found);
        }
        EngineProvider engine = engineProvider(options);
        PlatformSelection platforms = platforms(options);
        LaunchLogs launch = launchLogs(options, listener, warnings);
        return new CheckSetup(new CheckRequest(options.fileSets(), options.libraryFiles(), options.usedBy(), engine,
                options.parallelism(), devices, origin, limits.defaultBudget(), limits.maxStack(),
                Demangler.fromEnvironment(options.environment(), options.timeout()), options.jarScan(), launch,
                frontend, options.failOnUnreadable(), platforms, options.effectiveCacheDirectory(), jit(options),
                options.gate()),
                warnings);
    }

    /** The JIT-frame options: {@code jitFrames} off or ptxas; ptxas uses the tool timeout per module, on all cores. */
    private static JitOptions jit(CheckOptions options) throws CheckException {
        JitOptions.Mode mode;
        try {
            mode = JitOptions.Mode.parse(options.jitFrames(), options.frontend().name(Option.JIT_FRAMES));
        } catch (InvalidValueException e) {
            throw new CheckException(e.getMessage() + " (" + options.frontend().howToSet(Option.JIT_FRAMES, "ptxas")
                    + " or off)", e);
        }
        String driver = options.driverCudaVersion();
        if (driver != null && !driver.isBlank() && !driver.strip().matches("\\d+(\\.\\d+){0,2}")) {
            throw new CheckException(options.frontend().name(Option.DRIVER_CUDA_VERSION) + " '" + driver
                    + "' is not a CUDA version such as 12.8 or 13.0");
        }
        return new JitOptions(mode, options.ptxas(), driver, options.timeout(), options.environment(),
                Runtime.getRuntime().availableProcessors());
    }

    /**
     * Checks the options as {@link #of} does (sizes, devices and presets, parallelism, engine) without detecting GPUs,
     * reading logs or scanning.
     *
     * @throws CheckException the first invalid option, one line
     */
    static void validate(CheckOptions options) throws CheckException {
        limits(options, GpuCatalog.bundled());
        platforms(options);
        engineProvider(options);
        jit(options);
        gate(options);
    }

    // gate (issue 12): the rules and the suppressions file are the build's configuration: parsed here once to
    // validate them (core.check's GateStage parses them again for the check)
    private static void gate(CheckOptions options) throws CheckException {
        try {
            Rules.parse(options.gate().rules(), options.frontend().name(Option.RULES));
            if (options.gate().suppressions() != null) {
                SuppressionFile.read(options.gate().suppressions(), options.frontend().name(Option.SUPPRESSIONS));
            }
        } catch (InvalidValueException e) {
            throw new CheckException(e.getMessage(), e);
        }
    }

    private static PlatformSelection platforms(CheckOptions options) throws CheckException {
        try {
            return PlatformSelection.parse(options.platforms(), options.frontend().name(Option.PLATFORMS));
        } catch (InvalidValueException e) {
            throw new CheckException(e.getMessage(), e);
        }
    }

    /**
     * The budgets and the configured devices (empty: none configured).
     *
     * @param defaultBudget the budget of devices without their own, or null
     * @param maxStack      the per-kernel frame limit, or null
     * @param devices       the configured devices
     */
    private record Limits(SizeLimit defaultBudget, Long maxStack, List<DeviceTarget> devices) {
    }

    private static Limits limits(CheckOptions options, GpuCatalog catalog) throws CheckException {
        Frontend frontend = options.frontend();
        Limits limits;
        try {
            limits = new Limits(blank(options.maxReservation()) ? null
                    : SizeLimit.parse(options.maxReservation(), frontend.name(Option.MAX_RESERVATION)),
                    blank(options.maxStackPerThread()) ? null
                            : ByteSize.parse(options.maxStackPerThread(), frontend.name(Option.MAX_STACK_PER_THREAD)),
                    new DeviceResolver(catalog).resolve(options.devices(), options.devicePresets()));
        } catch (InvalidValueException e) {
            throw new CheckException(e.getMessage(), e);
        }
        if (options.parallelism() < 1) {
            throw new CheckException(frontend.name(Option.PARALLELISM) + " " + options.parallelism()
                    + " must be at least 1");
        }
        return limits;
    }

    /**
     * The launch log and its library log (launched mode); null without a launch log. Problems with the logs' content
     * are warnings; a missing or unreadable configured log is an error.
     */
    private static LaunchLogs launchLogs(CheckOptions options, CheckListener listener, List<String> warnings)
            throws CheckException {
        if (options.launchLog() == null) {
            return null;
        }
        Frontend frontend = options.frontend();
        try {
            LaunchLog log = LaunchLogReader.readLaunchLog(options.launchLog(), frontend);
            Path libraryLogFile = options.effectiveLibraryLog();
            LibraryLog libraryLog = null;
            List<String> found = new ArrayList<>(log.warnings());
            if (Files.exists(libraryLogFile)) {
                libraryLog = LaunchLogReader.readLibraryLog(libraryLogFile, frontend);
                found.addAll(libraryLog.warnings());
            } else {
                found.add("the library log " + libraryLogFile + " (" + (options.libraryLog() != null
                        ? frontend.name(Option.LIBRARY_LOG)
                        : "default: the launch log + " + CheckOptions.LIBRARY_LOG_SUFFIX) + ") does not exist: "
                        + "launched kernels of libraries outside the checked ones cannot be found");
            }
            warn(listener, warnings, found);
            return new LaunchLogs(log, libraryLog);
        } catch (LaunchLogException e) {
            throw new CheckException(e.getMessage(), e);
        }
    }

    private static EngineProvider engineProvider(CheckOptions options) throws CheckException {
        Frontend frontend = options.frontend();
        AutoEngine.FallbackProvider cuobjdump = () -> {
            Path executable;
            if (!blank(options.cuobjdump())) {
                executable = Path.of(options.cuobjdump());
            } else {
                executable = CuobjdumpEngine.locate(options.environment()).orElseThrow(() -> new EngineException(
                        "cuobjdump was not found (looked on PATH, $CUDA_HOME/bin, $CUDA_PATH/bin and "
                                + "/usr/local/cuda/bin), but the scanned files hold CUDA device code: install the "
                                + "CUDA toolkit or set " + frontend.howToSet(Option.CUOBJDUMP, "/path/to/cuobjdump")));
            }
            return CuobjdumpEngine.using(executable, options.timeout(), frontend,
                    options.outputDirectory().resolve(CuobjdumpEngine.TEMPORARY_FOLDER));
        };
        return switch (options.engine().toLowerCase(Locale.ROOT)) {
            case "cuobjdump" -> cuobjdump::get;
            // the native engine decodes on every processor (NativeEngine.decodeThreads); parallelism is files at once
            case "native" -> () -> new NativeEngine(NativeEngine.decodeThreads(), frontend);
            case "auto" -> () -> new AutoEngine(new NativeEngine(NativeEngine.decodeThreads(), frontend), cuobjdump);
            default -> throw new CheckException(frontend.name(Option.ENGINE) + " '" + options.engine()
                    + "' is unknown: use auto, cuobjdump or native");
        };
    }

    private static void warn(CheckListener listener, List<String> warnings, List<String> found) {
        found.forEach(listener::warn);
        warnings.addAll(found);
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
