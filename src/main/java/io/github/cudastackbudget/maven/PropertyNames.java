package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.text.Option;
import java.util.Optional;

/**
 * Every property name of the goals in one place (as Jib's {@code PropertyNames}): the user properties of the parameters
 * ({@code -DcudaStackBudget.maxReservation=1GiB}) and the project properties that {@code prepare-agent} sets.
 */
public final class PropertyNames {

    /** Skip the goal ({@code check}, {@code report}, {@code prepare-agent}). */
    public static final String SKIP = "cudaStackBudget.skip";
    // conv (issue 12): per-goal skips besides SKIP, as spotless.check.skip (parameters skipCheck, skipReport, ...)
    /** Skip {@code check} only (parameter {@code skipCheck}). */
    public static final String CHECK_SKIP = "cudaStackBudget.check.skip";
    /** Skip {@code report} only (parameter {@code skipReport}). */
    public static final String REPORT_SKIP = "cudaStackBudget.report.skip";
    /** Skip {@code prepare-agent} only (parameter {@code skipPrepareAgent}). */
    public static final String PREPARE_AGENT_SKIP = "cudaStackBudget.prepareAgent.skip";
    /** Skip {@code aggregate} only (parameter {@code skipAggregate}). */
    public static final String AGGREGATE_SKIP = "cudaStackBudget.aggregate.skip";
    public static final String CUOBJDUMP = "cudaStackBudget.cuobjdump";
    public static final String ENGINE = "cudaStackBudget.engine";
    public static final String SCAN_PROJECT_JAR = "cudaStackBudget.scanProjectJar";
    public static final String SCAN_DEPENDENCIES = "cudaStackBudget.scanDependencies";
    public static final String DEPENDENCY_SCOPES = "cudaStackBudget.dependencyScopes";
    /** The user property of the {@code devicePresets} parameter. */
    public static final String DEVICE_PRESETS = "cudaStackBudget.devicePresets";
    public static final String DETECT_LOCAL_DEVICES = "cudaStackBudget.detectLocalDevices";
    public static final String MAX_RESERVATION = "cudaStackBudget.maxReservation";
    public static final String MAX_STACK_PER_THREAD = "cudaStackBudget.maxStackPerThread";
    /** The kernel launch log: a user property of {@code check} and {@code report}, set by {@code prepare-agent}. */
    public static final String LAUNCH_LOG = "cudaStackBudget.launchLog";
    /** The library log: a user property of {@code check} and {@code report}, set by {@code prepare-agent}. */
    public static final String LIBRARY_LOG = "cudaStackBudget.libraryLog";
    public static final String FAIL_ON_VIOLATION = "cudaStackBudget.failOnViolation";
    public static final String FAIL_ON_UNREADABLE = "cudaStackBudget.failOnUnreadable";
    /** The platforms whose libraries are judged ({@code check} and {@code report}). */
    public static final String PLATFORMS = "cudaStackBudget.platforms";
    public static final String TOP = "cudaStackBudget.top";
    public static final String VERBOSE = "cudaStackBudget.verbose";
    public static final String TIMEOUT = "cudaStackBudget.timeout";
    public static final String PARALLELISM = "cudaStackBudget.parallelism";
    /** The kernel cache's directory ({@code check} and {@code report}). */
    public static final String CACHE_DIRECTORY = "cudaStackBudget.cacheDirectory";
    /** Whether the kernel cache is used ({@code check} and {@code report}). */
    public static final String USE_CACHE = "cudaStackBudget.useCache";
    /** How the frames of functions a device JIT-compiles are computed: off or ptxas ({@code check} and {@code report}). */
    public static final String JIT_FRAMES = "cudaStackBudget.jitFrames";
    /** The ptxas executable ({@code check} and {@code report}). */
    public static final String PTXAS = "cudaStackBudget.ptxas";
    /** The CUDA version of the target driver ({@code check} and {@code report}). */
    public static final String DRIVER_CUDA_VERSION = "cudaStackBudget.driverCudaVersion";

    // conv (issue 12): a user property on every parameter Maven can set from a -D string (comma-separated lists of
    // strings and files included; libraries (FileSets) and devices (beans) have none)
    /** Files to scan, comma-separated ({@code check} and {@code report}). */
    public static final String LIBRARY_FILES = "cudaStackBudget.libraryFiles";
    /** JAR entry patterns that count as libraries, comma-separated ({@code check} and {@code report}). */
    public static final String JAR_INCLUDES = "cudaStackBudget.jarIncludes";
    /** JAR entry patterns to leave out, comma-separated ({@code check} and {@code report}). */
    public static final String JAR_EXCLUDES = "cudaStackBudget.jarExcludes";
    /** {@code check}: where the reports go. */
    public static final String OUTPUT_DIRECTORY = "cudaStackBudget.outputDirectory";
    /** {@code prepare-agent}: where the injection library is extracted to. */
    public static final String AGENT_DIRECTORY = "cudaStackBudget.agentDirectory";
    /**
     * The old user property of {@code devicePresets} (before {@value #DEVICE_PRESETS}): still read, with one
     * deprecation warning.
     */
    public static final String DEPRECATED_DEVICE_PRESETS = "cudaStackBudget.devices";
    // agg (issue 12): the aggregate goal
    /** {@code aggregate}: fail when no module had a library with device code. */
    public static final String FAIL_IF_NO_LIBRARIES = "cudaStackBudget.failIfNoLibraries";
    /** {@code aggregate}: where its reports go (not {@code check}'s {@value #OUTPUT_DIRECTORY}). */
    public static final String AGGREGATE_OUTPUT_DIRECTORY = "cudaStackBudget.aggregate.outputDirectory";

