package io.github.cudastackbudget.cli;

import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;

/**
 * How the command line spells the core's options in messages: its flags ({@code --max-reservation},
 * {@code --cuobjdump /path/to/cuobjdump}), the file arguments, and a plain phrase for the options only the Maven goals
 * have. No Maven spelling ({@code -D...}, POM elements) reaches a command-line user.
 */
public final class CliFrontend implements Frontend {

    /** The one instance (it holds no state). */
    public static final CliFrontend INSTANCE = new CliFrontend();

    static final String DEVICES = "--devices";
    static final String DEVICE = "--device";
    static final String MAX_RESERVATION = "--max-reservation";
    static final String MAX_STACK = "--max-stack";
    static final String CUOBJDUMP = "--cuobjdump";
    static final String ENGINE = "--engine";
    static final String OUTPUT = "--output";
    static final String TOP = "--top";
    static final String PARALLELISM = "--parallelism";
    static final String TIMEOUT = "--timeout";
    static final String NO_DETECT = "--no-detect";
    static final String LAUNCH_LOG = "--launch-log";
    static final String LIBRARY_LOG = "--library-log";
    static final String VERBOSE = "--verbose";
    static final String NO_FAIL_ON_UNREADABLE = "--no-fail-on-unreadable";
    static final String PLATFORMS = "--platforms";
    static final String CACHE_DIRECTORY = "--cache-directory";
    static final String NO_CACHE = "--no-cache";
    static final String JIT_FRAMES = "--jit-frames";
    static final String PTXAS = "--ptxas";
    static final String DRIVER_CUDA_VERSION = "--driver-cuda-version";
    // out (issue 12, outputs)
    static final String FORMATS = "--formats";
    // issue 12, baselines
    static final String BASELINE = "--baseline";
    static final String MAX_GROWTH = "--max-growth";
    static final String IGNORE_MISSING_BASELINE = "--ignore-missing-baseline";
    // gate (issue 12)
    static final String SUPPRESSIONS = "--suppressions";
    static final String FAIL_ON_UNUSED_SUPPRESSIONS = "--fail-on-unused-suppressions";

    private static final String FILES = "the FILE arguments";
    private static final String DIRECTORIES = "the DIRECTORY arguments";
    private static final String JARS = "the .jar arguments";

    private CliFrontend() {
    }

    /** The flag that sets the option, or null where the command line has none. */
    static String flag(Option option) {
        return switch (option) {
            case DEVICE_PRESETS -> DEVICES;
            case DEVICES -> DEVICE;
            case MAX_RESERVATION -> MAX_RESERVATION;
            case MAX_STACK_PER_THREAD -> MAX_STACK;
            case CUOBJDUMP -> CUOBJDUMP;
            case ENGINE -> ENGINE;
            case OUTPUT_DIRECTORY -> OUTPUT;
            case TOP -> TOP;
            case PARALLELISM -> PARALLELISM;
            case TIMEOUT -> TIMEOUT;
            case DETECT_LOCAL_DEVICES -> NO_DETECT;
            case LAUNCH_LOG -> LAUNCH_LOG;
            case LIBRARY_LOG -> LIBRARY_LOG;
            case VERBOSE -> VERBOSE;
            case FAIL_ON_UNREADABLE -> NO_FAIL_ON_UNREADABLE;
            case PLATFORMS -> PLATFORMS;
            case CACHE_DIRECTORY -> CACHE_DIRECTORY;
            case USE_CACHE -> NO_CACHE;
            case JIT_FRAMES -> JIT_FRAMES;
            case PTXAS -> PTXAS;
            case DRIVER_CUDA_VERSION -> DRIVER_CUDA_VERSION;
            case FORMATS -> FORMATS;
            case FAIL_ON_ERROR -> null;
            // issue 12, baselines
            case BASELINE -> BASELINE;
            case MAX_GROWTH -> MAX_GROWTH;
            case IGNORE_MISSING_BASELINE -> IGNORE_MISSING_BASELINE;
            case BASELINE_ARTIFACT -> null;
            case ATTACH_REPORT -> null;
            case SKIP, LIBRARIES, LIBRARY_FILES, FAIL_ON_VIOLATION, SCAN_PROJECT_JAR, SCAN_DEPENDENCIES,
                    DEPENDENCY_SCOPES, JAR_INCLUDES, JAR_EXCLUDES -> null;
            // gate (issue 12)
            case SUPPRESSIONS -> SUPPRESSIONS;
            case FAIL_ON_UNUSED_SUPPRESSIONS -> FAIL_ON_UNUSED_SUPPRESSIONS;
            case RULES -> null;
        };
    }

