package io.github.cudastackbudget.core.text;

/**
 * The check's user-facing options, named by their parameter id. A {@link Frontend} says how a user spells each one
 * (a POM element and a {@code -D} property in Maven, a {@code --flag} on the command line); core messages never spell
 * an option themselves.
 */
public enum Option {
    SKIP("skip"),
    LIBRARIES("libraries"),
    LIBRARY_FILES("libraryFiles"),
    ENGINE("engine"),
    CUOBJDUMP("cuobjdump"),
    TIMEOUT("timeout"),
    PARALLELISM("parallelism"),
    DEVICES("devices"),
    DEVICE_PRESETS("devicePresets"),
    DETECT_LOCAL_DEVICES("detectLocalDevices"),
    MAX_RESERVATION("maxReservation"),
    MAX_STACK_PER_THREAD("maxStackPerThread"),
    FAIL_ON_VIOLATION("failOnViolation"),
    FAIL_ON_UNREADABLE("failOnUnreadable"),
    PLATFORMS("platforms"),
    OUTPUT_DIRECTORY("outputDirectory"),
    TOP("top"),
    VERBOSE("verbose"),
    SCAN_PROJECT_JAR("scanProjectJar"),
    SCAN_DEPENDENCIES("scanDependencies"),
    DEPENDENCY_SCOPES("dependencyScopes"),
    JAR_INCLUDES("jarIncludes"),
    JAR_EXCLUDES("jarExcludes"),
    LAUNCH_LOG("launchLog"),
    LIBRARY_LOG("libraryLog"),
    CACHE_DIRECTORY("cacheDirectory"),
    USE_CACHE("useCache"),
    JIT_FRAMES("jitFrames"),
    PTXAS("ptxas"),
    DRIVER_CUDA_VERSION("driverCudaVersion"),
    // out (issue 12, outputs)
    FORMATS("formats"),
    FAIL_ON_ERROR("failOnError"),
    // issue 12, baselines
    BASELINE("baseline"),
    BASELINE_ARTIFACT("baselineArtifact"),
    MAX_GROWTH("maxGrowth"),
    IGNORE_MISSING_BASELINE("ignoreMissingBaseline"),
    ATTACH_REPORT("attachReport"),
    // gate (issue 12): suppressions and rules
    SUPPRESSIONS("suppressions"),
    FAIL_ON_UNUSED_SUPPRESSIONS("failOnUnusedSuppressions"),
    RULES("rules");

    private final String parameter;

    Option(String parameter) {
        this.parameter = parameter;
    }

    /** The parameter id, as the Maven goals and the report's JSON name it (e.g. {@code maxReservation}). */
    public String parameter() {
        return parameter;
    }
}
