package io.github.cudastackbudget.cli;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.baseline.BaselineOptions;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.report.OutputOptions;
import io.github.cudastackbudget.core.gate.GateOptions;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The check without Maven: {@code java -cp 'lib/*' io.github.cudastackbudget.cli.Main [options] FILE-OR-DIR...}.
 * Exit status: 0 pass, 1 a budget exceeded, 2 misuse or broken input.
 */
public final class Main {

    private static final String USAGE = String.join("\n",
            "usage: cuda-stack-budget [options] FILE-OR-DIRECTORY...",
            "  a directory is scanned with the default patterns (**/*.so, **/*.so.*, **/*.cubin, **/*.fatbin, **/*.o, **/*.a, **/*.dll)",
            "  a .jar (or .zip) file: its entries matching those patterns are read in place (native engine)",
            "  --devices ID,ID          catalog presets (e.g. h200-141gb,l4)",
            "  --device NAME:CC:THREADS an explicit device (e.g. mygpu:9.0:270336); repeatable",
            "  --max-reservation SIZE   budget per device (1.5 GiB, 512MiB, bytes, 2%)",
            "  --max-stack SIZE         per-kernel frame limit",
            "  --cuobjdump PATH         the cuobjdump executable",
            "  --engine auto|native|cuobjdump  how kernels are read (auto: native, cuobjdump for unknown layouts)",
            "  --output DIR             where reports go (default ./cuda-stack-budget)",
            "  --top N                  rows in the verbose listing (0 = all; default 25)",
            "  --parallelism N          files read at once (default: processors, at most 8)",
            "  --timeout SECONDS        per-file time limit of cuobjdump (default 600)",
            "  --no-detect              do not look for local GPUs when no device is given",
            "  --launch-log FILE        launched mode: judge the kernels this CUPTI launch log lists",
            "  --library-log FILE       its library log (default: the launch log + .libraries)",
            "  --no-fail-on-unreadable  device code that cannot be read is a warning (default: exit 2)",
            "  --platforms LIST         judge only these platforms' libraries (linux-x86_64,windows; default all)",
            "  --cache-directory DIR    reads and results cache (default ${XDG_CACHE_HOME:-~/.cache}/cuda-stack-budget,",
            "                           on Windows %LOCALAPPDATA%\\cuda-stack-budget\\cache; delete it to clear it)",
            "  --no-cache               read and judge everything, neither using nor filling the cache",
            "  --jit-frames off|ptxas   frames of functions a device would JIT-compile from PTX: off (default) or",
            "                           computed with ptxas for the device's sm_XX (cached; --timeout per module)",
            "  --ptxas PATH             the ptxas executable (default: PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)",
            "  --driver-cuda-version V  the CUDA version of the target driver (e.g. 12.8): warns when ptxas differs",
            "  --formats LIST           reports to write: html,json,txt,markdown,junit,sarif (default html,json,txt)",
            "  --baseline FILE          compare with the cuda-stack-budget.json of an earlier check (old, new, delta)",
            "  --max-growth SIZE        fail when a device's reservation (or the largest) grew over the baseline's by",
            "                           more than SIZE (64 MiB, bytes) or a percentage of it (10%)",
            "  --ignore-missing-baseline  a --baseline FILE that does not exist is a note, not an error",
            "  --suppressions FILE      a suppressions file: its kernels leave the verdicts, listed with their reason",
            "  --fail-on-unused-suppressions  an entry that matches no kernel exits 1 (default: a warning)",
            "                           (rules, <rules><rule>, are set in the Maven goal's POM only)",
            "  -v, --verbose            per-kernel and per-library listing",
            "  -q, --quiet              only the summary",
            "  --timings                the wall time of each stage (where a check's time goes)");

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** What the arguments ask for: the check's options, and whether to print only the summary. */
    record Command(CheckOptions options, boolean quiet, boolean timings) {
    }

