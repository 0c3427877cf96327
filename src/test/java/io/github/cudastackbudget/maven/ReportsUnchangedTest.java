package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.TestJars;
import io.github.cudastackbudget.core.binary.NativeTestFiles;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.maven.doxia.module.xhtml5.Xhtml5SinkFactory;
import org.apache.maven.doxia.sink.Sink;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outputs of the whole check (JSON, full text report, standalone HTML page, the log's report lines and the
 * site page rendered from the JSON) for fixed inputs, compared byte for byte with golden files written by commit
 * 3025ca0 (before the redesign of issue 9) under {@code src/test/resources/golden/} (gzipped). Inputs: the four recorded
 * third-party libraries (real cuobjdump 13.0 output replayed), the nvcc-built test binaries and the native-reader
 * matrix (native engine), a JAR of them, the stack-demo library, and launched mode over the real recorded launch logs.
 * Absolute paths of this checkout and of the temporary directory are replaced by {@code @REPO@} and {@code @WORK@},
 * and the source-path hash in nvcc's {@code _INTERNAL_xxxxxxxx_} names by {@code @HASH@}.
 *
 * <p>{@code -Dgolden.write=true} rewrites the golden files (only for a change of output that the CHANGELOG lists).
 */
class ReportsUnchangedTest {

    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final boolean WRITE = Boolean.getBoolean("golden.write");
    private static final List<String> OUTPUTS = List.of("cuda-stack-budget.json", "cuda-stack-budget.txt",
            "cuda-stack-budget.html");

    private static final java.util.regex.Pattern INTERNAL_HASH = java.util.regex.Pattern.compile(
            "_INTERNAL_[0-9a-f]{8}_");

    @TempDir
    static Path tmp;

    private record Scenario(String name, Setup setup) {
    }

    @FunctionalInterface
    private interface Setup {
        CheckOptions options(Path work, Path out) throws Exception;
    }

    private static Map<String, String> env() {
        return Map.of("PATH", System.getenv().getOrDefault("PATH", ""));
    }

    private static CheckOptions options(List<FileSetSpec> sets, List<Path> files, String usedBy, String engine,
            String cuobjdump, List<DeviceDefinition> devices, String presets, String maxReservation, String maxStack,
            Path out, JarScanOptions jars, Path launchLog) {
        return new CheckOptions(sets, files, usedBy, engine, cuobjdump, Duration.ofSeconds(120), 2, devices, presets,
                false, maxReservation, maxStack, out, 25, true, env(), jars, launchLog, null);
    }

    private static FileSetSpec directory(Path dir) {
        return new FileSetSpec(dir, FileSetSpec.DEFAULT_INCLUDES, List.of());
    }

    private static Path replay(Path work) throws IOException {
        return RecordedCuobjdump.replayByName(Files.createDirectories(work.resolve("tool")));
    }

