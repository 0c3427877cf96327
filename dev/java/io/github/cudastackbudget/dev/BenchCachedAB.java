package io.github.cudastackbudget.dev;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Mode (4) of the cold-run benchmark for two or more plugin jars in one JVM, alternating: what one change does to a
 * cached re-check, where a difference of a millisecond or two is lost between separate runs.
 *
 * <pre>
 * java -cp TOOLS io.github.cudastackbudget.dev.BenchCachedAB --tools TOOLS --work DIR [--rounds N] [--uncached]
 *      JAR,JAR[,...] FILE
 * </pre>
 *
 * <p>The JDK only, as {@link BenchCold}: per round and jar a new {@link URLClassLoader} over the jar and
 * {@code --tools} (parent: the platform class loader) runs {@link BenchColdCheck} with the jar's own cache and output
 * folders under {@code --work}; round r takes the jars in order when r is even, in reverse when odd. Each jar's cache is
 * primed first, then the run waits 3 s, so that the report files are older than the hash memo's 2-second window (as
 * between two builds) and a re-check finds them unchanged. The first two rounds are dropped; per jar: median, 25th
 * percentile and minimum of the rest, in milliseconds.
 *
 * <p>With {@code --uncached}, mode (3) instead: each round a check without the cache (no priming, no wait), the same
 * alternation: what one change does to the in-JVM cold check on a machine whose speed varies between runs. A variant
 * may be a class path ({@code PATCH.jar:BASE.jar}, first wins): a jar of the changed classes alone over the carried
 * jar, where two whole jars do not fit the device tool's transfer limit.
 */
public final class BenchCachedAB {

    private static final String CHECK = "io.github.cudastackbudget.dev.BenchColdCheck";
    private static final String DEVICES = "h200-141gb,h100-sxm5-80gb,a100-sxm4-80gb";

    private BenchCachedAB() {
    }

    public static void main(String[] args) throws Exception {
        Path tools = null;
        Path work = null;
        int rounds = 40;
        boolean uncached = false;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tools" -> tools = Path.of(args[++i]);
                case "--work" -> work = Path.of(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--uncached" -> uncached = true;
                default -> rest.add(args[i]);
            }
        }
        if (tools == null || work == null || rest.size() != 2 || rounds < 3) {
            System.err.println("usage: BenchCachedAB --tools TOOLS --work DIR [--rounds N>=3] [--uncached] JAR,JAR[,...] FILE");
            System.exit(2);
        }
        String[] jars = rest.get(0).split(",");
        String file = rest.get(1);
        List<List<Long>> times = new ArrayList<>();
        for (String jar : jars) {
            for (String part : jar.split(":")) {
                if (!Files.isRegularFile(Path.of(part))) {
                    System.err.println("BenchCachedAB: no jar " + part);
                    System.exit(2);
                }
            }
            times.add(new ArrayList<>());
        }
        if (!uncached) {
            for (int j = 0; j < jars.length; j++) {
                run(jars[j], tools, work, j, file, true); // primes jar j's cache
            }
            Thread.sleep(3000);
        }
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < jars.length; k++) {
                int j = round % 2 == 0 ? k : jars.length - 1 - k;
                long micros = run(jars[j], tools, work, j, file, !uncached);
                if (round >= 2) {
                    times.get(j).add(micros);
                }
            }
        }
        for (int j = 0; j < jars.length; j++) {
            List<Long> sorted = times.get(j);
            Collections.sort(sorted);
            System.out.printf("%s\tmedian %.1f ms\tp25 %.1f ms\tmin %.1f ms\tn %d%n", jars[j],
                    sorted.get(sorted.size() / 2) / 1000.0, sorted.get(sorted.size() / 4) / 1000.0,
                    sorted.get(0) / 1000.0, sorted.size());
        }
    }

    /** One check of {@code file} with jar {@code index}'s output (and cache, where {@code cached}); microseconds. */
    private static long run(String jar, Path tools, Path work, int index, String file, boolean cached)
            throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String part : jar.split(":")) {
            urls.add(Path.of(part).toUri().toURL());
        }
        urls.add(tools.toUri().toURL());
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            long start = System.nanoTime();
            loader.loadClass(CHECK).getMethod("run", List.class, String.class, String.class, String.class)
                    .invoke(null, List.of(file), DEVICES, work.resolve("out" + index).toString(),
                            cached ? work.resolve("cache" + index).toString() : null);
            return (System.nanoTime() - start) / 1000;
        }
    }
}
