package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check-result cache (issue 11) over real nvcc-built libraries: an identical re-check writes byte-identical reports
 * and the same lines without reading a kernel, and replays the warnings; a changed byte, another option or another
 * format is another entry; a corrupt entry warns and is rewritten; {@code useCache=false}, the cuobjdump engine and the
 * aggregate's {@code reuse=false} never use it.
 */
class RunCacheTest {

    private static final List<String> REPORTS = List.of("cuda-stack-budget.json", "cuda-stack-budget.txt",
            "cuda-stack-budget.html");

    @TempDir
    Path tmp;

    private record Run(CheckRunner.Outcome outcome, List<String> info, List<String> warnings,
            Map<String, byte[]> reports) {
        boolean replayed() {
            return info.stream().anyMatch(line -> line.startsWith("Check-result cache: "));
        }

        boolean readKernels() {
            return info.stream().anyMatch(line -> line.startsWith("Reading "));
        }
    }

    private Run run(CheckOptions options) throws Exception {
        return run(options, true);
    }

    private Run run(CheckOptions options, boolean reuse) throws Exception {
        List<String> info = Collections.synchronizedList(new ArrayList<>());
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        CheckRunner.Outcome outcome = CheckRunner.run(options, new CheckListener() {
            @Override
            public void info(String line) {
                info.add(line);
            }

            @Override
            public void warn(String line) {
                warnings.add(line);
            }
        }, reuse);
        Map<String, byte[]> reports = new LinkedHashMap<>();
        for (Path report : outcome.reports()) {
            reports.put(report.getFileName().toString(), Files.readAllBytes(report));
        }
        return new Run(outcome, List.copyOf(info), List.copyOf(warnings), reports);
    }

    private CheckOptions options(Path library, Path cache) {
        return CheckOptions.builder().outputDirectory(tmp.resolve("out")).engine("native").detectLocalDevices(false)
                .parallelism(2).devicePresets("h200-141gb,a100-sxm4-80gb").maxReservation("1 GiB")
                .libraryFiles(List.of(library)).cacheDirectory(cache)
                .environment(Map.of("PATH", System.getenv().getOrDefault("PATH", ""))).build();
    }

    private Path copy(String name) throws IOException {
        Path dir = tmp.resolve("libs");
        Files.createDirectories(dir);
        return Files.copy(RecordedCuobjdump.testCuda(name), dir.resolve(name));
    }

    private static long entries(Path cache) throws IOException {
        Path results = cache.resolve(RunCache.SUBDIRECTORY);
        if (!Files.isDirectory(results)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(results)) {
            return files.filter(file -> file.toString().endsWith(RunCache.SUFFIX)).count();
        }
    }

    @Test
    void anIdenticalReCheckReplaysTheReportsLinesAndWarnings() throws Exception {
        Path cache = tmp.resolve("cache");
        // libjitmixed.so: PTX-only kernels, so the check warns (replayed on the hit) and a100 exceeds 1 GiB (violations)
        CheckOptions options = options(copy("libjitmixed.so"), cache);
        Run uncached = run(options.toBuilder().useCache(false).build());
        assertThat(cache).as("useCache=false writes no cache").doesNotExist();
        Run first = run(options);
        assertThat(first.replayed()).isFalse();
        assertThat(first.readKernels()).isTrue();
        assertThat(entries(cache)).isEqualTo(1);
        // the reports of the previous runs are gone: the replay must write them
        Files.write(tmp.resolve("out").resolve("cuda-stack-budget.json"), new byte[] {'x'});
        Files.delete(tmp.resolve("out").resolve("cuda-stack-budget.html"));
        Run second = run(options);
        assertThat(second.replayed()).as(String.join("\n", second.info())).isTrue();
        assertThat(second.readKernels()).as("nothing is read on a hit").isFalse();
        assertThat(second.outcome().result()).isNull();
        assertThat(second.reports().keySet()).containsExactlyElementsOf(REPORTS);
        for (String report : REPORTS) {
            assertThat(second.reports().get(report)).as(report).isEqualTo(first.reports().get(report))
                    .isEqualTo(uncached.reports().get(report));
        }
        assertThat(second.warnings()).isNotEmpty().isEqualTo(first.warnings());
        assertThat(second.outcome().reportLines()).isEqualTo(first.outcome().reportLines());
        assertThat(second.outcome().violations()).isNotEmpty().isEqualTo(first.outcome().violations());
        assertThat(second.outcome().summary()).isEqualTo(first.outcome().summary());
        assertThat(second.outcome().reports()).isEqualTo(first.outcome().reports());
        assertThat(second.outcome().noKernels()).isEqualTo(first.outcome().noKernels()).isFalse();
        assertThat(second.outcome().grewOverBaseline()).isFalse();
        assertThat(second.info()).anyMatch(line -> line.startsWith("Check-result cache: 1 input file(s) unchanged ("));
    }