    private static List<Scenario> scenarios() {
        List<Scenario> all = new ArrayList<>();
        all.add(new Scenario("recorded-libraries", (work, out) -> {
            List<Path> staged = new ArrayList<>();
            for (String library : RecordedCuobjdump.LIBRARIES) {
                staged.add(RecordedCuobjdump.stage(work.resolve("libs"), library));
            }
            return options(List.of(), staged, "com.example:gpu-app:1.0", "cuobjdump", replay(work).toString(),
                    List.of(), "h100-sxm5-80gb,l4,v100-sxm2-32gb,h200-141gb", "256 MiB", "8 KiB", out,
                    JarScanOptions.NONE, null);
        }));
        all.add(new Scenario("recorded-default-devices", (work, out) -> {
            Path staged = RecordedCuobjdump.stage(work.resolve("libs"), RecordedCuobjdump.NCCL);
            return options(List.of(), List.of(staged), "", "cuobjdump", replay(work).toString(), List.of(), null,
                    null, null, out, JarScanOptions.NONE, null);
        }));
        all.add(new Scenario("test-binaries-native", (work, out) -> options(
                List.of(new FileSetSpec(RecordedCuobjdump.TEST_CUDA.toAbsolutePath(), FileSetSpec.DEFAULT_INCLUDES,
                        List.of("stack-demo/**", "libjit*.so"))), List.of(), "com.example:frames:1.0",
                "native", work.resolve("no-cuobjdump").toString(),
                List.of(new DeviceDefinition(null, "lab-gpu", "8.6", null, "84", "1536", "24 GiB", "300 MiB")),
                "h200-141gb,l4,rtx-5090,t4,b200", "1 GiB", null, out, JarScanOptions.NONE, null)));
        all.add(new Scenario("native-matrix", (work, out) -> options(
                List.of(directory(Path.of("target", "native-matrix").toAbsolutePath())), List.of(), "", "native",
                work.resolve("no-cuobjdump").toString(), List.of(),
                "h200-141gb,b200,l4,rtx-5090,t4,a100-sxm4-80gb,h100-sxm5-80gb", "2%", "16 KiB", out,
                JarScanOptions.NONE, null)));
        all.add(new Scenario("jar", (work, out) -> {
            Map<String, Path> entries = new LinkedHashMap<>();
            entries.put("native/linux-x86_64/libframes.so", RecordedCuobjdump.testCuda("libframes.so"));
            entries.put("native/linux-x86_64/libhostonly.so", RecordedCuobjdump.testCuda("libhostonly.so"));
            entries.put("lib/libmixedptx.so", RecordedCuobjdump.testCuda("libmixedptx.so"));
            entries.put("lib/libframes_zstd.so", RecordedCuobjdump.testCuda("libframes_zstd.so"));
            Path jar = TestJars.jar(work.resolve("app-1.0.jar"), entries);
            return options(List.of(), List.of(), "com.example:app:1.0", "auto", work.resolve("no-cuobjdump").toString(),
                    List.of(), "h200-141gb,a100-sxm4-80gb,l4", "512 MiB", null, out,
                    new JarScanOptions(List.of(new JarInput(jar, "com.example:app:1.0")), List.of(), List.of()), null);
        }));
        all.add(new Scenario("stack-demo", (work, out) -> options(List.of(),
                List.of(NativeTestFiles.stackDemo("libstackdemo.so"), NativeTestFiles.stackDemo("libstackdemo_sm90.so")),
                "com.example:stack-demo:1.0", "native", null, List.of(), "h200-141gb,l4,rtx-5090", "256 MiB", null, out,
                JarScanOptions.NONE, null)));
        all.add(new Scenario("launched-probe", (work, out) -> {
            Path recorded = Path.of("src", "test", "resources", "recorded", "launch");
            Path libs = Files.createDirectories(work.resolve("libs"));
            Files.copy(RecordedCuobjdump.testCuda("libframes.so"), libs.resolve("libframes.so"));
            Path launch = Files.copy(recorded.resolve("launch-probe.launch.log"), work.resolve("launch.log"));
            Files.copy(recorded.resolve("launch-probe.launch.log.libraries"), work.resolve("launch.log.libraries"));
            return options(List.of(directory(libs)), List.of(NativeTestFiles.stackDemo("libstackdemo.so")),
                    "com.example:app:1.0", "native", null, List.of(), "h200-141gb,l4", "512 MiB", null, out,
                    JarScanOptions.NONE, launch);
        }));
        all.add(new Scenario("launched-torch", (work, out) -> {
            Path recorded = Path.of("src", "test", "resources", "recorded", "launch");
            Path libs = Files.createDirectories(work.resolve("libs"));
            Files.copy(RecordedCuobjdump.testCuda("libframes.so"), libs.resolve("libframes.so"));
            Path launch = Files.copy(recorded.resolve("torch-gammainc.launch.log"), work.resolve("torch.launch.log"));
            Files.copy(recorded.resolve("torch-gammainc.launch.log.libraries"),
                    work.resolve("torch.launch.log.libraries"));
            return options(List.of(directory(libs)), List.of(), "com.example:app:1.0", "native", null, List.of(),
                    "h200-141gb", "1 GiB", null, out, JarScanOptions.NONE, launch);
        }));
        return all;
    }

