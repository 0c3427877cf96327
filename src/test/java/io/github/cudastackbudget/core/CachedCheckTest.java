package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole check with the kernel cache: a miss and a hit give byte-identical reports (and equal those of a check
 * without the cache), the hit reads nothing with the engine, changed bytes are never served, and a damaged entry or an
 * unwritable directory only warns. Inputs of the golden scenarios (ReportsUnchangedTest): the native-reader matrix
 * (native), a JAR of the nvcc-built test binaries read in place (auto), and the four recorded third-party libraries
 * (real cuobjdump 13.0 output replayed).
 */
class CachedCheckTest {

    private static final List<String> REPORTS = List.of("cuda-stack-budget.json", "cuda-stack-budget.txt",
            "cuda-stack-budget.html");

    @TempDir
    Path tmp;

    /** One check: its log lines and its reports. */
    private record Run(List<String> info, List<String> warnings, Map<String, byte[]> reports) {
        long cachedLines() {
            return info.stream().filter(line -> line.startsWith("  [") && line.endsWith(" (cached)")).count();
        }

        String summary() {
            return info.stream().filter(line -> line.startsWith("Kernel cache: ")).reduce((a, b) -> b).orElse(null);
        }
    }

    private Run run(CheckOptions options, String name) throws Exception {
        List<String> info = Collections.synchronizedList(new ArrayList<>());
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        Path out = tmp.resolve("out");
        // the kernel cache's own behaviour: the check-result cache (RunCacheTest) would serve the second identical run
        CheckRunner.run(options.toBuilder().outputDirectory(out).build(), new CheckListener() {
            @Override
            public void info(String line) {
                info.add(line);
            }

            @Override
            public void warn(String line) {
                warnings.add(line);
            }
        }, false);
        Map<String, byte[]> reports = new LinkedHashMap<>();
        for (String report : REPORTS) {
            reports.put(report, Files.readAllBytes(out.resolve(report)));
        }
        // the next run writes into the same folder, so that paths in the reports are the same
        Files.move(out, tmp.resolve("out-" + name));
        return new Run(List.copyOf(info), List.copyOf(warnings), reports);
    }

    private static CheckOptions.Builder base(String engine) {
        return CheckOptions.builder().outputDirectory(Path.of("set-by-run")).engine(engine).detectLocalDevices(false)
                .parallelism(2).verbose(true)
                .devicePresets("h200-141gb,l4,rtx-5090,t4").maxReservation("1 GiB")
                .environment(Map.of("PATH", System.getenv().getOrDefault("PATH", "")));
    }

    private static void assertSameReports(Run expected, Run actual) {
        for (String report : REPORTS) {
            assertThat(actual.reports().get(report)).as(report).isEqualTo(expected.reports().get(report));
        }
    }

    private static long entries(Path cache) throws IOException {
        if (!Files.isDirectory(cache)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(cache)) {
            return files.filter(file -> file.toString().endsWith(".scan")).count();
        }
    }

    @Test
    void nativeMatrixMissThenHitGiveTheSameReportsAsNoCache() throws Exception {
        Path cache = tmp.resolve("cache");
        CheckOptions options = base("native").fileSets(List.of(new FileSetSpec(Path.of("target", "native-matrix")
                .toAbsolutePath(), FileSetSpec.DEFAULT_INCLUDES, List.of()))).cacheDirectory(cache).build();
        Run uncached = run(options.toBuilder().useCache(false).build(), "uncached");
        assertThat(cache).as("useCache=false neither reads nor writes the cache").doesNotExist();
        assertThat(uncached.summary()).isNull();
        Run miss = run(options, "miss");
        long files = miss.info().stream().filter(line -> line.startsWith("  [")).count();
        assertThat(files).isGreaterThan(20);
        assertThat(miss.summary()).isEqualTo("Kernel cache: 0 hit(s), " + files + " miss(es) in " + cache);
        assertThat(miss.cachedLines()).isZero();
        assertThat(entries(cache)).isEqualTo(files);
        Run hit = run(options, "hit");
        assertThat(hit.summary()).isEqualTo("Kernel cache: " + files + " hit(s), 0 miss(es) in " + cache);
        assertThat(hit.cachedLines()).isEqualTo(files);
        assertSameReports(uncached, miss);
        assertSameReports(miss, hit);
        assertThat(hit.warnings()).isEqualTo(miss.warnings());
    }

