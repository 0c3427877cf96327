package io.github.cudastackbudget.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.model.LibraryScan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store: hits and misses, damaged entries, an unwritable directory, concurrent writers, the default location. */
class KernelCacheTest {

    @TempDir
    Path tmp;

    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

    private static CacheKey key(String name) {
        return new CacheKey("native", "reader 1, plugin test", name, 1, "ab".repeat(32));
    }

    private static LibraryScan scan() throws Exception {
        return EntryFormatTest.realScans().get(0);
    }

    @Test
    void storeThenLoadIsAHitAndAnUnknownKeyAMiss() throws Exception {
        KernelCache cache = new KernelCache(tmp.resolve("cache"), warnings::add);
        LibraryScan scan = scan();
        assertThat(cache.load(key("a.so"), scan.path(), System.nanoTime())).isEmpty();
        cache.store(key("a.so"), scan);
        Optional<LibraryScan> hit = cache.load(key("a.so"), scan.path(), System.nanoTime());
        assertThat(hit).isPresent();
        assertThat(hit.get().records()).isEqualTo(scan.records());
        assertThat(cache.load(key("b.so"), scan.path(), System.nanoTime())).isEmpty();
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.misses()).isEqualTo(2);
        assertThat(cache.summary()).isEqualTo("Kernel cache: 1 hit(s), 2 miss(es) in " + tmp.resolve("cache"));
        assertThat(warnings).isEmpty();
        try (Stream<Path> files = Files.list(tmp.resolve("cache"))) {
            assertThat(files.map(file -> file.getFileName().toString()).toList())
                    .as("one entry, no temporary file left").containsExactly(key("a.so").fileName());
        }
    }

    @Test
    void aDamagedEntryIsOneWarningNamingItAndIsRewritten() throws Exception {
        KernelCache cache = new KernelCache(tmp, warnings::add);
        LibraryScan scan = scan();
        cache.store(key("a.so"), scan);
        Path entry = tmp.resolve(key("a.so").fileName());
        byte[] bytes = Files.readAllBytes(entry);
        Files.write(entry, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        assertThat(cache.load(key("a.so"), scan.path(), System.nanoTime())).isEmpty();
        assertThat(warnings).singleElement().asString().startsWith("Kernel cache entry " + entry + " is unusable (")
                .endsWith("): ignored, it is rewritten");
        cache.store(key("a.so"), scan);
        assertThat(Files.readAllBytes(entry)).isEqualTo(bytes);
        assertThat(cache.load(key("a.so"), scan.path(), System.nanoTime())).isPresent();
        // an entry of another key under this key's name (a foreign file)
        Files.copy(entry, tmp.resolve(key("b.so").fileName()));
        assertThat(cache.load(key("b.so"), scan.path(), System.nanoTime())).isEmpty();
        assertThat(warnings).hasSize(2).last().asString().contains("written for another key");
    }

    @Test
    void anUnwritableDirectoryIsOneWarningAndNoFailure() throws Exception {
        Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
        KernelCache cache = new KernelCache(notADirectory.resolve("cache"), warnings::add, "set another place");
        LibraryScan scan = scan();
        assertThat(cache.load(key("a.so"), scan.path(), System.nanoTime())).isEmpty();
        cache.store(key("a.so"), scan);
        cache.store(key("b.so"), scan);
        assertThat(warnings).singleElement().asString()
                .startsWith("Kernel cache directory " + notADirectory.resolve("cache") + " cannot be written (")
                .endsWith("): the check goes on without storing reads; set another place");
    }

    @Test
    void concurrentWritersOfOneKeyLeaveOneWholeEntryAndReadersNeverSeeAPartOne() throws Exception {
        LibraryScan scan = EntryFormatTest.realScans().stream().max(java.util.Comparator.comparingInt(
                s -> s.records().size())).orElseThrow();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> futures = new ArrayList<>();
        // each thread its own cache object, as separate builds sharing the directory
        for (int t = 0; t < threads; t++) {
            boolean writer = t % 2 == 0;
            futures.add(pool.submit(() -> {
                KernelCache cache = new KernelCache(tmp, warnings::add);
                start.await();
                int hits = 0;
                for (int i = 0; i < 40; i++) {
                    if (writer) {
                        cache.store(key("a.so"), scan);
                    } else if (cache.load(key("a.so"), scan.path(), System.nanoTime()).isPresent()) {
                        hits++;
                    }
                }
                return hits;
            }));
        }
        start.countDown();
        for (Future<Integer> future : futures) {
            future.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertThat(warnings).as("no reader saw a partial entry").isEmpty();
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.toList()).singleElement().isEqualTo(tmp.resolve(key("a.so").fileName()));
        }
        assertThat(new KernelCache(tmp, warnings::add).load(key("a.so"), scan.path(), System.nanoTime())).isPresent();
    }

    @Test
    void theDefaultDirectoryFollowsEachSystemsConvention() {
        assertThat(KernelCache.defaultDirectory(Map.of(), "Linux", "/home/me"))
                .isEqualTo(Path.of("/home/me", ".cache", "cuda-stack-budget"));
        assertThat(KernelCache.defaultDirectory(Map.of("XDG_CACHE_HOME", "/var/cache/me"), "Linux", "/home/me"))
                .isEqualTo(Path.of("/var/cache/me", "cuda-stack-budget"));
        assertThat(KernelCache.defaultDirectory(Map.of("XDG_CACHE_HOME", "relative/dir"), "Mac OS X", "/Users/me"))
                .as("a relative XDG_CACHE_HOME is ignored, as the specification says")
                .isEqualTo(Path.of("/Users/me", ".cache", "cuda-stack-budget"));
        assertThat(KernelCache.defaultDirectory(Map.of("LOCALAPPDATA", "C:/Users/me/AppData/Local"), "Windows 11",
                "C:/Users/me")).isEqualTo(Path.of("C:/Users/me/AppData/Local", "cuda-stack-budget", "cache"));
        assertThat(KernelCache.defaultDirectory(Map.of(), "Windows 11", "C:/Users/me"))
                .isEqualTo(Path.of("C:/Users/me", "AppData", "Local", "cuda-stack-budget", "cache"));
    }

    @Test
    void testsNeverUseTheUsersCacheDirectory() {
        // surefire points XDG_CACHE_HOME (and LOCALAPPDATA) under target (pom.xml)
        assertThat(KernelCache.defaultDirectory().toAbsolutePath().toString())
                .startsWith(Path.of("target").toAbsolutePath().toString());
        assertThat(KernelCache.defaultDirectory())
                .isNotEqualTo(Path.of(System.getProperty("user.home"), ".cache", "cuda-stack-budget"));
    }

    @Test
    void thePluginVersionIsKnownOrDatedTheBuild() {
        assertThat(KernelCache.pluginVersion()).matches("(unknown|[0-9][^ ]*)( built [0-9]+)?");
    }
}