    @Test
    void anInputUnchangedSinceItWasHashedIsNotReadAgainOnAHit() throws Exception {
        // remembered hashes (HashMemo): only a file at least 2 s old when hashed is remembered
        Path cache = tmp.resolve("cache");
        Path library = copy("libframes.so");
        Thread.sleep(2_100);
        CheckOptions options = options(library, cache);
        String size = io.github.cudastackbudget.core.report.model.Figures.grouped(Files.size(library));
        Run first = run(options);
        Run second = run(options);

        assertThat(first.replayed()).isFalse();
        assertThat(second.replayed()).isTrue();
        assertThat(second.info()).anyMatch(line -> line.startsWith("Check-result cache: 1 input file(s) unchanged (0 "
                + "bytes hashed and " + size + " bytes unchanged since hashed, in "));
        Files.write(library, Files.readAllBytes(library)); // the same bytes, a new change time: hashed again
        Run rewritten = run(options);
        assertThat(rewritten.replayed()).isTrue();
        assertThat(rewritten.info()).anyMatch(line -> line.startsWith("Check-result cache: 1 input file(s) unchanged ("
                + size + " bytes hashed in "));
    }

    private static void assertSameReports(Run actual, Run expected) {
        assertThat(actual.reports().keySet()).isEqualTo(expected.reports().keySet());
        expected.reports().forEach((name, bytes) -> assertThat(actual.reports().get(name)).as(name).isEqualTo(bytes));
    }

    @Test
    void aHitLeavesReportsThatHoldItsBytesAloneAndRewritesTheOthers() throws Exception {
        Path cache = tmp.resolve("cache");
        Path library = copy("libframes.so");
        CheckOptions options = options(library, cache);
        Run first = run(options);
        Path out = tmp.resolve("out");
        Path json = out.resolve("cuda-stack-budget.json");
        Path text = out.resolve("cuda-stack-budget.txt");
        Path html = out.resolve("cuda-stack-budget.html");
        Thread.sleep(2_100); // the reports are then old enough to be remembered once hashed
        Object jsonInode = Files.getAttribute(json, "unix:ino");
        java.nio.file.attribute.FileTime jsonTime = Files.getLastModifiedTime(json);

        Run second = run(options);
        assertThat(second.replayed()).isTrue();
        assertThat(Files.getAttribute(json, "unix:ino")).as("the JSON report was not written again")
                .isEqualTo(jsonInode);
        assertThat(Files.getLastModifiedTime(json)).isEqualTo(jsonTime);
        assertSameReports(second, first);

        // the same size, another byte: written again; a deleted report: written again
        byte[] changed = Files.readAllBytes(text);
        changed[changed.length / 2] ^= 1;
        Files.write(text, changed);
        Files.delete(html);
        Run third = run(options);
        assertThat(third.replayed()).isTrue();
        assertSameReports(third, first);
        assertThat(Files.getAttribute(json, "unix:ino")).isEqualTo(jsonInode);
        assertThat(third.outcome().reports()).contains(json, text, html);
    }

    @Test
    void aChangedByteAnotherOptionOrFormatIsAnotherEntry() throws Exception {
        Path cache = tmp.resolve("cache");
        Path library = copy("libframes.so");
        CheckOptions options = options(library, cache);
        Run first = run(options);
        // one byte of the file's last page (section headers, not the device code): another key, read again
        byte[] bytes = Files.readAllBytes(library);
        bytes[bytes.length - 1] ^= 1;
        Files.write(library, bytes);
        Run changed = run(options);
        assertThat(changed.replayed()).isFalse();
        assertThat(changed.readKernels()).isTrue();
        assertThat(entries(cache)).isEqualTo(2);
        Run budget = run(options.toBuilder().maxReservation("8 GiB").build());
        assertThat(budget.replayed()).isFalse();
        assertThat(budget.outcome().violations()).isEmpty();
        assertThat(first.outcome().violations()).isNotEmpty();
        Run formats = run(options.toBuilder().output(new io.github.cudastackbudget.core.report.OutputOptions(
                List.of("json", "sarif"), null)).build());
        assertThat(formats.replayed()).isFalse();
        assertThat(formats.reports().keySet()).containsExactly("cuda-stack-budget.json", "cuda-stack-budget.sarif");
        Run again = run(options.toBuilder().output(new io.github.cudastackbudget.core.report.OutputOptions(
                List.of("json", "sarif"), null)).build());
        assertThat(again.replayed()).isTrue();
        assertThat(again.reports().keySet()).containsExactly("cuda-stack-budget.json", "cuda-stack-budget.sarif");
        assertThat(tmp.resolve("out").resolve("cuda-stack-budget.html")).as("the unselected formats are removed")
                .doesNotExist();
        assertThat(entries(cache)).isEqualTo(4);
    }

