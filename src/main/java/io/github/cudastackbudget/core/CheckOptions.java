package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.baseline.BaselineOptions;
import io.github.cudastackbudget.core.cache.KernelCache;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.gate.GateOptions;
import io.github.cudastackbudget.core.report.OutputOptions;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The check's settings as the user wrote them (strings where the user writes sizes or ids), shared by the Maven goal
 * and the command line; {@link CheckRunner} validates them.
 *
 * @param fileSets           what to scan by pattern
 * @param libraryFiles       files named one by one
 * @param usedBy             who ships the files (the Maven artifact), for the "used by" listing
 * @param engine             {@code auto}, {@code cuobjdump} or {@code native}
 * @param cuobjdump          the cuobjdump executable, or null to look for it
 * @param timeout            per-file time limit of the external tool
 * @param parallelism        files read at once
 * @param devices            explicit devices
 * @param devicePresets      comma-separated catalog ids, or null
 * @param detectLocalDevices with no devices configured, try nvidia-smi before the default set
 * @param maxReservation     the default budget (size or percentage), or null
 * @param maxStackPerThread  the per-kernel frame limit (size), or null
 * @param outputDirectory    where reports go
 * @param top                rows in the per-kernel listing (0 = all)
 * @param verbose            per-kernel and per-library listing
 * @param environment        the process environment (PATH, CUDA_HOME, ...)
 * @param jarScan            JAR files whose native-library entries are read in place
 * @param launchLog          the kernel launch log of a recorded run (launched mode), or null for the static check
 * @param libraryLog         the library log of that run, or null for {@code <launchLog>.libraries} (used when it
 *                           exists)
 * @param frontend           how the front end spells the options in messages ({@link Frontend#PARAMETERS} if null)
 * @param failOnUnreadable   true (the default): device code that cannot be read (a file with ELF, ar or fatbin
 *                           structure the readers refuse, or fatbin magic where no reader finds it) fails the check
 *                           with one line naming the file, the offset and the problem; false: a warning, and the
 *                           report lists the file as unreadable
 * @param platforms          the platforms whose libraries are judged against the budgets, comma-separated
 *                           ({@code linux-x86_64}, {@code windows}; see {@code core.model.PlatformSelection}), or null
 *                           or blank for every platform; libraries of other platforms are read and reported as not
 *                           gated
 * @param cacheDirectory     the kernel cache's directory, or null for the user's default
 *                           ({@code ${XDG_CACHE_HOME:-~/.cache}/cuda-stack-budget}, on Windows
 *                           {@code %LOCALAPPDATA%\cuda-stack-budget\cache}; see {@code core.cache.KernelCache})
 * @param useCache           true (the default): reads are served from and stored in the kernel cache; false: every
 *                           library is read
 * @param jitFrames          {@code off} (the default, also for null) or {@code ptxas}: the frames of functions a
 *                           device would JIT-compile from PTX are computed with ptxas
 * @param ptxas              the ptxas executable, or null to look for it (PATH, {@code $CUDA_HOME/bin}, ...)
 * @param driverCudaVersion  the CUDA version of the target driver ({@code 12.8}), or null: a ptxas of another
 *                           release gets a warning
 * @param output             which report files are written and how they name paths
 * @param gate               suppressions and rules
 * @param baseline           the comparison with a previous report
 */
public record CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
        String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
        boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
        boolean verbose, Map<String, String> environment, JarScanOptions jarScan, Path launchLog, Path libraryLog,
        Frontend frontend, boolean failOnUnreadable, String platforms, Path cacheDirectory, boolean useCache,
        String jitFrames, String ptxas, String driverCudaVersion, OutputOptions output, GateOptions gate,
        BaselineOptions baseline) {

    /** Options with the default outputs, no suppressions, rules or baseline. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, JarScanOptions jarScan, Path launchLog, Path libraryLog,
            Frontend frontend, boolean failOnUnreadable, String platforms, Path cacheDirectory, boolean useCache,
            String jitFrames, String ptxas, String driverCudaVersion) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                jarScan, launchLog, libraryLog, frontend, failOnUnreadable, platforms, cacheDirectory, useCache,
                jitFrames, ptxas, driverCudaVersion, null, null, null);
    }

    /** Options that compute no JIT frames. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, JarScanOptions jarScan, Path launchLog, Path libraryLog,
            Frontend frontend, boolean failOnUnreadable, String platforms, Path cacheDirectory, boolean useCache) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                jarScan, launchLog, libraryLog, frontend, failOnUnreadable, platforms, cacheDirectory, useCache, null,
                null, null);
    }

    /** Options with the kernel cache in its default directory. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, JarScanOptions jarScan, Path launchLog, Path libraryLog,
            Frontend frontend, boolean failOnUnreadable, String platforms) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                jarScan, launchLog, libraryLog, frontend, failOnUnreadable, platforms, null, true);
    }

    /** Options that judge every platform's libraries. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, JarScanOptions jarScan, Path launchLog, Path libraryLog,
            Frontend frontend, boolean failOnUnreadable) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                jarScan, launchLog, libraryLog, frontend, failOnUnreadable, null);
    }

    /** Options that fail on unreadable device code. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, JarScanOptions jarScan, Path launchLog, Path libraryLog,
            Frontend frontend) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                jarScan, launchLog, libraryLog, frontend, true);
    }

    /** The suffix of the library log's default name: {@code <launchLog>.libraries}. */
    public static final String LIBRARY_LOG_SUFFIX = ".libraries";

    /** Options spelled with the parameter ids ({@link Frontend#PARAMETERS}). */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, JarScanOptions jarScan, Path launchLog, Path libraryLog) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                jarScan, launchLog, libraryLog, null);
    }

    /** A builder with the defaults of both front ends (engine auto, timeout 600 s, top 25, local GPU detection on). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        return new Builder().fileSets(fileSets).libraryFiles(libraryFiles).usedBy(usedBy).engine(engine)
                .cuobjdump(cuobjdump).timeout(timeout).parallelism(parallelism).devices(devices)
                .devicePresets(devicePresets).detectLocalDevices(detectLocalDevices).maxReservation(maxReservation)
                .maxStackPerThread(maxStackPerThread).outputDirectory(outputDirectory).top(top).verbose(verbose)
                .environment(environment).jarScan(jarScan).launchLog(launchLog).libraryLog(libraryLog)
                .frontend(frontend).failOnUnreadable(failOnUnreadable).platforms(platforms)
                .cacheDirectory(cacheDirectory).useCache(useCache).jitFrames(jitFrames).ptxas(ptxas)
                .driverCudaVersion(driverCudaVersion).output(output).gate(gate).baseline(baseline);
    }

    /** Builds {@link CheckOptions}; each setter is named after the record component it sets. */
    public static final class Builder {
        private List<FileSetSpec> fileSets = List.of();
        private List<Path> libraryFiles = List.of();
        private String usedBy = "";
        private String engine = "auto";
        private String cuobjdump;
        private Duration timeout = Duration.ofSeconds(600);
        private int parallelism = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
        private List<DeviceDefinition> devices = List.of();
        private String devicePresets;
        private boolean detectLocalDevices = true;
        private String maxReservation;
        private String maxStackPerThread;
        private Path outputDirectory;
        private int top = 25;
        private boolean verbose;
        private boolean failOnUnreadable = true;
        private String platforms;
        private Map<String, String> environment = Map.of();
        private JarScanOptions jarScan = JarScanOptions.NONE;
        private Path launchLog;
        private Path libraryLog;
        private Frontend frontend = Frontend.PARAMETERS;
        private Path cacheDirectory;
        private boolean useCache = true;
        private String jitFrames;
        private String ptxas;
        private String driverCudaVersion;
        private OutputOptions output = OutputOptions.DEFAULT;
        private GateOptions gate = GateOptions.NONE;
        private BaselineOptions baseline = BaselineOptions.NONE;

        private Builder() {
        }

        public Builder output(OutputOptions value) {
            output = value;
            return this;
        }

        public Builder gate(GateOptions value) {
            gate = value;
            return this;
        }

        public Builder baseline(BaselineOptions value) {
            baseline = value;
            return this;
        }

        public Builder jitFrames(String value) {
            jitFrames = value;
            return this;
        }

        public Builder ptxas(String value) {
            ptxas = value;
            return this;
        }

        public Builder driverCudaVersion(String value) {
            driverCudaVersion = value;
            return this;
        }

        public Builder fileSets(List<FileSetSpec> value) {
            fileSets = value;
            return this;
        }

        public Builder libraryFiles(List<Path> value) {
            libraryFiles = value;
            return this;
        }

        public Builder usedBy(String value) {
            usedBy = value;
            return this;
        }

        public Builder engine(String value) {
            engine = value;
            return this;
        }

        public Builder cuobjdump(String value) {
            cuobjdump = value;
            return this;
        }

        public Builder timeout(Duration value) {
            timeout = value;
            return this;
        }

        public Builder parallelism(int value) {
            parallelism = value;
            return this;
        }

        public Builder devices(List<DeviceDefinition> value) {
            devices = value;
            return this;
        }

        public Builder devicePresets(String value) {
            devicePresets = value;
            return this;
        }

        public Builder detectLocalDevices(boolean value) {
            detectLocalDevices = value;
            return this;
        }

        public Builder maxReservation(String value) {
            maxReservation = value;
            return this;
        }

        public Builder maxStackPerThread(String value) {
            maxStackPerThread = value;
            return this;
        }

        public Builder outputDirectory(Path value) {
            outputDirectory = value;
            return this;
        }

        public Builder top(int value) {
            top = value;
            return this;
        }

        public Builder verbose(boolean value) {
            verbose = value;
            return this;
        }

        public Builder environment(Map<String, String> value) {
            environment = value;
            return this;
        }

        public Builder jarScan(JarScanOptions value) {
            jarScan = value;
            return this;
        }

        public Builder launchLog(Path value) {
            launchLog = value;
            return this;
        }

        public Builder libraryLog(Path value) {
            libraryLog = value;
            return this;
        }

        public Builder frontend(Frontend value) {
            frontend = value;
            return this;
        }

        public Builder failOnUnreadable(boolean value) {
            failOnUnreadable = value;
            return this;
        }

        public Builder platforms(String value) {
            platforms = value;
            return this;
        }

        public Builder cacheDirectory(Path value) {
            cacheDirectory = value;
            return this;
        }

        public Builder useCache(boolean value) {
            useCache = value;
            return this;
        }

        public CheckOptions build() {
            return new CheckOptions(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices,
                    devicePresets, detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose,
                    environment, jarScan, launchLog, libraryLog, frontend, failOnUnreadable, platforms, cacheDirectory,
                    useCache, jitFrames, ptxas, driverCudaVersion, output, gate, baseline);
        }
    }

    /** Options of the static check without JAR scanning. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                JarScanOptions.NONE, null, null);
    }

    /** Options of the static check. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, JarScanOptions jarScan) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                jarScan, null, null);
    }

    /** Options without JAR scanning, with a launch log (launched mode; null for the static check). */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment, Path launchLog, Path libraryLog) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                JarScanOptions.NONE, launchLog, libraryLog);
    }

    /** The same options with a launch log and (null for the default) a library log. */
    public CheckOptions withLaunchLog(Path newLaunchLog, Path newLibraryLog) {
        return new CheckOptions(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices,
                devicePresets, detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose,
                environment, jarScan, newLaunchLog, newLibraryLog, frontend, failOnUnreadable, platforms, cacheDirectory,
                useCache, jitFrames, ptxas, driverCudaVersion);
    }

    /** The kernel cache's directory, or null when the cache is off: the configured one, else the user's default. */
    public Path effectiveCacheDirectory() {
        if (!useCache) {
            return null;
        }
        return cacheDirectory != null ? cacheDirectory : KernelCache.defaultDirectory();
    }

    /** The library log to read: the configured one, else {@code <launchLog>.libraries}; null without a launch log. */
    public Path effectiveLibraryLog() {
        if (libraryLog != null) {
            return libraryLog;
        }
        return launchLog == null ? null : launchLog.resolveSibling(launchLog.getFileName() + LIBRARY_LOG_SUFFIX);
    }

    public CheckOptions {
        jarScan = jarScan == null ? JarScanOptions.NONE : jarScan;
        fileSets = List.copyOf(fileSets);
        libraryFiles = List.copyOf(libraryFiles);
        devices = List.copyOf(devices);
        Objects.requireNonNull(outputDirectory, "outputDirectory");
        Objects.requireNonNull(timeout, "timeout");
        environment = Map.copyOf(environment);
        engine = engine == null || engine.isBlank() ? "auto" : engine.strip();
        usedBy = usedBy == null ? "" : usedBy;
        frontend = frontend == null ? Frontend.PARAMETERS : frontend;
        output = output == null ? OutputOptions.DEFAULT : output;
        gate = gate == null ? GateOptions.NONE : gate;
        baseline = baseline == null ? BaselineOptions.NONE : baseline;
    }
}
