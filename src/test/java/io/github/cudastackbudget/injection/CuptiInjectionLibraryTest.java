package io.github.cudastackbudget.injection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launched mode's CUPTI injection library as the Maven build packages it (resource
 * {@code /native/linux-x86_64/libcuda-stack-budget-cupti.so}), exercised without a GPU.
 *
 * <p>A small C program (src/test/native/injection-harness.c, built here with gcc) loads the library the way the CUDA
 * driver does (dlopen + InitializeInjection), makes real NVTX calls (nvtx3 from the CUDA toolkit, which load the
 * library as NVTX injection) and records launches through the library's exported recording entry, the one its CUPTI
 * callback calls. Without a CUDA driver CUPTI cannot subscribe, so the logs carry a {@code cupti-unavailable} status:
 * these tests check that loading never crashes the host and that attribution, the largest dynamic shared memory,
 * concurrency, the multi-process merge and the exit paths work. The CUPTI callbacks themselves are validated on a
 * GPU by dev/cupti-validate.sh (recorded real logs in src/test/resources/recorded/launch).
 */
class CuptiInjectionLibraryTest {

    static final String RESOURCE = "/native/linux-x86_64/libcuda-stack-budget-cupti.so";
    private static final Path HARNESS_SOURCE = Path.of("src/test/native/injection-harness.c").toAbsolutePath();
    private static final Path RECORDED = Path.of("src/test/resources/recorded/launch");
    private static final Pattern STATUS = Pattern.compile("# status: (ok|cupti-unavailable - .+)");

    @TempDir
    static Path temp;

    private static Path library;
    private static Path harness;

    @BeforeAll
    static void buildHarness() throws Exception {
        URL url = CuptiInjectionLibraryTest.class.getResource(RESOURCE);
        if (url == null) {
            Assumptions.assumeFalse(Boolean.getBoolean("cuda-stack-budget.native.skip"),
                    "the native build was skipped (-Dcuda-stack-budget.native.skip=true)");
            fail("the build did not put the injection library at " + RESOURCE + " (src/main/native/build.sh)");
        }
        library = Path.of(url.toURI());
        Path include = cudaInclude();
        harness = temp.resolve("injection-harness");
        Result built = run(Map.of(), "gcc", "-O1", "-Wall", "-I" + include, "-o", harness.toString(),
                HARNESS_SOURCE.toString(), "-ldl", "-lpthread");
        assertThat(built.exitCode).as("gcc: %s", built.stderr).isZero();
    }

    private static Path cudaInclude() {
        for (String home : new String[] {System.getenv("CUDA_HOME"), System.getenv("CUDA_PATH"), "/usr/local/cuda"}) {
            if (home != null && Files.isDirectory(Path.of(home, "include", "nvtx3"))) {
                return Path.of(home, "include");
            }
        }
        throw new IllegalStateException("no CUDA toolkit include folder with nvtx3/ (set CUDA_HOME)");
    }

    @Test
    void exportsTheInjectionEntryPointsAndNeedsOnlyGlibc() throws Exception {
        Result symbols = run(Map.of(), "nm", "-D", "--defined-only", library.toString());
        assertThat(symbols.exitCode).isZero();
        assertThat(symbols.stdout.lines().map(l -> l.replaceFirst("^\\S+ ", "")))
                .contains("T InitializeInjection", "T InitializeInjectionNvtx2", "T cuda_stack_budget_record_launch",
                "T cuda_stack_budget_record_graph_node", "T cuda_stack_budget_record_launch_frame");
        Result dynamic = run(Map.of(), "readelf", "-d", library.toString());
        List<String> needed = dynamic.stdout.lines().filter(l -> l.contains("(NEEDED)"))
                .map(l -> l.replaceFirst(".*\\[(.*)\\].*", "$1")).toList();
        // CUPTI is opened with dlopen at run time: the library loads on machines without CUDA and never stops
        // the host process from starting
        assertThat(needed).contains("libc.so.6").isSubsetOf("libc.so.6", "ld-linux-x86-64.so.2");
    }

