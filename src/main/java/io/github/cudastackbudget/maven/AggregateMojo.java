package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.baseline.BaselineOptions;
import io.github.cudastackbudget.core.gate.GateOptions;
import io.github.cudastackbudget.core.report.OutputOptions;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.model.FileSet;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Checks the CUDA libraries of a whole reactor at once against per-device stack-reservation budgets, and writes one
 * report over them: the union of every module's libraries (each module's build directory with the default library
 * patterns, or {@code libraries} resolved against each module; its own JAR and, with {@code scanDependencies}, its
 * dependency JARs), judged as {@code check} judges one module's: per device the worst kernel wherever it lives,
 * attributed in the "used by" listing to its module's {@code groupId:artifactId:version} (a dependency JAR's library to
 * its artifact and the modules that depend on it). A budget exceeded fails the build naming the device, the kernel, its
 * library and module. A module without native libraries gets one INFO line; {@code failIfNoLibraries} fails the build
 * when no module had any.
 *
 * <p>Reports, written before the verdict in {@code outputDirectory} (the root project's
 * {@code target/cuda-stack-budget-aggregate}), with the file names of {@code check}: {@code cuda-stack-budget.json},
 * {@code cuda-stack-budget.txt} and {@code cuda-stack-budget.html}. The same modules give byte-identical reports,
 * serial or under {@code -T}.
 *
 * <p>Two ways to run it, both once per build:
 * <ul>
 * <li>on the command line at the root: {@code mvn verify cuda-stack-budget:aggregate} (an aggregator goal: Maven runs
 * it once, after the lifecycle of every module);</li>
 * <li>bound in the root POM's {@code <build>} (an execution of goal {@code aggregate}, phase {@code verify} by default,
 * inherited by every module): each module that reaches it is counted, and the goal acts once, when the last one does
 * (as maven-deploy-plugin's {@code deployAtEnd}), in whatever order {@code -T} finishes them.</li>
 * </ul>
 *
 * <p>Under a parallel build every line this goal and {@code check} log starts with {@code [artifactId] }.
 *
 * @since 0.1.0
 */
@Mojo(name = "aggregate", defaultPhase = LifecyclePhase.VERIFY, aggregator = true, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class AggregateMojo extends AbstractStackBudgetMojo {

    /**
     * Skip this goal only, as {@code skip} ({@value PropertyNames#SKIP}) skips every goal of the plugin: one log line
     * names the property; no report is written. From the command line: {@code -DcudaStackBudget.aggregate.skip}.
     */
    @Parameter(property = PropertyNames.AGGREGATE_SKIP, defaultValue = "false")
    private boolean skipAggregate;

    /**
     * What to scan in every module, as file sets with Ant-style patterns ({@code **}/{@code *.so} also matches the top
     * level), relative directories resolved against each module's base directory (a file set without a directory:
     * the module's build directory). Default: each module's {@code ${project.build.directory}} with includes
     * {@code **}/{@code *.so}, {@code **}/{@code *.so.*}, {@code **}/{@code *.cubin}, {@code **}/{@code *.fatbin},
     * {@code **}/{@code *.o}, {@code **}/{@code *.a}, {@code **}/{@code *.dll}. Files that are not ELF, PE, fatbin or
     * cubin are skipped quietly. A file two modules' file sets match belongs to the module nested deeper. No user
     * property: Maven cannot build file sets from a {@code -D} string.
     */
    @Parameter
    private List<FileSet> libraries;

    /**
     * The cuobjdump executable. Default: found on the {@code PATH}, then in {@code $CUDA_HOME/bin},
     * {@code $CUDA_PATH/bin}, {@code /usr/local/cuda/bin}. Needed only when device code is found.
     */
    @Parameter(property = PropertyNames.CUOBJDUMP)
    private String cuobjdump;

    /**
     * How kernels are read: {@code native} (the plugin's own reader: no CUDA toolkit needed), {@code cuobjdump}
     * (NVIDIA's tool), or {@code auto}: native, and cuobjdump for any file whose layout the native reader does not know.
     */
    @Parameter(property = PropertyNames.ENGINE, defaultValue = MavenScanSupport.DEFAULT_ENGINE)
    private String engine;

    /**
     * Look into every module's own JAR (when it has been built, i.e. from the {@code package} phase on) for native
     * libraries matching {@code jarIncludes}, read in place by the native reader.
     */
    @Parameter(property = PropertyNames.SCAN_PROJECT_JAR, defaultValue = MavenScanSupport.DEFAULT_SCAN_PROJECT_JAR)
    private boolean scanProjectJar;

    /**
     * Also look into every module's dependency JARs of {@code dependencyScopes}; a JAR several modules depend on is read
     * once, and its libraries are attributed to its artifact and the modules that depend on it.
     */
    @Parameter(property = PropertyNames.SCAN_DEPENDENCIES, defaultValue = MavenScanSupport.DEFAULT_SCAN_DEPENDENCIES)
    private boolean scanDependencies;

    /** The dependency scopes {@code scanDependencies} covers, comma-separated. */
    @Parameter(property = PropertyNames.DEPENDENCY_SCOPES, defaultValue = MavenScanSupport.DEFAULT_DEPENDENCY_SCOPES)
    private String dependencyScopes;

    /**
     * JAR entry patterns that count as libraries (default: the same patterns as {@code libraries}). On the command
     * line a comma-separated list: {@code -DcudaStackBudget.jarIncludes=native/**}{@code /*.so,lib/*.dll}.
     */
    @Parameter(property = PropertyNames.JAR_INCLUDES)
    private List<String> jarIncludes;

    /** JAR entry patterns to leave out; on the command line a comma-separated list. */
    @Parameter(property = PropertyNames.JAR_EXCLUDES)
    private List<String> jarExcludes;

    /**
     * Target GPUs, each a {@code <device>} with a catalog {@code <preset>} or explicit figures, and an optional own
     * {@code <maxReservation>}, as for {@code check}. With no devices and no {@code devicePresets}, the GPUs of this
     * machine are checked (nvidia-smi, matched to the catalog), else a default set without a budget. No user
     * property: Maven cannot build these beans from a {@code -D} string; use {@code -DcudaStackBudget.devicePresets}.
     */
    @Parameter
    private List<Device> devices;

    /**
     * Comma-separated catalog ids checked in addition to {@code devices}, e.g. {@code h100-sxm5-80gb,l4}. User property
     * {@code cudaStackBudget.devicePresets}; the old {@code cudaStackBudget.devices} still works, with a warning.
     */
    @Parameter(property = PropertyNames.DEVICE_PRESETS)
    private String devicePresets;

    /**
     * Deprecated: the old user property of {@code devicePresets}; use {@code -DcudaStackBudget.devicePresets}.
     * {@code -DcudaStackBudget.devices=h200-141gb} still works, with one warning; {@code devicePresets} comes first
     * when both are set.
     */
    @Parameter(property = PropertyNames.DEPRECATED_DEVICE_PRESETS)
    private String devicesProperty;

    /** With no devices configured, look for local GPUs with nvidia-smi before falling back to the default set. */
    @Parameter(property = PropertyNames.DETECT_LOCAL_DEVICES,
            defaultValue = MavenScanSupport.DEFAULT_DETECT_LOCAL_DEVICES)
    private boolean detectLocalDevices;

    /**
     * The platforms whose libraries are judged against the budgets ({@code linux-x86_64}, {@code windows}, ...;
     * comma-separated), as for {@code check}. Empty (the default): every platform.
     */
    @Parameter(property = PropertyNames.PLATFORMS)
    private String platforms;

    /**
     * Device code that cannot be read fails the build with one line naming the file, the offset and the problem. With
     * {@code false} it is a warning, and the report lists the file as unreadable.
     */
    @Parameter(property = PropertyNames.FAIL_ON_UNREADABLE,
            defaultValue = MavenScanSupport.DEFAULT_FAIL_ON_UNREADABLE)
    private boolean failOnUnreadable;

    /**
     * Budget for every device without its own, over the libraries of all modules: {@code 1.5 GiB}, {@code 512MiB},
     * {@code 2 GB}, bytes, or {@code 2%} of the device's memory (KiB/MiB/GiB powers of 1024, kB/MB/GB powers of 1000).
     * Compared with the total reservation (threads x roundup16(largest frame of any module's kernel)).
     */
    @Parameter(property = PropertyNames.MAX_RESERVATION)
    private String maxReservation;

    /** Largest allowed stack frame per thread of any kernel of any module a device would run, e.g. {@code 8 KiB}. */
    @Parameter(property = PropertyNames.MAX_STACK_PER_THREAD)
    private String maxStackPerThread;

    /** Fail the build on a violation; {@code false} logs the same text as a warning. */
    @Parameter(property = PropertyNames.FAIL_ON_VIOLATION, defaultValue = "true")
    private boolean failOnViolation;

    /**
     * Fail the build when no module had a library with device code (nothing was scanned): for a reactor that must ship
     * CUDA code, where an empty aggregate means the libraries were not built or not found. Default: one INFO line.
     */
    @Parameter(property = PropertyNames.FAIL_IF_NO_LIBRARIES, defaultValue = "false")
    private boolean failIfNoLibraries;

    /**
     * Where the aggregate reports go: the root project's build directory, {@code cuda-stack-budget-aggregate}. On the
     * command line {@code -DcudaStackBudget.aggregate.outputDirectory} (its own property, so that a {@code -D} for the
     * modules' {@code check} reports does not move the aggregate's onto one of them).
     */
    @Parameter(property = PropertyNames.AGGREGATE_OUTPUT_DIRECTORY,
            defaultValue = "${session.topLevelProject.build.directory}/cuda-stack-budget-aggregate", required = true)
    private File outputDirectory;

    /** Rows in the verbose per-kernel listing (0 = all). */
    @Parameter(property = PropertyNames.TOP, defaultValue = MavenScanSupport.DEFAULT_TOP)
    private int top;

    /** List kernels with a stack frame per device and the libraries with their "used by" in the log. */
    @Parameter(property = PropertyNames.VERBOSE, defaultValue = "false")
    private boolean verbose;

    /** Time limit in seconds for cuobjdump on one file. */
    @Parameter(property = PropertyNames.TIMEOUT, defaultValue = MavenScanSupport.DEFAULT_TIMEOUT)
    private int timeout;

    /** Files read at once (0 = number of processors, at most 8). */
    @Parameter(property = PropertyNames.PARALLELISM, defaultValue = MavenScanSupport.DEFAULT_PARALLELISM)
    private int parallelism;

    /** The kernel cache's directory, as for {@code check} (default: the user's cache directory). */
    @Parameter(property = PropertyNames.CACHE_DIRECTORY)
    private File cacheDirectory;

    /** Serve unchanged libraries' reads from the kernel cache and store new ones; {@code false} reads every library. */
    @Parameter(property = PropertyNames.USE_CACHE, defaultValue = MavenScanSupport.DEFAULT_USE_CACHE)
    private boolean useCache;

    /** How the frames of functions a device would JIT-compile from PTX are computed: {@code off} or {@code ptxas}. */
    @Parameter(property = PropertyNames.JIT_FRAMES, defaultValue = MavenScanSupport.DEFAULT_JIT_FRAMES)
    private String jitFrames;

    /** The ptxas executable for {@code jitFrames} {@code ptxas}. Default: found on the {@code PATH}, then the toolkit. */
    @Parameter(property = PropertyNames.PTXAS)
    private String ptxas;

    /** The CUDA version of the driver the code will run under ({@code 12.8}): a ptxas of another release warns. */
    @Parameter(property = PropertyNames.DRIVER_CUDA_VERSION)
    private String driverCudaVersion;

    /**
     * The reports to write into {@code outputDirectory}, comma-separated, as for {@code check}: {@code html},
     * {@code json}, {@code txt} (the default three), {@code markdown} ({@code cuda-stack-budget.md}), {@code junit}
     * ({@code TEST-cuda-stack-budget.xml}) and {@code sarif} ({@code cuda-stack-budget.sarif}). With the environment
     * variable {@code GITHUB_STEP_SUMMARY} set, the Markdown summary of the aggregate is appended to the file it names.
     * Paths in every report are relative to the root project's base directory.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.FORMATS, defaultValue = OutputOptions.DEFAULT_FORMATS)
    private String formats;

    /**
     * Fail the build when the aggregate cannot run (a tool missing, failing or timing out; input that cannot be
     * read), as for {@code check}: the selected reports are written with the error either way; with {@code false} the
     * error is one WARN line and the build continues.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.FAIL_ON_ERROR, defaultValue = "true")
    private boolean failOnError;

    /**
     * A checked-in suppressions file, as for {@code check} (the format is on the suppressions-and-rules page): a
     * suppressed kernel, in whichever module it lives, leaves its device's verdict and is listed apart with its
     * reason; an expired entry fails the build; an unused one warns. Bound in the root POM, give an absolute path
     * ({@code ${maven.multiModuleProjectDirectory}/src/budget/suppressions.xml}): Maven resolves a relative one
     * against the module that runs the aggregate.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.SUPPRESSIONS)
    private File suppressions;

    /** An entry of {@code suppressions} that matches no kernel of any module fails the build (by default it warns). */
    @Parameter(property = PropertyNames.FAIL_ON_UNUSED_SUPPRESSIONS, defaultValue = "false")
    private boolean failOnUnusedSuppressions;

    /**
     * Rules in the style of jacoco's {@code check}, as for {@code check} ({@code DEVICE}, {@code LIBRARY} or
     * {@code KERNEL} elements with includes, excludes and limits), judged over the libraries of every module.
     * POM only.
     *
     * @since 0.1.0
     */
    @Parameter
    private List<Rule> rules;

    /**
     * A JSON report of an earlier aggregate (or check) to compare with, as for {@code check}: per device the old and
     * the new reservation, failing only with {@code maxGrowth}. Bound in the root POM, give an absolute path (as for
     * {@code suppressions}).
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.BASELINE)
    private File baseline;

    /**
     * How much a reservation may grow over the {@code baseline}'s before the build fails: a size or a percentage of
     * the baseline's reservation, as for {@code check}.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.MAX_GROWTH)
    private String maxGrowth;

    /** A {@code baseline} that does not exist is one INFO line, and the aggregate goes on without a comparison. */
    @Parameter(property = PropertyNames.IGNORE_MISSING_BASELINE, defaultValue = "false")
    private boolean ignoreMissingBaseline;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    private MojoExecution mojoExecution;

    /** The aggregate reads the modules' scans from the result: it always runs the check. */
    @Override
    protected boolean reusesResults() {
        return false;
    }

    @Override
    protected String subject() {
        return "CUDA stack budget aggregate";
    }

    @Override
    protected boolean goalSkip() {
        return skipAggregate;
    }

    @Override
    protected String goalSkipProperty() {
        return PropertyNames.AGGREGATE_SKIP;
    }

    @Override
    protected void executeMojo() throws CheckException, MojoExecutionException, MojoFailureException {
        Log log = getLog();
        if (!lastProject(log)) {
            return;
        }
        List<MavenProject> projects = session.getProjects();
        MavenProject root = root();
        MavenScanSupport.Parameters parameters = parameters();
        ReactorInputs inputs = ReactorInputs.of(projects, root, parameters, log::info);
        log.info("Aggregating the CUDA stack budget of " + projects.size() + " module(s) into " + outputDirectory);
        CheckRunner.Outcome outcome = runCheck(options(root, inputs, parameters.devicePresets()), failOnError);
        if (outcome == null) {
            return;
        }
        ReactorInputs.sharedLabels(outcome.result().scans()).forEach(log::warn);
        for (String module : inputs.withoutLibraries(outcome.result().scans())) {
            log.info("Module " + module + ": no native libraries (looked in " + inputs.lookedIn().get(module) + ")");
        }
        if (outcome.result().noKernels()) {
            outcome.summary().forEach(log::info);
            if (failIfNoLibraries) {
                throw new MojoFailureException("The CUDA stack budget aggregate found no native library with device "
                        + "code in " + projects.size() + " module(s): build them before the aggregate runs, point "
                        + "<libraries> at them, or set -D" + PropertyNames.FAIL_IF_NO_LIBRARIES + "=false.");
            }
            return;
        }
        judge(outcome, attributed(outcome, inputs), failOnViolation, "CUDA stack budget exceeded in the aggregate");
    }

    /**
     * Whether this execution acts: always on the command line (Maven runs an aggregator goal once); bound in a POM,
     * only for the last of the reactor projects that have the execution to reach it.
     */
    private boolean lastProject(Log log) {
        if (mojoExecution == null || mojoExecution.getSource() == MojoExecution.Source.CLI) {
            return true;
        }
        Set<String> expected = new LinkedHashSet<>();
        String pluginKey = mojoExecution.getGroupId() + ":" + mojoExecution.getArtifactId();
        for (MavenProject candidate : session.getProjects()) {
            if (bound(candidate, pluginKey, mojoExecution.getExecutionId())) {
                expected.add(candidate.getId());
            }
        }
        expected.add(project.getId());
        String key = ReactorCompletion.class.getName() + ":" + pluginKey + ":" + mojoExecution.getExecutionId();
        if (ReactorCompletion.arrive(session.getRepositorySession().getData(), key, project.getId(), expected)) {
            return true;
        }
        log.info("The CUDA stack budget aggregate runs once the last module reaches it ("
                + ReactorCompletion.count(session.getRepositorySession().getData(), key, expected) + " of "
                + expected.size() + " so far)");
        return false;
    }

    /**
     * Whether {@code candidate} has this plugin's execution {@code executionId} of goal {@code aggregate} that runs
     * (not moved to phase {@code none}).
     */
    static boolean bound(MavenProject candidate, String pluginKey, String executionId) {
        for (Plugin plugin : candidate.getBuildPlugins()) {
            if (!pluginKey.equals(plugin.getKey())) {
                continue;
            }
            for (PluginExecution execution : plugin.getExecutions()) {
                // an execution moved to phase none never runs: it is not waited for
                if (execution.getId().equals(executionId) && execution.getGoals().contains("aggregate")
                        && !"none".equals(execution.getPhase())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The reactor's root: the top-level project, else the first of the reactor. */
    private MavenProject root() {
        MavenProject top = session.getTopLevelProject();
        return top != null ? top : session.getProjects().get(0);
    }

    private MavenScanSupport.Parameters parameters() {
        return new MavenScanSupport.Parameters(libraries, null, cuobjdump, engine, scanProjectJar, scanDependencies,
                dependencyScopes, jarIncludes, jarExcludes, devices, presets(), detectLocalDevices, maxReservation,
                maxStackPerThread, null, null, timeout, parallelism, top, failOnUnreadable, platforms);
    }

    private String presets() {
        return MavenScanSupport.devicePresets(devicePresets, devicesProperty, getLog());
    }

    /** The options of one check over every module's inputs, the reports in {@code outputDirectory}. */
    CheckOptions options(MavenProject root, ReactorInputs inputs, String presets) throws MojoExecutionException {
        MavenScanSupport.Parameters own = new MavenScanSupport.Parameters(null, null, cuobjdump, engine, false, false,
                dependencyScopes, jarIncludes, jarExcludes, devices, presets, detectLocalDevices, maxReservation,
                maxStackPerThread, null, null, timeout, parallelism, top, failOnUnreadable, platforms);
        return new MavenScanSupport(root, getLog()::info)
                .options(own, cacheDirectory, useCache, outputDirectory.toPath(), verbose).toBuilder()
                .fileSets(inputs.fileSets()).jarScan(inputs.jarScan())
                .jitFrames(jitFrames).ptxas(ptxas).driverCudaVersion(driverCudaVersion)
                .output(OutputOptions.of(formats, root.getBasedir() == null ? null : root.getBasedir().toPath()))
                .gate(new GateOptions(suppressions == null ? null : suppressions.toPath(), failOnUnusedSuppressions,
                        rules == null ? List.of() : rules.stream().map(rule -> rule == null
                                ? new GateOptions.RuleSpec(null, null, null, null) : rule.toSpec()).toList(), null))
                .baseline(baseline == null ? new BaselineOptions(null, maxGrowth, ignoreMissingBaseline)
                        : new BaselineOptions(baseline.toPath(), maxGrowth, ignoreMissingBaseline,
                                BaselineArtifact.relative(root, baseline.toPath())))
                .build();
    }

    /** The violation lines, each reservation or frame violation followed by the module of its kernel's library. */
    private static List<String> attributed(CheckRunner.Outcome outcome, ReactorInputs inputs) {
        ReportModel model = ReportModel.of(outcome.result());
        List<String> lines = new ArrayList<>(outcome.violations());
        for (int i = 0; i < model.violations().size() && i < lines.size(); i++) {
            ViolationReport violation = model.violations().get(i);
            for (LibraryReport library : model.libraries()) {
                if (library.library().equals(violation.library())) {
                    String modules = inputs.modulesNamed(library.usedBy());
                    lines.set(i, lines.get(i) + " (" + (modules.equals(library.usedBy()) ? "module " + modules
                            : library.usedBy()) + ")");
                    break;
                }
            }
        }
        return lines;
    }
}
