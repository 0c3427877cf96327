package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.arch.InvalidValueException;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.device.DeviceResolver;
import io.github.cudastackbudget.core.device.GpuCatalog;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.model.FileSet;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;

/**
 * The scan parameters that the {@code check} and {@code report} goals share, as the POM gives them, and their one
 * translation into the core's {@link CheckOptions}. Each goal declares the parameters itself (Maven injects fields of
 * the mojo class, and the two goals have different base classes) and hands them over here.
 *
 * @param libraries          file sets to scan; null or empty = the build directory with the default includes
 * @param libraryFiles       files named one by one, or null
 * @param cuobjdump          the cuobjdump executable, or null to look for it
 * @param engine             {@code auto}, {@code cuobjdump} or {@code native}
 * @param devices            explicit devices, or null
 * @param devicePresets      comma-separated catalog ids, or null
 * @param detectLocalDevices with no devices configured, try nvidia-smi first
 * @param maxReservation     the default budget, or null
 * @param maxStackPerThread  the per-kernel frame limit, or null
 * @param outputDirectory    where the reports (JSON, text) are written
 * @param top                rows in the per-kernel listing (0 = all)
 * @param verbose            per-kernel and per-library listing in the log
 * @param timeoutSeconds     time limit of cuobjdump on one file
 * @param parallelism        files read at once (0 = processors, at most 8)
 * @param jars               which JARs are looked into for native libraries
 */
record CheckParameters(List<FileSet> libraries, List<File> libraryFiles, String cuobjdump, String engine,
        List<Device> devices, String devicePresets, boolean detectLocalDevices, String maxReservation,
        String maxStackPerThread, File outputDirectory, int top, boolean verbose, int timeoutSeconds,
        int parallelism, JarScanParameters jars) {

    /** The file sets to scan, relative directories resolved against the project's base directory. */
    List<FileSetSpec> fileSets(MavenProject project) {
        Path buildDirectory = Path.of(project.getBuild().getDirectory());
        List<FileSetSpec> fileSets = new ArrayList<>();
        if (libraries == null || libraries.isEmpty()) {
            fileSets.add(new FileSetSpec(buildDirectory, FileSetSpec.DEFAULT_INCLUDES, List.of()));
        } else {
            for (FileSet fileSet : libraries) {
                String directory = fileSet.getDirectory();
                Path base = directory == null ? buildDirectory : project.getBasedir().toPath().resolve(directory);
                fileSets.add(new FileSetSpec(base, fileSet.getIncludes(), fileSet.getExcludes()));
            }
        }
        return fileSets;
    }

    /** The files named one by one. */
    List<Path> explicitFiles() {
        return libraryFiles == null ? List.of() : libraryFiles.stream().map(File::toPath).toList();
    }

    /**
     * @throws MojoExecutionException a parameter the core does not validate is out of range
     */
    CheckOptions toOptions(MavenProject project) throws MojoExecutionException {
        return toOptions(project, line -> { });
    }

    /**
     * @param log receives informational lines (e.g. the project's JAR is not built yet)
     * @throws MojoExecutionException a parameter the core does not validate is out of range
     */
    CheckOptions toOptions(MavenProject project, java.util.function.Consumer<String> log) throws MojoExecutionException {
        checkTimeout();
        int threads = parallelism > 0 ? parallelism : Math.min(8, Runtime.getRuntime().availableProcessors());
        return new CheckOptions(fileSets(project), explicitFiles(),
                project.getGroupId() + ":" + project.getArtifactId() + ":" + project.getVersion(), engine, cuobjdump,
                Duration.ofSeconds(timeoutSeconds), threads,
                devices == null ? List.of() : devices.stream().map(Device::toDefinition).toList(), devicePresets,
                detectLocalDevices, maxReservation, maxStackPerThread, outputDirectory.toPath(), top, verbose,
                System.getenv(), jars == null ? JarScanOptions.NONE : jars.toOptions(project, log));
    }

    /**
     * Checks what the core would reject (sizes, devices and presets, engine, timeout) without scanning, with the
     * core's messages: for the report goal, which may render an existing JSON without running the core.
     *
     * @throws MojoExecutionException one line naming the parameter
     */
    void validate() throws MojoExecutionException {
        checkTimeout();
        try {
            if (maxReservation != null && !maxReservation.isBlank()) {
                SizeLimit.parse(maxReservation, "maxReservation");
            }
            if (maxStackPerThread != null && !maxStackPerThread.isBlank()) {
                ByteSize.parse(maxStackPerThread, "maxStackPerThread");
            }
            new DeviceResolver(GpuCatalog.bundled()).resolve(
                    devices == null ? List.of() : devices.stream().map(Device::toDefinition).toList(), devicePresets);
        } catch (InvalidValueException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        String engineId = engine == null || engine.isBlank() ? "auto" : engine.strip().toLowerCase(Locale.ROOT);
        if (!List.of("auto", "cuobjdump", "native").contains(engineId)) {
            throw new MojoExecutionException("engine '" + engine + "' is unknown: use auto, cuobjdump or native");
        }
    }

    private void checkTimeout() throws MojoExecutionException {
        if (timeoutSeconds < 1) {
            throw new MojoExecutionException("timeout " + timeoutSeconds + " must be at least 1 second "
                    + "(cudaStackBudget.timeout)");
        }
    }
}
