package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.model.FileSet;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;

/**
 * The one bridge from the goals to the core (as JaCoCo's {@code ReportSupport}): turns the scan parameters that
 * {@code check} and {@code report} share, as the POM gives them, into {@link CheckOptions}. The core validates them
 * ({@code CheckRunner}); this class checks only what is Maven's own (the dependency scopes) or what the core cannot
 * see (a timeout in whole seconds).
 *
 * <p>The defaults that both goals declare are the constants below, so that they are written once.
 */
final class MavenScanSupport {

    static final String DEFAULT_ENGINE = "auto";
    static final String DEFAULT_SCAN_PROJECT_JAR = "true";
    static final String DEFAULT_SCAN_DEPENDENCIES = "false";
    static final String DEFAULT_DEPENDENCY_SCOPES = "compile,runtime";
    static final String DEFAULT_DETECT_LOCAL_DEVICES = "true";
    static final String DEFAULT_FAIL_ON_UNREADABLE = "true";
    static final String DEFAULT_TOP = "25";
    static final String DEFAULT_TIMEOUT = "600";
    /** 0: as many files at once as processors, at most 8 (the core's default). */
    static final String DEFAULT_PARALLELISM = "0";
    /** The kernel cache is on by default (in the user's cache directory). */
    static final String DEFAULT_USE_CACHE = "true";
    /** JIT frames are not computed by default (see the JIT frames page for why). */
    static final String DEFAULT_JIT_FRAMES = "off";

    private static final Set<String> SCOPES = Set.of(Artifact.SCOPE_COMPILE, Artifact.SCOPE_RUNTIME,
            Artifact.SCOPE_PROVIDED, Artifact.SCOPE_SYSTEM, Artifact.SCOPE_TEST);

    /**
     * The parameters {@code check} and {@code report} share, as the POM gives them (each goal declares them itself:
     * Maven injects fields of the mojo class, and the two goals have different base classes; a test over
     * {@code plugin.xml} keeps the declarations equal).
     *
     * @param libraries          file sets to scan; null or empty = the build directory with the default includes
     * @param libraryFiles       files named one by one, or null
     * @param cuobjdump          the cuobjdump executable, or null to look for it
     * @param engine             {@code auto}, {@code cuobjdump} or {@code native}
     * @param scanProjectJar     look into the project's own JAR, when it has been built
     * @param scanDependencies   look into the dependency JARs of {@code dependencyScopes}
     * @param dependencyScopes   comma-separated Maven scopes
     * @param jarIncludes        JAR entry patterns, or null for the default library patterns
     * @param jarExcludes        JAR entry patterns to leave out, or null
     * @param devices            explicit devices, or null
     * @param devicePresets      comma-separated catalog ids, or null
     * @param detectLocalDevices with no devices configured, try nvidia-smi first
     * @param maxReservation     the default budget, or null
     * @param maxStackPerThread  the per-kernel frame limit, or null
     * @param launchLog          the kernel launch log (launched mode), relative to the base directory; blank = static
     * @param libraryLog         its library log, or blank for {@code <launchLog>.libraries}
     * @param timeout            time limit of cuobjdump on one file, in seconds
     * @param parallelism        files read at once (0 = the core's default)
     * @param top                rows in the per-kernel listing (0 = all)
     * @param failOnUnreadable   device code that cannot be read fails the build (false: a warning)
     * @param platforms          the platforms whose libraries are judged, comma-separated; null or blank: all
     */
    record Parameters(List<FileSet> libraries, List<File> libraryFiles, String cuobjdump, String engine,
            boolean scanProjectJar, boolean scanDependencies, String dependencyScopes, List<String> jarIncludes,
            List<String> jarExcludes, List<Device> devices, String devicePresets, boolean detectLocalDevices,
            String maxReservation, String maxStackPerThread, String launchLog, String libraryLog, int timeout,
            int parallelism, int top, boolean failOnUnreadable, String platforms) {
    }

    private final MavenProject project;
    private final Consumer<String> info;

    /**
     * @param project the project whose files, JARs and coordinates are scanned
     * @param info    receives informational lines (the project's JAR is not built yet)
     */
    MavenScanSupport(MavenProject project, Consumer<String> info) {
        this.project = project;
        this.info = info;
    }

