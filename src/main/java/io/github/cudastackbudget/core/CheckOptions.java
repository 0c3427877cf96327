package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.scan.FileSetSpec;
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
 * @param launchLog          the kernel launch log of a recorded run (launched mode), or null for the static check
 * @param libraryLog         the library log of that run, or null for {@code <launchLog>.libraries} (used when it
 *                           exists)
 */
public record CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
        String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
        boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
        boolean verbose, Map<String, String> environment, Path launchLog, Path libraryLog) {

    /** The suffix of the library log's default name: {@code <launchLog>.libraries}. */
    public static final String LIBRARY_LOG_SUFFIX = ".libraries";

    /** Options of the static check (no launch log). */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment, null,
                null);
    }

    /** The same options with a launch log and (null for the default) a library log. */
    public CheckOptions withLaunchLog(Path newLaunchLog, Path newLibraryLog) {
        return new CheckOptions(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices,
                devicePresets, detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose,
                environment, newLaunchLog, newLibraryLog);
    }

    /** The library log to read: the configured one, else {@code <launchLog>.libraries}; null without a launch log. */
    public Path effectiveLibraryLog() {
        if (libraryLog != null) {
            return libraryLog;
        }
        return launchLog == null ? null : launchLog.resolveSibling(launchLog.getFileName() + LIBRARY_LOG_SUFFIX);
    }

    public CheckOptions {
        fileSets = List.copyOf(fileSets);
        libraryFiles = List.copyOf(libraryFiles);
        devices = List.copyOf(devices);
        Objects.requireNonNull(outputDirectory, "outputDirectory");
        Objects.requireNonNull(timeout, "timeout");
        environment = Map.copyOf(environment);
        engine = engine == null || engine.isBlank() ? "auto" : engine.strip();
        usedBy = usedBy == null ? "" : usedBy;
    }
}
