package io.github.cudastackbudget.dev;

import io.github.cudastackbudget.cli.CliFrontend;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One round of the check for {@link BenchCold}: loaded by a fresh class loader over the plugin jar and its runtime
 * jars in every round, as Maven loads a plugin, and called by reflection with JDK types only (nothing of this class
 * loader's leaks into the caller's). It runs what {@code cli.Main --engine native --devices LIST --output DIR FILE...}
 * runs, through the public API ({@link CheckOptions}, {@link CheckRunner}): all reports written, the text report
 * rendered; only the printing to a console is left out.
 *
 * <p>The content cache ({@code CheckOptions.Builder.useCache(boolean)}, {@code cacheDirectory(Path)}) is looked up by
 * reflection, so that this class compiles and runs against builds with and without it.
 */
public final class BenchColdCheck {

    private BenchColdCheck() {
    }

    /** Whether this build's options have the content cache ({@code useCache} and {@code cacheDirectory}). */
    public static boolean cacheSupported() {
        return builderMethod("useCache", boolean.class) != null && builderMethod("cacheDirectory", Path.class) != null;
    }

    /**
     * Runs the check once.
     *
     * @param files          the files to check
     * @param devices        catalog preset ids, comma-separated
     * @param output         the report directory
     * @param cacheDirectory the content cache's directory, or null to run without the cache (where the build has one)
     * @return a short summary: {@code records=N failed=BOOL reports=N}
     * @throws UnsupportedOperationException a cache directory is given and this build has no cache
     * @throws Exception                     whatever the check throws (a {@code CheckException} for broken input)
     */
    public static String run(List<String> files, String devices, String output, String cacheDirectory)
            throws Exception {
        List<Path> paths = new ArrayList<>();
        for (String file : files) {
            paths.add(Path.of(file));
        }
        CheckOptions.Builder builder = CheckOptions.builder().outputDirectory(Path.of(output))
                .environment(System.getenv()).frontend(CliFrontend.INSTANCE).engine("native")
                .devicePresets(devices).detectLocalDevices(false).libraryFiles(paths);
        Method useCache = builderMethod("useCache", boolean.class);
        Method directory = builderMethod("cacheDirectory", Path.class);
        if (cacheDirectory == null) {
            if (useCache != null) {
                invoke(useCache, builder, false);
            }
        } else {
            if (useCache == null || directory == null) {
                throw new UnsupportedOperationException("this build has no cache");
            }
            invoke(useCache, builder, true);
            invoke(directory, builder, Path.of(cacheDirectory));
        }
        CheckRunner.Outcome outcome = CheckRunner.run(builder.build(), Boolean.getBoolean("bench.timings")
                ? new StageLines() : CheckListener.SILENT);
        // a re-check the check-result cache replayed has no result, only its reports and lines
        return (outcome.result() == null ? "replayed" : "records=" + outcome.result().index().recordCount())
                + " failed=" + outcome.failed() + " reports=" + outcome.reports().size();
    }

    /** The files among the candidates that the plugin's detector finds device code in. */
    public static List<String> withDeviceCode(List<String> candidates) {
        List<String> found = new ArrayList<>();
        for (String candidate : candidates) {
            try {
                if (DeviceCodeDetector.probe(Path.of(candidate)).hasDeviceCode()) {
                    found.add(candidate);
                }
            } catch (IOException | RuntimeException e) {
                // unreadable (permissions, a vanished file): not a library to time
            }
        }
        return found;
    }

    /**
     * With {@code -Dbench.timings=true}: the check's debug lines (its stage times: what {@code cli.Main --timings} prints) to standard
     * error, so that a round's time can be split into its stages in this mode too.
     */
    private static final class StageLines implements CheckListener {
        @Override
        public void info(String line) {
        }

        @Override
        public void warn(String line) {
        }

        @Override
        public synchronized void debug(String line) {
            System.err.println("[timings] " + line);
        }
    }

    private static Method builderMethod(String name, Class<?> parameter) {
        try {
            return CheckOptions.Builder.class.getMethod(name, parameter);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static void invoke(Method method, CheckOptions.Builder builder, Object value) throws Exception {
        try {
            method.invoke(builder, value);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