    static int run(String[] args) {
        Command command;
        try {
            command = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("cuda-stack-budget: " + e.getMessage());
            return 2;
        }
        if (command == null) {
            System.out.println(USAGE);
            return 0;
        }
        boolean quiet = command.quiet();
        CheckListener listener = new CheckListener() {
            @Override
            public synchronized void info(String line) {
                if (!quiet) {
                    System.out.println(line);
                }
            }

            @Override
            public synchronized void warn(String line) {
                System.err.println("WARNING: " + line);
            }

            @Override
            public synchronized void debug(String line) {
                if (command.timings()) {
                    System.out.println(line);
                }
            }
        };
        try {
            CheckRunner.Outcome outcome = CheckRunner.run(command.options(), listener);
            if (!quiet && !outcome.noKernels()) {
                outcome.reportLines().forEach(System.out::println);
            }
            outcome.violations().forEach(line -> System.err.println("VIOLATION: " + line));
            outcome.summary().forEach(System.out::println);
            return outcome.failed() ? 1 : 0;
        } catch (CheckException e) {
            System.err.println("cuda-stack-budget: " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            System.err.println("cuda-stack-budget: failed unexpectedly (" + e + "); please report it");
            return 3;
        }
    }

    /**
     * The command the arguments give, spelled for messages by {@link CliFrontend}; null for {@code --help}.
     *
     * @throws IllegalArgumentException misuse of the command line, one line (with the usage where it helps)
     */
    static Command parse(String[] args) {
        List<FileSetSpec> fileSets = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        List<JarInput> jars = new ArrayList<>();
        List<DeviceDefinition> devices = new ArrayList<>();
        CheckOptions.Builder options = CheckOptions.builder().outputDirectory(Path.of("cuda-stack-budget"))
                .environment(System.getenv()).frontend(CliFrontend.INSTANCE);
        boolean quiet = false;
        boolean timings = false;
        Path launchLog = null;
        Path libraryLog = null;
        Path baseline = null;
        String maxGrowth = null;
        boolean ignoreMissingBaseline = false;
        Path suppressions = null;
        boolean failOnUnusedSuppressions = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "-h", "--help" -> {
                    return null;
                }
                case CliFrontend.DEVICES -> options.devicePresets(value(args, ++i, arg));
                case CliFrontend.DEVICE -> devices.add(device(value(args, ++i, arg)));
                case CliFrontend.MAX_RESERVATION -> options.maxReservation(value(args, ++i, arg));
                case CliFrontend.MAX_STACK -> options.maxStackPerThread(value(args, ++i, arg));
                case CliFrontend.CUOBJDUMP -> options.cuobjdump(value(args, ++i, arg));
                case CliFrontend.ENGINE -> options.engine(value(args, ++i, arg));
                case CliFrontend.OUTPUT -> options.outputDirectory(Path.of(value(args, ++i, arg)));
                case CliFrontend.TOP -> options.top(number(value(args, ++i, arg), arg));
                case CliFrontend.PARALLELISM -> options.parallelism(number(value(args, ++i, arg), arg));
                case CliFrontend.TIMEOUT -> options.timeout(timeout(number(value(args, ++i, arg), arg)));
                case CliFrontend.NO_DETECT -> options.detectLocalDevices(false);
                case CliFrontend.NO_FAIL_ON_UNREADABLE -> options.failOnUnreadable(false);
                case CliFrontend.PLATFORMS -> options.platforms(value(args, ++i, arg));
                case CliFrontend.CACHE_DIRECTORY -> options.cacheDirectory(Path.of(value(args, ++i, arg)));
                case CliFrontend.NO_CACHE -> options.useCache(false);
                case CliFrontend.JIT_FRAMES -> options.jitFrames(value(args, ++i, arg));
                case CliFrontend.PTXAS -> options.ptxas(value(args, ++i, arg));
                case CliFrontend.DRIVER_CUDA_VERSION -> options.driverCudaVersion(value(args, ++i, arg));
                case CliFrontend.FORMATS -> options.output(OutputOptions.of(value(args, ++i, arg), null));
                // gate (issue 12)
                case CliFrontend.SUPPRESSIONS -> suppressions = Path.of(value(args, ++i, arg));
                case CliFrontend.FAIL_ON_UNUSED_SUPPRESSIONS -> failOnUnusedSuppressions = true;
                case CliFrontend.LAUNCH_LOG -> launchLog = Path.of(value(args, ++i, arg));
                case CliFrontend.LIBRARY_LOG -> libraryLog = Path.of(value(args, ++i, arg));
                // issue 12, baselines
                case CliFrontend.BASELINE -> baseline = Path.of(value(args, ++i, arg));
                case CliFrontend.MAX_GROWTH -> maxGrowth = value(args, ++i, arg);
                case CliFrontend.IGNORE_MISSING_BASELINE -> ignoreMissingBaseline = true;
                case "-v", CliFrontend.VERBOSE -> options.verbose(true);
                case "-q", "--quiet" -> quiet = true;
                case "--timings" -> timings = true;
                default -> {
                    if (arg.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + arg + "\n" + USAGE);
                    }
                    Path path = Path.of(arg);
                    if (Files.isDirectory(path)) {
                        fileSets.add(new FileSetSpec(path, FileSetSpec.DEFAULT_INCLUDES, List.of()));
                    } else if (isJar(path)) {
                        jars.add(new JarInput(path, ""));
                    } else {
                        files.add(path);
                    }
                }
            }
        }
        if (fileSets.isEmpty() && files.isEmpty() && jars.isEmpty()) {
            throw new IllegalArgumentException("no file or directory given\n" + USAGE);
        }
        if (libraryLog != null && launchLog == null) {
            throw new IllegalArgumentException(CliFrontend.LIBRARY_LOG + " needs " + CliFrontend.LAUNCH_LOG);
        }
        options.baseline(new BaselineOptions(baseline, maxGrowth, ignoreMissingBaseline));
        if (suppressions != null || failOnUnusedSuppressions) {
            options.gate(new GateOptions(suppressions, failOnUnusedSuppressions));
        }
        return new Command(options.fileSets(fileSets).libraryFiles(files).devices(devices)
                .jarScan(new JarScanOptions(jars, List.of(), List.of())).launchLog(launchLog).libraryLog(libraryLog)
                .build(), quiet, timings);
    }

    private static Duration timeout(int seconds) {
        if (seconds < 1) {
            throw new IllegalArgumentException(CliFrontend.TIMEOUT + " " + seconds + " must be at least 1 second");
        }
        return Duration.ofSeconds(seconds);
    }

    private static boolean isJar(Path path) {
        String name = path.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        return name.endsWith(".jar") || name.endsWith(".zip");
    }

    private static DeviceDefinition device(String spec) {
        String[] parts = spec.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException(CliFrontend.DEVICE + " '" + spec
                    + "': use NAME:COMPUTE_CAPABILITY:MAX_RESIDENT_THREADS");
        }
        return new DeviceDefinition(null, parts[0], parts[1], parts[2], null, null, null, null);
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int number(String text, String option) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + text + "' is not a whole number");
        }
    }
}
