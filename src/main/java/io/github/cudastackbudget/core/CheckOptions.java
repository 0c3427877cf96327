package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarScanOptions;
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
 */
public record CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
        String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
        boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
        boolean verbose, Map<String, String> environment, JarScanOptions jarScan) {

    /** Options without JAR scanning. */
    public CheckOptions(List<FileSetSpec> fileSets, List<Path> libraryFiles, String usedBy, String engine,
            String cuobjdump, Duration timeout, int parallelism, List<DeviceDefinition> devices, String devicePresets,
            boolean detectLocalDevices, String maxReservation, String maxStackPerThread, Path outputDirectory, int top,
            boolean verbose, Map<String, String> environment) {
        this(fileSets, libraryFiles, usedBy, engine, cuobjdump, timeout, parallelism, devices, devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory, top, verbose, environment,
                JarScanOptions.NONE);
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
    }
}