    /** The flag, e.g. {@code --max-reservation}; for an option without one, what stands for it. */
    @Override
    public String name(Option option) {
        String flag = flag(option);
        if (flag != null) {
            return flag;
        }
        return switch (option) {
            case LIBRARIES -> DIRECTORIES;
            case LIBRARY_FILES -> FILES;
            case SCAN_PROJECT_JAR, SCAN_DEPENDENCIES, DEPENDENCY_SCOPES -> JARS;
            case JAR_INCLUDES, JAR_EXCLUDES -> "the JAR entry patterns (on the command line always the default ones)";
            case FAIL_ON_VIOLATION -> "the exit status (1: a budget exceeded)";
            case FAIL_ON_ERROR -> "the exit status (2: the check could not run)";
            case SKIP -> "skipping (the command line has no such option: do not run it)";
            // issue 12, baselines: Maven's artifacts
            case BASELINE_ARTIFACT -> "a baseline artifact (the command line takes the file: " + BASELINE + " FILE)";
            case ATTACH_REPORT -> "attaching the report (the command line has no such option: Maven only)";
            // gate (issue 12)
            case RULES -> "rules (set in the Maven goal's POM only; the command line has none)";
            default -> throw new IllegalStateException("no words for " + option);
        };
    }

    /**
     * The flag and its value ({@code --cuobjdump /path/to/cuobjdump}, quoted for the shell where needed); a blank
     * {@code example} says to leave the flag out. The flags without a value follow {@code example} ({@code true} or
     * {@code false}): {@code --verbose}, {@code --no-detect} (for {@code detectLocalDevices=false}),
     * {@code --no-fail-on-unreadable} (for {@code failOnUnreadable=false}), {@code --no-cache} (for
     * {@code useCache=false}).
     */
    @Override
    public String howToSet(Option option, String example) {
        String value = example == null ? "" : example.strip();
        switch (option) {
            case VERBOSE:
                return "false".equalsIgnoreCase(value) ? "leave out " + VERBOSE : VERBOSE;
            case DETECT_LOCAL_DEVICES:
                return "false".equalsIgnoreCase(value) ? NO_DETECT : "leave out " + NO_DETECT;
            case FAIL_ON_UNREADABLE:
                return "false".equalsIgnoreCase(value) ? NO_FAIL_ON_UNREADABLE : "leave out " + NO_FAIL_ON_UNREADABLE;
            case USE_CACHE:
                return "false".equalsIgnoreCase(value) ? NO_CACHE : "leave out " + NO_CACHE;
            case IGNORE_MISSING_BASELINE:
                return "false".equalsIgnoreCase(value) ? "leave out " + IGNORE_MISSING_BASELINE
                        : IGNORE_MISSING_BASELINE;
            // gate (issue 12)
            case FAIL_ON_UNUSED_SUPPRESSIONS:
                return "true".equalsIgnoreCase(value) ? FAIL_ON_UNUSED_SUPPRESSIONS
                        : "leave out " + FAIL_ON_UNUSED_SUPPRESSIONS;
            case LIBRARIES:
            case LIBRARY_FILES:
            case SCAN_PROJECT_JAR:
            case SCAN_DEPENDENCIES:
            case DEPENDENCY_SCOPES:
                return value.isEmpty() ? name(option) : "the argument " + quoted(value);
            default:
                String flag = flag(option);
                if (flag == null) {
                    return name(option);
                }
                return value.isEmpty() ? "leave out " + flag : flag + " " + quoted(value);
        }
    }

    /** The value as a shell word: single-quoted when it holds anything but letters, digits and {@code /._,:%+=-}. */
    static String quoted(String value) {
        return value.matches("[A-Za-z0-9/._,:%+=@-]+") ? value : "'" + value.replace("'", "'\\''") + "'";
    }

    @Override
    public String toString() {
        return "command line (--flags)";
    }
}
