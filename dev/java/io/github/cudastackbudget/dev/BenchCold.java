package io.github.cudastackbudget.dev;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Modes (3) and (4) of {@code dev/bench-cold.sh}: the check inside one running JVM, with a fresh class loader per
 * round as Maven loads a plugin, alternating with raw cuobjdump run from this JVM, so that the ratio is same-run.
 *
 * <pre>
 * java -cp TOOLS io.github.cudastackbudget.dev.BenchCold --classpath 'LIB/*:TOOLS' --devices LIST --work DIR
 *      [--rounds N] [--deadline-ms EPOCH_MS] [--cuobjdump PATH] FILE...
 * java -cp TOOLS io.github.cudastackbudget.dev.BenchCold --classpath 'LIB/*:TOOLS' --detect LISTFILE
 * </pre>
 *
 * <p>This class uses the JDK only: it must not see the plugin's classes itself. Every round builds a new
 * {@link URLClassLoader} over {@code --classpath} (parent: the platform class loader), loads {@link BenchColdCheck}
 * through it, runs the check and closes the loader; the time includes making the loader, loading and linking the
 * plugin's classes and closing it.
 *
 * <p>Per file: where the build has the content cache, one untimed-for-the-ratio priming run ({@code 4p}, a cold run
 * that fills a fresh cache directory); then per round (1) {@code cuobjdump --dump-resource-usage FILE} to a discarded
 * output, (3) the check without the cache, (4) the check with the primed cache. One tab-separated line per step on
 * standard output: {@code path mode round seconds status note}; progress lines on standard error. A round is not
 * started when the previous round's time would run past {@code --deadline-ms}.
 */
public final class BenchCold {

    private static final String CHECK = "io.github.cudastackbudget.dev.BenchColdCheck";

    private BenchCold() {
    }

    public static void main(String[] args) throws Exception {
        List<URL> classpath = new ArrayList<>();
        String devices = "h200-141gb,h100-sxm5-80gb,a100-sxm4-80gb";
        Path work = null;
        int rounds = 3;
        long deadline = Long.MAX_VALUE;
        String cuobjdump = null;
        Path detect = null;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--classpath" -> classpath = urls(args[++i]);
                case "--devices" -> devices = args[++i];
                case "--work" -> work = Path.of(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--deadline-ms" -> deadline = Long.parseLong(args[++i]);
                case "--cuobjdump" -> cuobjdump = args[++i];
                case "--detect" -> detect = Path.of(args[++i]);
                default -> files.add(args[i]);
            }
        }
        if (classpath.isEmpty()) {
            System.err.println("usage: BenchCold --classpath 'LIB/*:TOOLS' (--detect LISTFILE | --work DIR FILE...)");
            System.exit(2);
        }
        URL[] urls = classpath.toArray(URL[]::new);
        if (detect != null) {
            @SuppressWarnings("unchecked")
            List<String> found = (List<String>) call(urls, "withDeviceCode", new Class<?>[] {List.class},
                    Files.readAllLines(detect, StandardCharsets.UTF_8));
            found.forEach(System.out::println);
            return;
        }
        if (work == null || files.isEmpty()) {
            System.err.println("BenchCold: --work DIR and at least one FILE are needed");
            System.exit(2);
        }
        boolean cache = (Boolean) call(urls, "cacheSupported", new Class<?>[0]);
        if (!cache) {
            progress("(4) n/a: this build has no cache");
        }
        PrintStream out = System.out;
        for (String file : files) {
            String name = Path.of(file).getFileName().toString();
            Path cacheDir = work.resolve("cache");
            delete(cacheDir);
            if (cache) {
                Step prime = check(urls, file, devices, work.resolve("out4"), cacheDir);
                out.println(row(file, "4p", 0, prime));
                progress(name + " (4p) cache priming " + prime);
            }
            double previous = 0;
            for (int round = 1; round <= rounds; round++) {
                if (System.currentTimeMillis() + (long) (previous * 1000) > deadline) {
                    out.println(file + "\tbudget\t" + round + "\t0\t0\tround not started: time budget");
                    progress(name + " round " + round + " not started: time budget");
                    break;
                }
                long start = System.nanoTime();
                StringBuilder line = new StringBuilder(name + " round " + round + ":");
                if (cuobjdump != null) {
                    Step raw = cuobjdump(cuobjdump, file);
                    out.println(row(file, "1j", round, raw));
                    line.append(" (1) ").append(raw);
                }
                Step cold = check(urls, file, devices, work.resolve("out3"), null);
                out.println(row(file, "3", round, cold));
                line.append(" (3) ").append(cold);
                if (cache) {
                    Step warm = check(urls, file, devices, work.resolve("out4"), cacheDir);
                    out.println(row(file, "4", round, warm));
                    line.append(" (4) ").append(warm);
                }
                out.flush();
                progress(line.toString());
                previous = (System.nanoTime() - start) / 1e9;
            }
        }
    }

    /** One timed step: seconds, 0 or the exit status / 1 for an exception, and a note. */
    record Step(double seconds, int status, String note) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.3f s", seconds) + (status == 0 ? "" : " (" + note + ")");
        }
    }

    private static String row(String file, String mode, int round, Step step) {
        return file + "\t" + mode + "\t" + round + "\t" + String.format(Locale.ROOT, "%.4f", step.seconds()) + "\t"
                + step.status() + "\t" + step.note().replace('\t', ' ').replace('\n', ' ');
    }

    private static Step cuobjdump(String tool, String file) throws IOException, InterruptedException {
        System.gc();
        long start = System.nanoTime();
        Process process = new ProcessBuilder(tool, "--dump-resource-usage", file)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        int status = process.waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Step(seconds, status, status == 0 ? "" : "cuobjdump exit status " + status);
    }

    private static Step check(URL[] urls, String file, String devices, Path output, Path cacheDir)
            throws IOException {
        delete(output);
        System.gc();
        long start = System.nanoTime();
        String note;
        int status = 0;
        try {
            note = (String) call(urls, "run", new Class<?>[] {List.class, String.class, String.class, String.class},
                    List.of(file), devices, output.toString(), cacheDir == null ? null : cacheDir.toString());
        } catch (Exception e) {
            status = 1;
            note = "error: " + e;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Step(seconds, status, note);
    }

    /** Calls a static method of {@link BenchColdCheck} as loaded by a new class loader over {@code urls}. */
    private static Object call(URL[] urls, String method, Class<?>[] types, Object... values) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            Method target = Class.forName(CHECK, true, loader).getMethod(method, types);
            try {
                return target.invoke(null, values);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }

    /** Class path entries separated by the platform's separator; {@code DIR/*} stands for the jars in DIR. */
    private static List<URL> urls(String classpath) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.endsWith("/*")) {
                try (Stream<Path> jars = Files.list(Path.of(entry.substring(0, entry.length() - 2)))) {
                    for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                        urls.add(jar.toUri().toURL());
                    }
                }
            } else {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        return urls;
    }

    private static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void progress(String line) {
        System.err.println("  [jvm] " + line);
    }
}