    @Test
    void loadingWithoutAGpuReturnsCleanlyAndWritesAStatusMarker() throws Exception {
        Path log = temp.resolve("init-only/launch.log");
        Files.createDirectories(log.getParent());
        Result result = harness(log, true, "init-only");
        assertThat(result.exitCode).as(result.stderr).isZero();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("# cuda-stack-budget launch log 2");
        assertThat(lines.get(1)).matches(STATUS);
        assertThat(lines.get(2)).isEqualTo("# processes: 1");
        List<String> libraries = Files.readAllLines(Path.of(log + ".libraries"));
        assertThat(libraries.get(0)).isEqualTo("# cuda-stack-budget library log 1");
        assertThat(libraries.subList(1, libraries.size())).contains(harness.toRealPath().toString(),
                library.toString()).isSorted().doesNotHaveDuplicates().allMatch(p -> p.startsWith("/"));
        // regression: the writers' lock file once stayed beside the logs
        assertThat(log.getParent().toFile().list()).containsExactlyInAnyOrder("launch.log", "launch.log.libraries");
    }

    @Test
    void recordsInnermostNvtxRangeElseThreadNameAndTheLargestDynamicSharedMemory() throws Exception {
        Path log = temp.resolve("threads/launch.log");
        Files.createDirectories(log.getParent());
        Result result = harness(log, true, "threads", "a");
        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(rows(log)).containsExactly(expectedRows("a").toArray(String[]::new));
    }

    @Test
    void processesWritingTheSameLogMergeTheirRows() throws Exception {
        Path log = temp.resolve("merge/launch.log");
        Files.createDirectories(log.getParent());
        // an older log: one row without the third column (old format), one that a process will raise
        Files.writeString(log, "# cuda-stack-budget launch log 1\n# status: ok\n# processes: 1\n"
                + "_Z3oldv\tlegacy\n_Z6hammerv\thammer\t5000\n");
        List<Process> processes = new ArrayList<>();
        for (String tag : List.of("b", "c", "d")) {
            // no NVTX_INJECTION64_PATH here: InitializeInjection sets it for NVTX instances that start later
            processes.add(start(log, false, "threads", tag));
        }
        processes.add(start(log, false, "exit-from-thread"));
        for (Process p : processes) {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isZero();
        }
        List<String> lines = Files.readAllLines(log);
        // the older log (format 1) is merged into a log of format 2; its rows' driver figures are unknown
        assertThat(lines.get(0)).isEqualTo("# cuda-stack-budget launch log 2");
        assertThat(lines.get(1)).matches(STATUS);
        assertThat(lines.get(2)).isEqualTo("# processes: 5");
        assertThat(lines.stream().filter(l -> l.startsWith("# status:"))).hasSize(1);

        List<String> expected = new ArrayList<>();
        for (String tag : List.of("b", "c", "d")) {
            expected.addAll(expectedRows(tag));
        }
        expected.add("_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
        expected.add("_Z3oldv\tlegacy\t0" + NO_DRIVER);
        expected.replaceAll(r -> r.equals("_Z6hammerv\thammer\t999" + NO_DRIVER) ? "_Z6hammerv\thammer\t5000" + NO_DRIVER
                : r);
        List<String> sorted = expected.stream().distinct().sorted(CuptiInjectionLibraryTest::byteOrder).toList();
        assertThat(rows(log)).containsExactlyElementsOf(sorted);
        assertThat(temp.resolve("merge").toFile().list()).containsExactlyInAnyOrder("launch.log",
                "launch.log.libraries");
    }

    /**
     * Many processes ending at once: each one's rows survive (the writers still take turns although each removes the
     * lock file when it is done), and nothing but the two logs is left.
     */
    @Test
    void manyProcessesEndingAtOnceLoseNoRowAndLeaveNoLockFile() throws Exception {
        Path log = temp.resolve("many/launch.log");
        Files.createDirectories(log.getParent());
        List<String> tags = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            tags.add("p" + i);
        }
        List<Process> processes = new ArrayList<>();
        for (String tag : tags) {
            processes.add(start(log, false, "threads", tag));
        }
        for (Process p : processes) {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isZero();
        }
        assertThat(Files.readAllLines(log).get(2)).isEqualTo("# processes: 12");
        List<String> expected = new ArrayList<>();
        tags.forEach(tag -> expected.addAll(expectedRows(tag)));
        assertThat(rows(log)).containsExactlyElementsOf(expected.stream().distinct()
                .sorted(CuptiInjectionLibraryTest::byteOrder).toList());
        assertThat(log.getParent().toFile().list()).containsExactlyInAnyOrder("launch.log", "launch.log.libraries");
    }