    // out (issue 12, outputs)
    /** The report formats {@code check} writes. */
    public static final String FORMATS = "cudaStackBudget.formats";
    /** Whether a tool error fails {@code check}. */
    public static final String FAIL_ON_ERROR = "cudaStackBudget.failOnError";

    // issue 12, baselines ({@code check})
    /** A previous JSON report to compare with. */
    public static final String BASELINE = "cudaStackBudget.baseline";
    /** A previous release's attached JSON report, {@code groupId:artifactId:version[:classifier]}. */
    public static final String BASELINE_ARTIFACT = "cudaStackBudget.baselineArtifact";
    /** The growth allowed over the baseline. */
    public static final String MAX_GROWTH = "cudaStackBudget.maxGrowth";
    /** A missing baseline is an INFO line. */
    public static final String IGNORE_MISSING_BASELINE = "cudaStackBudget.ignoreMissingBaseline";
    /** Attach the JSON report to the project (classifier {@code cuda-stack-budget}, type {@code json}). */
    public static final String ATTACH_REPORT = "cudaStackBudget.attachReport";

    // gate (issue 12): suppressions and rules
    /** {@code check}: the suppressions file. */
    public static final String SUPPRESSIONS = "cudaStackBudget.suppressions";
    /** {@code check}: an unused suppression fails the build. */
    public static final String FAIL_ON_UNUSED_SUPPRESSIONS = "cudaStackBudget.failOnUnusedSuppressions";

    /** {@code report}: the JSON report of {@code check}. */
    public static final String JSON_REPORT = "cudaStackBudget.jsonReport";
    /** {@code report}: where the figures come from. */
    public static final String REPORT_SOURCE = "cudaStackBudget.reportSource";

    /** {@code prepare-agent}: keep the logs of earlier runs. */
    public static final String APPEND = "cudaStackBudget.append";
    /** Project property set by {@code prepare-agent}: the extracted injection library. */
    public static final String AGENT_LIBRARY = "cudaStackBudget.agentLibrary";
    /** Project property set by {@code prepare-agent}: the environment as one shell snippet. */
    public static final String AGENT_ENV = "cudaStackBudget.agentEnv";
    /** Project property set by {@code prepare-agent}: the environment as a file of export lines. */
    public static final String AGENT_ENV_FILE = "cudaStackBudget.agentEnvFile";

    private PropertyNames() {
    }

    /** The user property of a core option's parameter; empty where it is set in the POM only. */
    public static Optional<String> of(Option option) {
        return Optional.ofNullable(switch (option) {
            case SKIP -> SKIP;
            case CUOBJDUMP -> CUOBJDUMP;
            case ENGINE -> ENGINE;
            case TIMEOUT -> TIMEOUT;
            case PARALLELISM -> PARALLELISM;
            case DEVICE_PRESETS -> DEVICE_PRESETS;
            case DETECT_LOCAL_DEVICES -> DETECT_LOCAL_DEVICES;
            case MAX_RESERVATION -> MAX_RESERVATION;
            case MAX_STACK_PER_THREAD -> MAX_STACK_PER_THREAD;
            case FAIL_ON_VIOLATION -> FAIL_ON_VIOLATION;
            case FAIL_ON_UNREADABLE -> FAIL_ON_UNREADABLE;
            case PLATFORMS -> PLATFORMS;
            case TOP -> TOP;
            case VERBOSE -> VERBOSE;
            case SCAN_PROJECT_JAR -> SCAN_PROJECT_JAR;
            case SCAN_DEPENDENCIES -> SCAN_DEPENDENCIES;
            case DEPENDENCY_SCOPES -> DEPENDENCY_SCOPES;
            case LAUNCH_LOG -> LAUNCH_LOG;
            case LIBRARY_LOG -> LIBRARY_LOG;
            case CACHE_DIRECTORY -> CACHE_DIRECTORY;
            case USE_CACHE -> USE_CACHE;
            case JIT_FRAMES -> JIT_FRAMES;
            case PTXAS -> PTXAS;
            case DRIVER_CUDA_VERSION -> DRIVER_CUDA_VERSION;
            // conv (issue 12)
            case LIBRARY_FILES -> LIBRARY_FILES;
            case OUTPUT_DIRECTORY -> OUTPUT_DIRECTORY;
            case JAR_INCLUDES -> JAR_INCLUDES;
            case JAR_EXCLUDES -> JAR_EXCLUDES;
            // out (issue 12)
            case FORMATS -> FORMATS;
            case FAIL_ON_ERROR -> FAIL_ON_ERROR;
            // a list of FileSets and a list of beans: Maven cannot build them from a -D string
            case LIBRARIES, DEVICES -> null;
            // issue 12, baselines
            case BASELINE -> BASELINE;
            case BASELINE_ARTIFACT -> BASELINE_ARTIFACT;
            case MAX_GROWTH -> MAX_GROWTH;
            case IGNORE_MISSING_BASELINE -> IGNORE_MISSING_BASELINE;
            case ATTACH_REPORT -> ATTACH_REPORT;
            // gate (issue 12)
            case SUPPRESSIONS -> SUPPRESSIONS;
            case FAIL_ON_UNUSED_SUPPRESSIONS -> FAIL_ON_UNUSED_SUPPRESSIONS;
            case RULES -> null;
        });
    }
}