    /**
     * The core's options for these parameters, with Maven's words for messages ({@link MavenFrontend}).
     *
     * @throws MojoExecutionException one line naming the parameter: an unknown dependency scope, a timeout below one
     *                                second
     */
    CheckOptions options(Parameters parameters, File cacheDirectory, boolean useCache, Path outputDirectory,
            boolean verbose) throws MojoExecutionException {
        return options(parameters, outputDirectory, verbose).toBuilder()
                .cacheDirectory(cacheDirectory == null ? null : cacheDirectory.toPath()).useCache(useCache).build();
    }

    /** The core's options for these parameters, the kernel cache in its default directory. */
    CheckOptions options(Parameters parameters, Path outputDirectory, boolean verbose) throws MojoExecutionException {
        if (parameters.timeout() < 1) {
            throw new MojoExecutionException("timeout " + parameters.timeout() + " must be at least 1 second ("
                    + PropertyNames.TIMEOUT + ")");
        }
        CheckOptions.Builder options = CheckOptions.builder()
                .fileSets(fileSets(parameters.libraries()))
                .libraryFiles(parameters.libraryFiles() == null ? List.of()
                        : parameters.libraryFiles().stream().map(File::toPath).toList())
                .usedBy(project.getGroupId() + ":" + project.getArtifactId() + ":" + project.getVersion())
                .engine(parameters.engine())
                .cuobjdump(parameters.cuobjdump())
                .timeout(Duration.ofSeconds(parameters.timeout()))
                .devices(parameters.devices() == null ? List.of()
                        : parameters.devices().stream().map(Device::toDefinition).toList())
                .devicePresets(parameters.devicePresets())
                .detectLocalDevices(parameters.detectLocalDevices())
                .maxReservation(parameters.maxReservation())
                .maxStackPerThread(parameters.maxStackPerThread())
                .jarScan(jarScan(parameters))
                .launchLog(resolve(project, parameters.launchLog()))
                .libraryLog(resolve(project, parameters.libraryLog()))
                .outputDirectory(outputDirectory)
                .top(parameters.top())
                .verbose(verbose)
                .environment(System.getenv())
                .frontend(MavenFrontend.INSTANCE)
                .failOnUnreadable(parameters.failOnUnreadable())
                .platforms(parameters.platforms());
        if (parameters.parallelism() > 0) {
            options.parallelism(parameters.parallelism());
        }
        return options.build();
    }

    /** The file sets to scan, relative directories resolved against the project's base directory. */
    private List<FileSetSpec> fileSets(List<FileSet> libraries) {
        return fileSets(project, libraries, "");
    }

    /**
     * The file sets of {@code module}: its build directory with the default includes when {@code libraries} is null or
     * empty, else {@code libraries} with relative directories resolved against its base directory.
     *
     * @param usedBy the owner of the matched files (aggregate: the module's coordinates), or empty for the check's own
     */
    static List<FileSetSpec> fileSets(MavenProject module, List<FileSet> libraries, String usedBy) {
        Path buildDirectory = Path.of(module.getBuild().getDirectory());
        if (libraries == null || libraries.isEmpty()) {
            return List.of(new FileSetSpec(buildDirectory, FileSetSpec.DEFAULT_INCLUDES, List.of(), usedBy));
        }
        List<FileSetSpec> fileSets = new ArrayList<>();
        for (FileSet fileSet : libraries) {
            String directory = fileSet.getDirectory();
            Path base = directory == null ? buildDirectory : module.getBasedir().toPath().resolve(directory);
            fileSets.add(new FileSetSpec(base, fileSet.getIncludes(), fileSet.getExcludes(), usedBy));
        }
        return fileSets;
    }