    @TestFactory
    Stream<DynamicTest> outputsAreByteIdenticalToTheGoldenFiles() {
        return scenarios().stream().map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
            Path work = Files.createDirectories(tmp.resolve(scenario.name()));
            Path out = work.resolve("out");
            CheckOptions options = scenario.setup().options(work, out);
            Map<String, String> actual = new LinkedHashMap<>();
            CheckRunner.Outcome outcome;
            try {
                outcome = CheckRunner.run(options, CheckListener.SILENT);
            } catch (CheckException e) {
                throw new AssertionError(scenario.name() + ": " + e.getMessage(), e);
            }
            for (String name : OUTPUTS) {
                actual.put(name, Files.readString(out.resolve(name), StandardCharsets.UTF_8));
            }
            actual.put("log.txt", String.join("\n", outcome.reportLines()) + "\n--\n"
                    + String.join("\n", outcome.violations()) + "\n");
            actual.put("site.html", site(out.resolve("cuda-stack-budget.json")));
            Path golden = GOLDEN.resolve(scenario.name());
            Map<String, String[]> comparisons = new LinkedHashMap<>();
            for (Map.Entry<String, String> file : actual.entrySet()) {
                String text = normalized(file.getValue(), work);
                Path expected = golden.resolve(file.getKey() + ".gz");
                if (WRITE) {
                    Files.createDirectories(golden);
                    try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(expected))) {
                        gz.write(text.getBytes(StandardCharsets.UTF_8));
                    }
                } else {
                    String expectedText;
                    try (InputStream gz = new GZIPInputStream(Files.newInputStream(expected))) {
                        expectedText = new String(gz.readAllBytes(), StandardCharsets.UTF_8);
                    }
                    if (!expectedText.equals(text)) {
                        Path mismatch = Path.of("target", "golden-mismatch", scenario.name(), file.getKey());
                        Files.createDirectories(mismatch.getParent());
                        Files.writeString(mismatch, text, StandardCharsets.UTF_8);
                    }
                    comparisons.put(file.getKey(), new String[] {expectedText, text});
                }
            }
            // every output of the scenario is written to target/golden-mismatch/ before the first one fails
            comparisons.forEach((name, texts) -> assertThat(texts[1]).as("%s/%s (this run's output: "
                    + "target/golden-mismatch/)", scenario.name(), name).isEqualTo(texts[0]));
        }));
    }

    /**
     * The report goal reads the check's JSON into the model every output formats: for each fixed input, the model read
     * back from the JSON equals the model the check built from its result (and wrote the JSON from).
     */
    @TestFactory
    Stream<DynamicTest> theModelReadFromTheJsonIsTheModelOfTheResult() {
        return scenarios().stream().map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
            Path work = Files.createDirectories(tmp.resolve("model-" + scenario.name()));
            Path out = work.resolve("out");
            CheckRunner.Outcome outcome = CheckRunner.run(scenario.setup().options(work, out), CheckListener.SILENT);
            ReportModel built = ReportModel.of(outcome.result());
            assertThat(ReportModel.read(out.resolve("cuda-stack-budget.json"))).isEqualTo(built);
        }));
    }

    /**
     * Determinism (issue 10): the same inputs read one file at a time and eight at once give byte-identical JSON, text
     * and HTML reports, for every fixed input (the golden comparison above holds them equal across builds too).
     */
    @TestFactory
    Stream<DynamicTest> reportsAreByteIdenticalWhateverTheParallelism() {
        return scenarios().stream().map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
            Map<Integer, Map<String, String>> byParallelism = new LinkedHashMap<>();
            for (int parallelism : new int[] {1, 8}) {
                Path work = Files.createDirectories(tmp.resolve("parallel-" + parallelism + "-" + scenario.name()));
                Path out = work.resolve("out");
                CheckOptions options = scenario.setup().options(work, out).toBuilder().parallelism(parallelism).build();
                CheckRunner.run(options, CheckListener.SILENT);
                Map<String, String> files = new LinkedHashMap<>();
                for (String name : OUTPUTS) {
                    // the engine's description names how many entries it read at once: the one intended difference
                    files.put(name, normalized(Files.readString(out.resolve(name), StandardCharsets.UTF_8), work)
                            .replace(parallelism + " entries at once", "N entries at once"));
                }
                byParallelism.put(parallelism, files);
            }
            for (String name : OUTPUTS) {
                assertThat(byParallelism.get(8).get(name)).as("%s/%s with 8 files at once", scenario.name(), name)
                        .isEqualTo(byParallelism.get(1).get(name));
            }
        }));
    }

    private static String site(Path json) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Sink sink = new Xhtml5SinkFactory().createSink(bytes, "UTF-8");
        new SiteReportRenderer(sink, ReportModel.read(json), 25,
                "Figures from cuda-stack-budget.json, written by the check goal.").render();
        sink.close();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The page's deflated names ({@code "nz"}: base64 of zlib chunks), each chunk a JSON string. */
    private static final java.util.regex.Pattern DEFLATED_NAMES = java.util.regex.Pattern.compile(
            "\"nz\":\\[([^\\]]*)\\]");

    /**
     * The page's deflated names written out as the text they inflate to (a JSON string per chunk, U+0000 between
     * names), so that the paths and nvcc's hashes in them are normalized like the rest, and a golden page shows them.
     */
    private static String inflatedNames(String page) {
        java.util.regex.Matcher block = DEFLATED_NAMES.matcher(page);
        if (!block.find()) {
            return page;
        }
        StringBuilder chunks = new StringBuilder();
        for (String chunk : block.group(1).split(",")) {
            if (chunk.isEmpty()) {
                continue;
            }
            byte[] zlib = java.util.Base64.getDecoder().decode(chunk.substring(1, chunk.length() - 1));
            java.util.zip.Inflater inflater = new java.util.zip.Inflater();
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try {
                inflater.setInput(zlib);
                byte[] buffer = new byte[8192];
                while (!inflater.finished()) {
                    int n = inflater.inflate(buffer);
                    if (n == 0 && !inflater.finished() && inflater.needsInput()) {
                        throw new IllegalStateException("a truncated chunk of the page's names");
                    }
                    out.write(buffer, 0, n);
                }
            } catch (java.util.zip.DataFormatException e) {
                throw new IllegalStateException("a chunk of the page's names is no zlib stream", e);
            } finally {
                inflater.end();
            }
            String text = out.toString(StandardCharsets.UTF_8).replace("\\", "\\\\").replace("\"", "\\\"")
                    .replace("\u0000", "\\u0000");
            chunks.append(chunks.length() == 0 ? "" : ",").append('"').append(text).append('"');
        }
        return page.substring(0, block.start()) + "\"nz (inflated)\":[" + chunks + "]" + page.substring(block.end());
    }

    private static String normalized(String text, Path work) {
        String repo = Path.of("").toAbsolutePath().toString();
        String result = inflatedNames(text).replace(work.toAbsolutePath().toString(), "@WORK@");
        for (String folder : List.of("/target/", "/src/", "/examples/")) {
            result = result.replace(repo + folder, "@REPO@" + folder);
        }
        // nvcc names internal-linkage symbols after a hash of the source path: the matrix's differ per checkout
        return INTERNAL_HASH.matcher(result).replaceAll("_INTERNAL_@HASH@_");
    }
}