    /** A writer waits while another process holds the lock, then writes and removes the lock file. */
    @Test
    void aWriterWaitsForTheHolderOfTheLockAndThenRemovesTheLockFile() throws Exception {
        Path log = temp.resolve("held/launch.log");
        Files.createDirectories(log.getParent());
        Path lockFile = Path.of(log + ".lock");
        Path started = temp.resolve("held-started");
        // util-linux flock(1) takes the same flock(2) lock the library takes
        Process holder = new ProcessBuilder("flock", lockFile.toString(), "sh", "-c",
                "touch '" + started + "'; sleep 2").start();
        awaitFile(started);
        long begin = System.nanoTime();

        Result result = harness(log, true, "exit-from-thread");

        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(result.stderr).doesNotContain("unlocked");
        assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin)).as("waited for the holder")
                .isGreaterThan(1000);
        assertThat(rows(log)).containsExactly("_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
        assertThat(lockFile).doesNotExist();
    }

    /**
     * The lock file changes under a waiter: the holder removes it (as every writer does when it is done) and a new
     * writer creates and locks a new one. The waiter must then wait for the new holder, not write beside it.
     */
    @Test
    void aWaiterWhoseLockFileWasRemovedWaitsForTheHolderOfTheNewOne() throws Exception {
        Path log = temp.resolve("replaced/launch.log");
        Files.createDirectories(log.getParent());
        String lock = log + ".lock";
        Path work = Files.createDirectories(temp.resolve("replaced-marks"));
        Process first = new ProcessBuilder("flock", lock, "sh", "-c", "touch '" + work.resolve("first") + "'; sleep 1; rm '"
                + lock + "'; touch '" + work.resolve("removed") + "'; sleep 1").start();
        awaitFile(work.resolve("first"));
        Process writer = start(log, true, "exit-from-thread"); // waits on the file the first holder removes

        awaitFile(work.resolve("removed"));
        Process second = new ProcessBuilder("flock", lock, "sh", "-c", "touch '" + work.resolve("second") + "'; sleep 2; "
                + "touch '" + work.resolve("second-done") + "'").start();
        awaitFile(work.resolve("second"));
        Result result = Result.of(writer);

        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(work.resolve("second-done")).as("the writer waited for the holder of the new lock file").exists();
        assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(rows(log)).containsExactly("_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
        assertThat(Path.of(lock)).doesNotExist();
    }

    private static void awaitFile(Path file) throws InterruptedException {
        for (int i = 0; i < 1000 && !Files.exists(file); i++) {
            Thread.sleep(10);
        }
        assertThat(file).exists();
    }

    /** A lock file left by a process that was killed while writing (the kernel released its lock) is taken and removed. */
    @Test
    void aLockFileLeftByAKilledWriterIsTakenAndRemoved() throws Exception {
        Path log = temp.resolve("stale/launch.log");
        Files.createDirectories(log.getParent());
        Path lockFile = Files.createFile(Path.of(log + ".lock"));

        Result result = harness(log, true, "exit-from-thread");

        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(rows(log)).containsExactly("_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
        assertThat(lockFile).doesNotExist();
    }

    /** Kernel nodes of CUDA graphs: "<graph>" plus the innermost NVTX range, never the thread's name. */
    @Test
    void graphKernelNodesAreAttributedToGraphPlusTheInnermostNvtxRange() throws Exception {
        Path log = temp.resolve("graph-nodes/launch.log");
        Files.createDirectories(log.getParent());
        Result result = harness(log, true, "graph-nodes");
        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(rows(log)).containsExactly("_Z9graphNodev	<graph>	1024" + NO_DRIVER,
                "_Z9graphNodev	<graph> graph-build	2048" + NO_DRIVER, "_Z9graphNodev	<graph> graph-outer	4096" + NO_DRIVER,
                "_Z9graphNodev	graph-build	512" + NO_DRIVER);
    }

    /**
     * The driver's figures (format 2): stored once per row (the first answer stays), "unknown" where the driver gave
     * none, and merged over processes with a known figure winning over an unknown one; the plugin's reader reads the
     * log the library wrote.
     */
    @Test
    void driverFiguresAreWrittenOncePerRowAndMergedOverProcesses() throws Exception {
        Path log = temp.resolve("frames/launch.log");
        Files.createDirectories(log.getParent());
        Result first = harness(log, true, "frames", "a");
        assertThat(first.exitCode).as(first.stderr).isZero();
        assertThat(rows(log)).containsExactly("_Z8bigFramev\tharness-main\t64\t12000\t31\t0\tsm_90",
                "_Z8bigFramev\tphase\t16\t12000\t31\t0\tsm_90", "_Z9noAnswerv\tharness-main\t0" + NO_DRIVER);
        Result second = harness(log, true, "frames", "b");
        assertThat(second.exitCode).as(second.stderr).isZero();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines.get(0)).isEqualTo("# cuda-stack-budget launch log 2");
        assertThat(lines.get(2)).isEqualTo("# processes: 2");
        assertThat(rows(log)).containsExactly("_Z8bigFramev\tharness-main\t64\t12000\t31\t0\tsm_90",
                "_Z8bigFramev\tphase\t16\t12000\t31\t0\tsm_90", "_Z9noAnswerv\tharness-main\t8\t2048\t40\t16\tsm_86",
                "_Z9partFramev\tharness-main\t0\t4096\tunknown\t512\tunknown");

        var read = io.github.cudastackbudget.core.launch.LaunchLogReader.readLaunchLog(log,
                io.github.cudastackbudget.core.text.Frontend.PARAMETERS);
        assertThat(read.format()).isEqualTo(io.github.cudastackbudget.core.launch.LaunchLog.Format.AGENT_V2);
        assertThat(read.dataLines()).isEqualTo(4);
        assertThat(read.kernels()).extracting(k -> k.name() + "=" + k.driver().localBytes() + "/"
                + k.driver().registers() + "/" + k.driver().sharedBytes() + "/" + k.driver().arch())
                .containsExactly("_Z8bigFramev=12000/31/0/sm_90", "_Z9noAnswerv=2048/40/16/sm_86",
                        "_Z9partFramev=4096/null/512/null");
    }

    @Test
    void exitFromAnotherThreadStillWritesTheLog() throws Exception {
        Path log = temp.resolve("exit/launch.log");
        Files.createDirectories(log.getParent());
        Result result = harness(log, true, "exit-from-thread");
        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(rows(log)).containsExactly("_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
    }

    @Test
    void aFileThatIsNotALaunchLogIsReplacedWithAWarning() throws Exception {
        Path log = temp.resolve("foreign/launch.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, "something else\n_Z1xv\tx\t1\n");
        Result result = harness(log, true, "exit-from-thread");
        assertThat(result.exitCode).isZero();
        assertThat(result.stderr).contains(log + " does not start with \"# cuda-stack-budget launch log 2\"; "
                + "it is replaced, not merged");
        assertThat(rows(log)).containsExactly("_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
    }

    @Test
    void withoutALaunchLogPathTheLogGoesToTheWorkingDirectory() throws Exception {
        Path folder = Files.createDirectories(temp.resolve("default"));
        ProcessBuilder builder = new ProcessBuilder(harness.toString(), library.toString(), "exit-from-thread")
                .directory(folder.toFile());
        builder.environment().remove("CUDA_STACK_BUDGET_LAUNCH_LOG");
        builder.environment().remove("CUDA_STACK_BUDGET_LIBRARY_LOG");
        Result result = Result.of(builder.start());
        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(rows(folder.resolve("cuda-stack-budget-launch.log")))
                .containsExactly("_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
        assertThat(folder.resolve("cuda-stack-budget-launch.log.libraries")).exists();
    }

    @Test
    void theLibraryLogPathCanBeSetSeparately() throws Exception {
        Path log = temp.resolve("separate/launch.log");
        Path libraries = temp.resolve("separate/libs.txt");
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(harness.toString(), library.toString(), "init-only");
        builder.environment().put("CUDA_STACK_BUDGET_LAUNCH_LOG", log.toString());
        builder.environment().put("CUDA_STACK_BUDGET_LIBRARY_LOG", libraries.toString());
        assertThat(Result.of(builder.start()).exitCode).isZero();
        assertThat(Files.readAllLines(libraries).get(0)).isEqualTo("# cuda-stack-budget library log 1");
        assertThat(Path.of(log + ".libraries")).doesNotExist();
    }

    @Test
    void aCuptiThatCannotBeLoadedGivesAStatusNamingWhatWasTriedAndTheVariable() throws Exception {
        Path log = temp.resolve("no-cupti/launch.log");
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(harness.toString(), library.toString(), "exit-from-thread");
        builder.environment().put("CUDA_STACK_BUDGET_LAUNCH_LOG", log.toString());
        builder.environment().put("CUDA_STACK_BUDGET_CUPTI_LIBRARY", "/nonexistent/libcupti.so.13");
        Result result = Result.of(builder.start());
        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(Files.readAllLines(log)).containsExactly("# cuda-stack-budget launch log 2",
                "# status: cupti-unavailable - libcupti could not be loaded (tried /nonexistent/libcupti.so.13); "
                        + "set CUDA_STACK_BUDGET_CUPTI_LIBRARY to its path",
                "# processes: 1", "_Z10beforeExitv\tharness-main\t32" + NO_DRIVER);
    }

    @Test
    void theBuildScriptWithoutCuptiHeadersFailsWithOneMessageNamingTheSkipProperty() throws Exception {
        Path emptyToolkit = Files.createDirectories(temp.resolve("no-cuda"));
        Result result = run(Map.of("CUDA_HOME", emptyToolkit.toString()), "bash", "src/main/native/build.sh",
                temp.resolve("no-cuda-out").toString());
        assertThat(result.exitCode).isEqualTo(1);
        assertThat(result.stderr.lines()).hasSize(1).first().asString()
                .startsWith("[cuda-stack-budget] cannot build the CUPTI injection library: no CUDA toolkit with "
                        + "cupti.h")
                .contains("looked in: " + emptyToolkit, "-Dcuda-stack-budget.native.skip=true");
    }

    /** The real logs recorded on the H200 agree with the recorded cuobjdump output of the same probe binary. */
    @Test
    void recordedProbeLogNamesTheProbeKernelsWithTheirRealFramesAndAttributions() throws IOException {
        List<String> lines = Files.readAllLines(RECORDED.resolve("launch-probe.launch.log"));
        assertThat(lines.subList(0, 3)).containsExactly("# cuda-stack-budget launch log 1", "# status: ok",
                "# processes: 1");
        List<String> rows = lines.subList(3, lines.size());
        assertThat(rows).isSortedAccordingTo(CuptiInjectionLibraryTest::byteOrder).hasSize(19)
                .contains("_Z11frameKernelILi2048EEvPii\tphase-2k\t1024",
                        "_Z11frameKernelILi4096EEvPii\tphase-4k\t8192",
                        "_Z11frameKernelILi12288EEvPii\tprobe-t12k\t2048",
                        "_Z12sharedKernelPi\tworker-0\t512", "_Z12sharedKernelPi\tworker-7\t2304",
                        "_Z11emptyKernelv\tworker-3\t0");
        String usage = Files.readString(RECORDED.resolve("launch-probe.resource-usage.txt"));
        for (String row : rows) {
            String kernel = row.substring(0, row.indexOf('\t'));
            assertThat(usage).as("recorded cuobjdump has %s", kernel).contains(" Function " + kernel + ":");
        }
        Matcher m = Pattern.compile("Function _Z11frameKernelILi12288EEvPii:\\s+REG:\\d+ STACK:(\\d+)")
                .matcher(usage);
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("12288");

        List<String> torch = Files.readAllLines(RECORDED.resolve("torch-gammainc.launch.log"));
        assertThat(torch.get(1)).isEqualTo("# status: ok");
        assertThat(torch).anyMatch(l -> l.matches("_ZN2at6native29vectorized_elementwise_kernel.*CalcIgammaIdE.*"
                + "\tigamma\t0"));
        assertThat(Files.readAllLines(RECORDED.resolve("torch-gammainc.launch.log.libraries")))
                .anyMatch(l -> l.endsWith("/torch/lib/libtorch_cuda.so"));
    }

    /**
     * The real log of the CUDA-graph run on the H200 (src/test/resources/recorded/launch-graphs/README.txt): the two
     * kernels launched only through graphs are there, with the node's dynamic shared memory, and the recorded
     * cuobjdump output of the same probe gives the frames the driver's stack limit was raised to.
     */
    @Test
    void recordedGraphRunNamesTheKernelsLaunchedOnlyThroughGraphs() throws IOException {
        Path recorded = Path.of("src/test/resources/recorded/launch-graphs");
        List<String> lines = Files.readAllLines(recorded.resolve("graphs.launch.log"));
        assertThat(lines.subList(0, 3)).containsExactly("# cuda-stack-budget launch log 1", "# status: ok",
                "# processes: 1");
        assertThat(lines.subList(3, lines.size())).isSortedAccordingTo(CuptiInjectionLibraryTest::byteOrder)
                .containsExactlyInAnyOrder("_Z11frameKernelILi6144EEvPii	<graph> graph-add	3072",
                        "_Z11frameKernelILi6144EEvPii	<graph>	3072", "_Z11emptyKernelv	<graph>	0",
                        "_Z11frameKernelILi8192EEvPii	graph-capture	1536",
                        "_Z11frameKernelILi8192EEvPii	<graph>	1536");
        String usage = Files.readString(recorded.resolve("launch-probe-graphs.resource-usage.txt"));
        String output = Files.readString(recorded.resolve("cupti-graphs-validate.output.txt"));
        for (int frame : new int[] {6144, 8192}) {
            String kernel = "_Z11frameKernelILi" + frame + "EEvPii";
            Matcher stack = Pattern.compile("Function " + kernel + ":\\s+REG:\\d+ STACK:(\\d+)").matcher(usage);
            assertThat(stack.find()).isTrue();
            assertThat(stack.group(1)).isEqualTo(String.valueOf(frame));
            // the driver raised the stack limit to exactly that frame, with and without the library
            Matcher phase = Pattern.compile("PHASE graph-\\S+ kernel=" + kernel
                    + " localSizeBytes=\\d+ limitBefore=\\d+ limitAfter=(\\d+)").matcher(output);
            assertThat(phase.results().map(r -> r.group(1)).toList()).containsExactly(String.valueOf(frame),
                    String.valueOf(frame));
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    /** The driver columns of a row recorded through cuda_stack_budget_record_launch (no driver to ask). */
    private static final String NO_DRIVER = "\tunknown\tunknown\tunknown\tunknown";

    private static List<String> expectedRows(String tag) {
        return Stream.of("_Z4mainv\tharness-main\t0", "_Z6hammerv\thammer\t999", "_Z7hammer2v\thammer\t7",
                "_Z7hammer3v\thammer\t7", "_Z7kernelAv\tinner-" + tag + "\t4096",
                "_Z7kernelAv\tload-" + tag + "\t256", "_Z7kernelBv\tworker-" + tag + "\t0",
                "_Z7kernelCv\tregistered-" + tag + "\t0", "_Z7kernelDv\tdomain-range\t64",
                "_Z7kernelEv\twide-\u00e9\t0", "_Z7kernelFv\thas tab\t0").map(row -> row + NO_DRIVER).toList();
    }

    /** The library sorts rows by their bytes (strcmp); for these ASCII-or-UTF-8 rows that is this order. */
    private static int byteOrder(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> rows(Path log) throws IOException {
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> !l.startsWith("#")).toList();
    }

    private static Process start(Path log, boolean nvtxEnvironment, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(harness.toString(), library.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("CUDA_STACK_BUDGET_LAUNCH_LOG", log.toString());
        builder.environment().remove("CUDA_STACK_BUDGET_LIBRARY_LOG");
        if (nvtxEnvironment) {
            builder.environment().put("NVTX_INJECTION64_PATH", library.toString());
        } else {
            builder.environment().remove("NVTX_INJECTION64_PATH");
        }
        return builder.start();
    }

    private static Result harness(Path log, boolean nvtxEnvironment, String... args) throws Exception {
        return Result.of(start(log, nvtxEnvironment, args));
    }

    private static Result run(Map<String, String> environment, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        return Result.of(builder.start());
    }

    private record Result(int exitCode, String stdout, String stderr) {
        static Result of(Process process) throws Exception {
            process.getOutputStream().close();
            var err = new java.util.concurrent.CompletableFuture<String>();
            Thread reader = new Thread(() -> {
                try {
                    err.complete(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    err.completeExceptionally(e);
                }
            });
            reader.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("timed out: " + process.info().commandLine().orElse("?"));
            }
            return new Result(process.exitValue(), out, err.get(60, TimeUnit.SECONDS));
        }
    }
}