    /**
     * The JARs to scan: the project's artifact file (a .jar or .zip that exists), then the resolved dependencies of
     * the chosen scopes, in the project's dependency order, each attributed to its coordinates.
     */
    JarScanOptions jarScan(Parameters parameters) throws MojoExecutionException {
        List<JarInput> jars = new ArrayList<>();
        if (parameters.scanProjectJar()) {
            File file = project.getArtifact() == null ? null : project.getArtifact().getFile();
            if (file != null && file.isFile() && isArchive(file)) {
                jars.add(new JarInput(file.toPath(), coordinates(project.getArtifact())));
            } else if ("jar".equals(project.getPackaging())) {
                info.accept("The project's JAR is not built yet (run the check after 'package' to scan the native "
                        + "libraries packaged in it)");
            }
        }
        if (parameters.scanDependencies()) {
            Set<String> scopes = scopes(parameters.dependencyScopes());
            for (Artifact artifact : project.getArtifacts()) {
                File file = artifact.getFile();
                if (scopes.contains(artifact.getScope()) && file != null && file.isFile() && isArchive(file)) {
                    jars.add(new JarInput(file.toPath(), coordinates(artifact)));
                }
            }
        }
        return new JarScanOptions(jars, parameters.jarIncludes() == null ? List.of() : parameters.jarIncludes(),
                parameters.jarExcludes() == null ? List.of() : parameters.jarExcludes());
    }

    private static Set<String> scopes(String dependencyScopes) throws MojoExecutionException {
        Set<String> scopes = new LinkedHashSet<>();
        String value = dependencyScopes == null || dependencyScopes.isBlank() ? DEFAULT_DEPENDENCY_SCOPES
                : dependencyScopes;
        for (String scope : value.split(",")) {
            String name = scope.strip().toLowerCase(Locale.ROOT);
            if (!SCOPES.contains(name)) {
                throw new MojoExecutionException("dependencyScopes '" + dependencyScopes + "' names the unknown scope '"
                        + scope.strip() + "': use a comma-separated list of compile, runtime, provided, system, test "
                        + "(" + PropertyNames.DEPENDENCY_SCOPES + ")");
            }
            scopes.add(name);
        }
        return scopes;
    }

    private static boolean isArchive(File file) {
        String name = file.getName().toLowerCase(Locale.ROOT);
        return name.endsWith(".jar") || name.endsWith(".zip") || name.endsWith(".war") || name.endsWith(".ear");
    }

    static String coordinates(Artifact artifact) {
        return artifact.getGroupId() + ":" + artifact.getArtifactId() + ":" + artifact.getVersion()
                + (artifact.getClassifier() == null || artifact.getClassifier().isEmpty() ? ""
                        : ":" + artifact.getClassifier());
    }

    /** A path the user wrote, relative to the project's base directory, absolute and normalized; null when blank. */
    static Path resolve(MavenProject project, String path) {
        if (path == null || path.isBlank()) {
            return null;
        }
        return project.getBasedir().toPath().resolve(path.strip()).toAbsolutePath().normalize();
    }

    // conv (issue 12): the old user property of devicePresets
    /**
     * {@code devicePresets} as configured, else the old user property {@value PropertyNames#DEPRECATED_DEVICE_PRESETS}
     * (Maven reads each parameter's property itself); where the old one is set, one warning says to use
     * {@value PropertyNames#DEVICE_PRESETS}.
     *
     * @param devicePresets the parameter ({@value PropertyNames#DEVICE_PRESETS} or the POM), or null
     * @param oldProperty   the value of {@value PropertyNames#DEPRECATED_DEVICE_PRESETS}, or null
     */
    static String devicePresets(String devicePresets, String oldProperty, Log log) {
        if (oldProperty == null || oldProperty.isBlank()) {
            return devicePresets;
        }
        boolean used = devicePresets == null || devicePresets.isBlank();
        log.warn(PropertyNames.DEPRECATED_DEVICE_PRESETS + " is deprecated: use " + PropertyNames.DEVICE_PRESETS + "="
                + oldProperty.strip() + (used ? " (read this time)" : " (ignored this time: devicePresets is set to '"
                + devicePresets.strip() + "')"));
        return used ? oldProperty : devicePresets;
    }

    /** Sends the core's progress to the Maven log. */
    static CheckListener listener(Log log) {
        return new CheckListener() {
            @Override
            public void info(String line) {
                log.info(line);
            }

            @Override
            public void warn(String line) {
                log.warn(line);
            }

            @Override
            public void debug(String line) {
                if (log.isDebugEnabled()) {
                    log.debug(line);
                }
            }
        };
    }
}
