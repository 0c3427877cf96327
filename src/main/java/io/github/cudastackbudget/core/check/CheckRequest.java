package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.demangle.Demangler;
import io.github.cudastackbudget.core.device.DeviceOrigin;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.gate.GateOptions;
import io.github.cudastackbudget.core.model.PlatformSelection;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What to check, every value parsed and validated (the front ends' options become one of these once, in
 * {@code CheckRunner}).
 *
 * @param fileSets              pattern-matched inputs
 * @param explicitFiles         inputs named one by one
 * @param usedBy                the owner of the inputs for the "used by" listing (a Maven artifact)
 * @param engine                creates the engine
 * @param parallelism           files read at once (at least 1)
 * @param devices               the devices and their own budgets
 * @param deviceOrigin          where the devices came from (configured, detected, the default set)
 * @param defaultMaxReservation the budget of devices without their own, or null
 * @param maxStackPerThread     the per-kernel frame limit in bytes, or null
 * @param demangler             names kernels for people
 * @param jarScan               JAR files whose native-library entries are read in place (native engine)
 * @param launch                the logs of a recorded run (launched mode), or null for the static check
 * @param frontend              how the messages spell the options
 * @param failOnUnreadable      device code that cannot be read fails the check (else a warning and a report entry)
 * @param platforms             the platforms whose libraries the devices are judged over (the others are reported
 *                              as not gated)
 * @param cacheDirectory        the kernel cache's directory, or null without a cache
 * @param jit                   whether and how the frames of functions a device JIT-compiles are computed (ptxas)
 * @param gate                  suppressions and rules
 */
public record CheckRequest(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
        int parallelism, List<DeviceTarget> devices, DeviceOrigin deviceOrigin, SizeLimit defaultMaxReservation,
        Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan, LaunchLogs launch, Frontend frontend,
        boolean failOnUnreadable, PlatformSelection platforms, Path cacheDirectory, JitOptions jit, GateOptions gate) {

    /** A request without suppressions or rules. */
    public CheckRequest(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, DeviceOrigin deviceOrigin, SizeLimit defaultMaxReservation,
            Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan, LaunchLogs launch, Frontend frontend,
            boolean failOnUnreadable, PlatformSelection platforms, Path cacheDirectory, JitOptions jit) {
        this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, deviceOrigin, defaultMaxReservation,
                maxStackPerThread, demangler, jarScan, launch, frontend, failOnUnreadable, platforms, cacheDirectory,
                jit, null);
    }

    /** A request that computes no JIT frames. */
    public CheckRequest(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, DeviceOrigin deviceOrigin, SizeLimit defaultMaxReservation,
            Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan, LaunchLogs launch, Frontend frontend,
            boolean failOnUnreadable, PlatformSelection platforms, Path cacheDirectory) {
        this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, deviceOrigin, defaultMaxReservation,
                maxStackPerThread, demangler, jarScan, launch, frontend, failOnUnreadable, platforms, cacheDirectory,
                JitOptions.OFF);
    }

    /** A request without a kernel cache. */
    public CheckRequest(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, DeviceOrigin deviceOrigin, SizeLimit defaultMaxReservation,
            Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan, LaunchLogs launch, Frontend frontend,
            boolean failOnUnreadable, PlatformSelection platforms) {
        this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, deviceOrigin, defaultMaxReservation,
                maxStackPerThread, demangler, jarScan, launch, frontend, failOnUnreadable, platforms, null);
    }

    /** A request that judges every platform's libraries. */
    public CheckRequest(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, DeviceOrigin deviceOrigin, SizeLimit defaultMaxReservation,
            Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan, LaunchLogs launch, Frontend frontend,
            boolean failOnUnreadable) {
        this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, deviceOrigin, defaultMaxReservation,
                maxStackPerThread, demangler, jarScan, launch, frontend, failOnUnreadable, PlatformSelection.ALL);
    }

    /** A request that fails on unreadable device code. */
    public CheckRequest(List<FileSetSpec> fileSets, List<Path> explicitFiles, String usedBy, EngineProvider engine,
            int parallelism, List<DeviceTarget> devices, DeviceOrigin deviceOrigin, SizeLimit defaultMaxReservation,
            Long maxStackPerThread, Demangler demangler, JarScanOptions jarScan, LaunchLogs launch, Frontend frontend) {
        this(fileSets, explicitFiles, usedBy, engine, parallelism, devices, deviceOrigin, defaultMaxReservation,
                maxStackPerThread, demangler, jarScan, launch, frontend, true);
    }

    public CheckRequest {
        fileSets = List.copyOf(fileSets);
        explicitFiles = List.copyOf(explicitFiles);
        usedBy = usedBy == null ? "" : usedBy;
        devices = List.copyOf(devices);
        jarScan = jarScan == null ? JarScanOptions.NONE : jarScan;
        deviceOrigin = deviceOrigin == null ? DeviceOrigin.configured() : deviceOrigin;
        frontend = frontend == null ? Frontend.PARAMETERS : frontend;
        platforms = platforms == null ? PlatformSelection.ALL : platforms;
        jit = jit == null ? JitOptions.OFF : jit;
        gate = gate == null ? GateOptions.NONE : gate;
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(demangler, "demangler");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism " + parallelism + " must be at least 1");
        }
    }
}