    @Test
    void jarEntriesReadInPlaceAreCachedToo() throws Exception {
        Map<String, Path> entries = new LinkedHashMap<>();
        entries.put("native/linux-x86_64/libframes.so", RecordedCuobjdump.testCuda("libframes.so"));
        entries.put("native/linux-x86_64/libhostonly.so", RecordedCuobjdump.testCuda("libhostonly.so"));
        entries.put("lib/libmixedptx.so", RecordedCuobjdump.testCuda("libmixedptx.so"));
        entries.put("lib/libframes_zstd.so", RecordedCuobjdump.testCuda("libframes_zstd.so"));
        Path jar = TestJars.jar(tmp.resolve("app-1.0.jar"), entries);
        Path cache = tmp.resolve("cache");
        CheckOptions options = base("auto").cuobjdump(tmp.resolve("no-cuobjdump").toString()).cacheDirectory(cache)
                .jarScan(new JarScanOptions(List.of(new JarInput(jar, "com.example:app:1.0")), List.of(), List.of()))
                .build();
        Run uncached = run(options.toBuilder().useCache(false).build(), "uncached");
        Run miss = run(options, "miss");
        Run hit = run(options, "hit");
        assertThat(miss.summary()).isEqualTo("Kernel cache: 0 hit(s), 3 miss(es) in " + cache);
        assertThat(hit.summary()).isEqualTo("Kernel cache: 3 hit(s), 0 miss(es) in " + cache);
        assertThat(hit.info()).as(String.join("\n", hit.info())).anyMatch(line -> line.contains("app-1.0.jar!/lib/libmixedptx.so: ")
                && line.endsWith(" (cached)"));
        assertSameReports(uncached, miss);
        assertSameReports(miss, hit);
    }

    @Test
    void recordedCuobjdumpReadsAreServedWithoutRunningTheToolAgain() throws Exception {
        Path tool = Files.createDirectories(tmp.resolve("tool"));
        Path cuobjdump = RecordedCuobjdump.replayByName(tool);
        List<Path> staged = new ArrayList<>();
        for (String library : RecordedCuobjdump.LIBRARIES) {
            staged.add(RecordedCuobjdump.stage(tmp.resolve("libs"), library));
        }
        Path cache = tmp.resolve("cache");
        CheckOptions options = base("cuobjdump").cuobjdump(cuobjdump.toString()).libraryFiles(staged)
                .usedBy("com.example:gpu-app:1.0").devicePresets("h100-sxm5-80gb,l4,v100-sxm2-32gb,h200-141gb")
                .maxReservation("256 MiB").maxStackPerThread("8 KiB").cacheDirectory(cache).build();
        Run uncached = run(options.toBuilder().useCache(false).build(), "uncached");
        Run miss = run(options, "miss");
        int callsAfterMiss = RecordedCuobjdump.calls(tool).size();
        Run hit = run(options, "hit");
        // the same bytes under four names: four keys, four entries
        assertThat(entries(cache)).isEqualTo(4);
        assertThat(hit.summary()).isEqualTo("Kernel cache: 4 hit(s), 0 miss(es) in " + cache);
        assertThat(RecordedCuobjdump.calls(tool).subList(callsAfterMiss, RecordedCuobjdump.calls(tool).size()))
                .as("the hit runs cuobjdump only for --version").containsExactly("--version");
        assertSameReports(uncached, miss);
        assertSameReports(miss, hit);
        // another cuobjdump (same version text, other executable) is another key
        Path otherTool = Files.createDirectories(tmp.resolve("other-tool"));
        Path other = RecordedCuobjdump.replayByName(otherTool);
        Run otherRun = run(options.toBuilder().cuobjdump(other.toString()).build(), "other");
        assertThat(otherRun.summary()).isEqualTo("Kernel cache: 0 hit(s), 4 miss(es) in " + cache);
    }