    @Test
    void aCorruptEntryWarnsAndIsRewritten() throws Exception {
        Path cache = tmp.resolve("cache");
        CheckOptions options = options(copy("libframes_zstd.so"), cache);
        Run first = run(options);
        Path entry;
        try (Stream<Path> files = Files.list(cache.resolve(RunCache.SUBDIRECTORY))) {
            entry = files.filter(file -> file.toString().endsWith(RunCache.SUFFIX)).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(entry);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(entry, bytes);
        Run corrupt = run(options);
        assertThat(corrupt.replayed()).isFalse();
        assertThat(corrupt.warnings()).anyMatch(line -> line.startsWith("Check-result cache entry " + entry
                + " is unreadable or corrupt (its checksum does not match its bytes): ignored"));
        assertThat(corrupt.reports()).containsOnlyKeys(REPORTS);
        for (String report : REPORTS) {
            assertThat(corrupt.reports().get(report)).as(report).isEqualTo(first.reports().get(report));
        }
        Run rewritten = run(options);
        assertThat(rewritten.replayed()).isTrue();
        assertThat(rewritten.warnings()).noneMatch(line -> line.contains("corrupt"));
        // a truncated entry too
        Files.write(entry, new byte[] {1, 2, 3});
        assertThat(run(options).warnings()).anyMatch(line -> line.contains("is unreadable or corrupt (not a "
                + "check-result entry of this plugin version)"));
        assertThat(run(options).replayed()).isTrue();
    }

    @Test
    void aLoadedEntryStaysWholeWhenAnotherBuildReplacesItsFile() throws Exception {
        // entries are mapped (issue 11): another build's store moves a new file over the name, never writes in place
        RunCache runCache = bareCache();
        RunCache.Key key = BARE_KEY;
        byte[] json = "{\"first\": true}\n".repeat(50_000).getBytes(StandardCharsets.UTF_8);
        runCache.store(key, entry(json));
        RunCache.Entry loaded = runCache.load(key).orElseThrow();
        byte[] other = "{\"second\": true}\n".repeat(70_000).getBytes(StandardCharsets.UTF_8);
        runCache.store(key, entry(other));
        java.nio.ByteBuffer bytes = loaded.reports().get(0).bytes().duplicate();
        byte[] read = new byte[bytes.remaining()];
        bytes.get(read);
        assertThat(read).isEqualTo(json);
        assertThat(loaded.reports().get(0).hash()).isEqualTo(io.github.cudastackbudget.core.cache.ContentHash.of(
                java.nio.ByteBuffer.wrap(json), 1));
        java.nio.ByteBuffer reloaded = runCache.load(key).orElseThrow().reports().get(0).bytes();
        assertThat(reloaded).isEqualTo(java.nio.ByteBuffer.wrap(other));
    }

    @Test
    void anEntryReadInsteadOfMappedDecodesAlike() throws Exception {
        // the fallback of a file system that cannot map files: the same entry from a plain read
        RunCache runCache = bareCache();
        RunCache.Key key = BARE_KEY;
        byte[] json = "{\"read\": true}\n".repeat(10_000).getBytes(StandardCharsets.UTF_8);
        runCache.store(key, entry(json));
        Path file = runCache.directory().resolve(key.fileName());
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
            RunCache.Entry read = RunCache.decode(RunCache.readWhole(channel, channel.size()), key.text());
            assertThat(read.reports().get(0).bytes()).isEqualTo(java.nio.ByteBuffer.wrap(json));
            assertThat(read.warnings()).containsExactly("a warning");
            // a file that ends before the size asked for: the bytes there are (the checksum then refuses them)
            java.nio.ByteBuffer shorter = RunCache.readWhole(channel, channel.size() + 100);
            assertThat(shorter.remaining()).isEqualTo((int) channel.size());
        }
        java.nio.ByteBuffer truncated = java.nio.ByteBuffer.wrap(java.util.Arrays.copyOf(Files.readAllBytes(file),
                (int) Files.size(file) - 9));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunCache.decode(truncated, key.text()))
                .isInstanceOf(IOException.class);
    }

    /** A key stored entries are filed under directly, without a check's options in it. */
    private static final RunCache.Key BARE_KEY = new RunCache.Key("key text\n", 1, 0, 0, 0);

    private RunCache bareCache() throws IOException {
        return RunCache.of(options(copy("libframes_zstd.so"), tmp.resolve("cache")), CheckListener.SILENT);
    }

    private static RunCache.Entry entry(byte[] json) {
        return new RunCache.Entry(false, false, List.of("a warning"), List.of("a line"), List.of(), List.of("summary"),
                null, List.of(new RunCache.Report(io.github.cudastackbudget.core.report.ReportFormat.JSON,
                        java.nio.ByteBuffer.wrap(json))));
    }

    @Test
    void theStepSummaryIsAppendedOnAHitToo() throws Exception {
        Path cache = tmp.resolve("cache");
        Path summary = tmp.resolve("step-summary.md");
        CheckOptions options = options(copy("libframes.so"), cache).toBuilder()
                .environment(Map.of("GITHUB_STEP_SUMMARY", summary.toString())).build();
        run(options);
        String once = Files.readString(summary, StandardCharsets.UTF_8);
        assertThat(once).contains("CUDA");
        Run hit = run(options);
        assertThat(hit.replayed()).isTrue();
        assertThat(Files.readString(summary, StandardCharsets.UTF_8)).isEqualTo(once + once);
    }

    @Test
    void inputsWithoutDeviceCodeAreNotStored() throws Exception {
        // a project without CUDA code: its check is cheaper than a lookup
        Path cache = tmp.resolve("cache");
        CheckOptions options = options(copy("libhostonly.so"), cache);
        Run first = run(options);
        Run second = run(options);
        assertThat(second.replayed()).isFalse();
        assertThat(second.outcome().result()).isNotNull();
        assertThat(second.outcome().noKernels()).isTrue();
        assertThat(second.reports().keySet()).containsExactlyElementsOf(REPORTS);
        for (String report : REPORTS) {
            assertThat(second.reports().get(report)).as(report).isEqualTo(first.reports().get(report));
        }
        assertThat(entries(cache)).isZero();
    }

    @Test
    void noReuseWithoutTheCacheForTheAggregateOrForCuobjdump() throws Exception {
        Path cache = tmp.resolve("cache");
        CheckOptions options = options(copy("libframes.so"), cache);
        run(options, false);
        run(options, false);
        assertThat(entries(cache)).as("reuse=false (the aggregate) stores nothing").isZero();
        Run kept = run(options, false);
        assertThat(kept.outcome().result()).isNotNull();
        // the cuobjdump engine (real cuobjdump 13.0 output replayed): its output depends on the tool, so its results
        // are never stored
        Path nccl = RecordedCuobjdump.stage(tmp.resolve("nccl"), RecordedCuobjdump.NCCL);
        Path cuobjdump = RecordedCuobjdump.replayByName(tmp.resolve("tool"));
        CheckOptions recorded = options(nccl, cache).toBuilder().engine("cuobjdump").cuobjdump(cuobjdump.toString())
                .build();
        Run once = run(recorded);
        assertThat(once.outcome().result().engine()).contains("cuobjdump");
        Run twice = run(recorded);
        assertThat(twice.replayed()).isFalse();
        assertThat(twice.readKernels()).isTrue();
        assertThat(entries(cache)).isZero();
    }

    private record Inner(String name, java.math.BigDecimal share) {
    }

    private record Outer(Inner inner, java.util.List<Inner> inners, java.util.Map<String, Long> sizes, Long none,
            java.util.concurrent.TimeUnit unit) {
        @Override
        public String toString() {
            return "not what the key reads";
        }
    }

    @Test
    void theKeyNamesEveryComponentOfARecordRecursivelyWithoutItsToString() {
        StringBuilder text = new StringBuilder();
        RunCache.describe(text, java.util.List.of(new Outer(new Inner("a", new java.math.BigDecimal("0.50")),
                java.util.List.of(new Inner("b", null)), new java.util.TreeMap<>(java.util.Map.of("x", 1L, "y", 2L)),
                null, java.util.concurrent.TimeUnit.SECONDS), "plain"));

        String inner = Inner.class.getName();
        assertThat(text.toString()).isEqualTo("[" + Outer.class.getName() + "[inner=" + inner + "[name=a, share=0.50], "
                + "inners=[" + inner + "[name=b, share=null]], sizes={x=1, y=2}, none=null, unit=SECONDS], plain]");
        // a component's value is in the text: two records that differ in one component never share a key
        StringBuilder other = new StringBuilder();
        RunCache.describe(other, new Inner("a", new java.math.BigDecimal("0.5")));
        StringBuilder same = new StringBuilder();
        RunCache.describe(same, new Inner("a", new java.math.BigDecimal("0.50")));
        assertThat(other.toString()).isNotEqualTo(same.toString());
    }
}