    @Test
    void changedBytesOfTheSameSizeAndTimeAreNeverServed() throws Exception {
        Path matrix = Path.of("target", "native-matrix", "cubin");
        Path first = matrix.resolve("matrix_sm_100.cubin");
        Path second = matrix.resolve("matrix_sm_100a.cubin");
        assertThat(Files.size(first)).isEqualTo(Files.size(second));
        assertThat(Files.readAllBytes(first)).isNotEqualTo(Files.readAllBytes(second));
        Path libs = Files.createDirectories(tmp.resolve("libs"));
        Path file = Files.copy(first, libs.resolve("kernels.cubin"));
        FileTime time = Files.getLastModifiedTime(file);
        Path cache = tmp.resolve("cache");
        CheckOptions options = base("native").libraryFiles(List.of(file)).devicePresets("b200").cacheDirectory(cache)
                .build();
        run(options, "first");
        Files.copy(second, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(file, time);
        Run changed = run(options, "changed");
        assertThat(changed.summary()).isEqualTo("Kernel cache: 0 hit(s), 1 miss(es) in " + cache);
        Run uncached = run(options.toBuilder().useCache(false).build(), "uncached");
        assertSameReports(uncached, changed);
        assertThat(new String(changed.reports().get("cuda-stack-budget.json"), java.nio.charset.StandardCharsets.UTF_8))
                .contains("\"sm_100a\"");
    }

    @Test
    void damagedEntriesAreOneWarningEachAndRewritten() throws Exception {
        Path cache = tmp.resolve("cache");
        CheckOptions options = base("native").libraryFiles(List.of(RecordedCuobjdump.testCuda("libframes.so"),
                RecordedCuobjdump.testCuda("libmixedptx.so"))).cacheDirectory(cache).build();
        Run miss = run(options, "miss");
        List<Path> files;
        try (Stream<Path> list = Files.list(cache)) {
            files = list.filter(Files::isRegularFile).sorted().toList(); // the entries, not the hashes/ folder
        }
        assertThat(files).hasSize(2);
        Files.write(files.get(0), new byte[] {'C', 'S', 'B'});
        byte[] second = Files.readAllBytes(files.get(1));
        second[second.length - 10] ^= 0x40;
        Files.write(files.get(1), second);
        Run damaged = run(options, "damaged");
        assertThat(damaged.warnings()).filteredOn(line -> line.startsWith("Kernel cache entry ")).hasSize(2)
                .anyMatch(line -> line.contains(files.get(0).toString()) && line.endsWith("ignored, it is rewritten"))
                .anyMatch(line -> line.contains(files.get(1).toString()) && line.contains("checksum mismatch"));
        assertThat(damaged.summary()).isEqualTo("Kernel cache: 0 hit(s), 2 miss(es) in " + cache);
        assertSameReports(miss, damaged);
        Run rewritten = run(options, "rewritten");
        assertThat(rewritten.summary()).isEqualTo("Kernel cache: 2 hit(s), 0 miss(es) in " + cache);
        assertThat(rewritten.warnings()).noneMatch(line -> line.startsWith("Kernel cache"));
        assertSameReports(miss, rewritten);
    }

    @Test
    void anUnwritableCacheDirectoryIsOneWarningAndTheCheckGoesOn() throws Exception {
        Path notADirectory = Files.writeString(tmp.resolve("a-file"), "x");
        CheckOptions options = base("native").libraryFiles(List.of(RecordedCuobjdump.testCuda("libframes.so"),
                RecordedCuobjdump.testCuda("libmixedptx.so"))).cacheDirectory(notADirectory).build();
        Run uncached = run(options.toBuilder().useCache(false).build(), "uncached");
        Run run = run(options, "unwritable");
        assertThat(run.warnings()).filteredOn(line -> line.startsWith("Kernel cache")).singleElement().asString()
                .startsWith("Kernel cache directory " + notADirectory + " cannot be written (")
                .endsWith("the check goes on without storing reads; set another cacheDirectory or useCache=false");
        assertSameReports(uncached, run);
    }
}
