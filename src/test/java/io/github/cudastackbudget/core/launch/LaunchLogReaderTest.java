package io.github.cudastackbudget.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.text.DashedFrontend;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input-format tests of the launch and library log reader on hand-written logs (the format is fixed by the injection
 * library's contract; real recorded logs are read in LaunchedCheckTest and the check-launched IT).
 */
class LaunchLogReaderTest {

    private static final String HEADER = "# cuda-stack-budget launch log 1\n";

    @TempDir
    Path tmp;

    private Path write(String name, String text) throws Exception {
        return Files.writeString(tmp.resolve(name), text, StandardCharsets.UTF_8);
    }

    @Test
    void agentLogWithStatusOkMergesLinesOfOneKernel() throws Exception {
        Path file = write("launch.log", HEADER + "# status: ok\n# processes: 2\n"
                + "_Z11frameKernelILi64EEvPii\tstage-a\t0\n"
                + "_Z11frameKernelILi64EEvPii\tmain\t4096\n"
                + "_Z13noStackKernelPi\tworker-1\t128\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.format()).isEqualTo(LaunchLog.Format.AGENT_V1);
        assertThat(log.statuses()).containsExactly("ok");
        assertThat(log.complete()).isTrue();
        assertThat(log.statusSummary()).isEqualTo("ok");
        assertThat(log.warnings()).isEmpty();
        assertThat(log.dataLines()).isEqualTo(3);
        assertThat(log.kernels()).containsExactly(
                new LaunchedKernel("_Z11frameKernelILi64EEvPii", new java.util.TreeSet<>(List.of("main", "stage-a")),
                        4096L),
                new LaunchedKernel("_Z13noStackKernelPi", new java.util.TreeSet<>(List.of("worker-1")), 128L));
    }

    @Test
    void originToolLogWithoutHeaderAndWithoutThirdColumnIsAccepted() throws Exception {
        Path file = write("seed.log", "_Z13noStackKernelPi\tmodule:producer\n_Z11frameKernelILi64EEvPii\t\t512\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.format()).isEqualTo(LaunchLog.Format.SEED);
        assertThat(log.complete()).isTrue();
        assertThat(log.warnings()).isEmpty();
        assertThat(log.kernels()).extracting(LaunchedKernel::name, LaunchedKernel::maxDynamicShared)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("_Z11frameKernelILi64EEvPii", 512L),
                        org.assertj.core.groups.Tuple.tuple("_Z13noStackKernelPi", null));
        assertThat(log.kernels().get(1).dynamicSharedOrZero()).isZero();
    }

    @Test
    void malformedLinesAreSkippedWithAWarningNamingFileAndLine() throws Exception {
        Path file = write("launch.log", HEADER + "# status: ok\n"
                + "_Z13noStackKernelPi\tmain\t0\n"
                + "no tabs at all\n"
                + "_Z13noStackKernelPi\tmain\tlots\n"
                + "noStackKernel(int*)\tmain\t0\n"
                + "a\tb\tc\td\n"
                + "\r\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.kernels()).extracting(LaunchedKernel::name).containsExactly("_Z13noStackKernelPi");
        assertThat(log.warnings()).containsExactly(
                file + ":4: malformed line skipped: expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES, "
                        + "found 1 tab-separated field",
                file + ":5: malformed line skipped: the dynamic shared memory 'lots' is not a byte count",
                file + ":6: malformed line skipped: the kernel name 'noStackKernel(int*)' is empty or not a mangled "
                        + "name (it holds white space, parentheses or control characters)",
                file + ":7: malformed line skipped: expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES, "
                        + "found more than 3 tab-separated fields");
        assertThat(log.complete()).as("malformed lines do not make the run incomplete").isTrue();
    }

    @Test
    void manyMalformedLinesAreCountedAfterTheFirstFive() throws Exception {
        String junk = IntStream.range(0, 12).mapToObj(i -> "junk" + i).collect(Collectors.joining("\n"));
        Path file = write("launch.log", HEADER + "# status: ok\n" + junk + "\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.warnings()).hasSize(LaunchLogReader.WARNED_LINES + 1);
        assertThat(log.warnings().get(0)).startsWith(file + ":3: ");
        assertThat(log.warnings().get(5)).isEqualTo(file + ": 7 more malformed line(s) skipped (12 in all)");
    }

    @Test
    void emptyLogIsAWarningAndNotComplete() throws Exception {
        Path file = write("launch.log", "");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.format()).isEqualTo(LaunchLog.Format.EMPTY);
        assertThat(log.complete()).isFalse();
        assertThat(log.warnings()).singleElement().asString().startsWith("launch log " + file + " is empty")
                .endsWith("the headline stays the static figure");
    }

    @Test
    void statusOtherThanOkIsAWarningAndNotComplete() throws Exception {
        Path file = write("launch.log", HEADER + "# status: cupti-subscriber-busy - another CUPTI subscriber "
                + "(a profiler?) holds the callbacks\n# processes: 1\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.complete()).isFalse();
        assertThat(log.statusSummary()).isEqualTo("cupti-subscriber-busy - another CUPTI subscriber (a profiler?) holds "
                + "the callbacks");
        assertThat(log.warnings()).singleElement().asString().contains("not recorded completely (status: "
                + "cupti-subscriber-busy - another CUPTI subscriber");
    }

    @Test
    void headerWithoutStatusIsAWarningAndNotComplete() throws Exception {
        Path file = write("launch.log", HEADER + "_Z13noStackKernelPi\tmain\t0\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.complete()).isFalse();
        assertThat(log.statusSummary()).isEqualTo("missing");
        assertThat(log.warnings()).singleElement().asString().contains("has no '# status:' line");
    }

    @Test
    void missingLogIsAnErrorNamingParameterFileAndWhatToDo() {
        Path file = tmp.resolve("target/cuda-stack-budget/launch.log");
        assertThatThrownBy(() -> LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS))
                .isInstanceOf(LaunchLogException.class)
                .hasMessage("the launch log " + file + " (launchLog) does not exist: run the tests (or the job) under "
                        + "the prepare-agent goal's injection library first, so that it writes the log (a build that "
                        + "skips the tests: launchLog= checks statically)");
    }

    @Test
    void theMessagesNameTheOptionsAsTheFrontEndSpellsThem() {
        Path file = tmp.resolve("launch.log");
        assertThatThrownBy(() -> LaunchLogReader.readLaunchLog(file, DashedFrontend.INSTANCE))
                .hasMessage("the launch log " + file + " (--launch-log) does not exist: run the tests (or the job) "
                        + "under the prepare-agent goal's injection library first, so that it writes the log (a build "
                        + "that skips the tests: --launch-log checks statically)");
        assertThatThrownBy(() -> LaunchLogReader.readLibraryLog(file, DashedFrontend.INSTANCE))
                .hasMessageContaining("(--library-log) does not exist").hasMessageContaining("point --library-log at it");
    }

    @Test
    void directoryInsteadOfALogIsAnError() {
        assertThatThrownBy(() -> LaunchLogReader.readLaunchLog(tmp, Frontend.PARAMETERS))
                .isInstanceOf(LaunchLogException.class).hasMessageContaining("is not a file");
    }

    @Test
    void foreignHeaderAndNewerVersionFailLoudly() throws Exception {
        Path foreign = write("other.log", "# some other tool's log\nx\ty\n");
        assertThatThrownBy(() -> LaunchLogReader.readLaunchLog(foreign, Frontend.PARAMETERS))
                .isInstanceOf(LaunchLogException.class)
                .hasMessageStartingWith("launchLog " + foreign + " is not a cuda-stack-budget launch log: it starts with "
                        + "'# some other tool's log'");
        Path newer = write("newer.log", "# cuda-stack-budget launch log 3\n# status: ok\n");
        assertThatThrownBy(() -> LaunchLogReader.readLaunchLog(newer, Frontend.PARAMETERS))
                .isInstanceOf(LaunchLogException.class)
                .hasMessageContaining("format version '3', but this plugin version reads versions 1 to 2");
    }

    @Test
    void libraryLogKeepsAbsolutePathsAsWrittenOnceInOrder() throws Exception {
        Path file = write("launch.log.libraries", "# cuda-stack-budget library log 1\n/opt/app/bin/probe\n"
                + "/usr/lib/libc.so.6\n/opt/app/bin/../bin/probe\nrelative/libx.so\n\n/usr/lib/libc.so.6\n");
        LibraryLog log = LaunchLogReader.readLibraryLog(file, Frontend.PARAMETERS);
        assertThat(log.libraries()).containsExactly(Path.of("/opt/app/bin/probe"), Path.of("/usr/lib/libc.so.6"),
                Path.of("/opt/app/bin/../bin/probe"));
        assertThat(log.warnings()).containsExactly(file + ":5: malformed line skipped: expected one absolute path per "
                + "line, found 'relative/libx.so'");
    }

    @Test
    void libraryLogOfTheOriginToolHasNoHeader() throws Exception {
        Path file = write("libs.txt", "/usr/lib/libtorch_cuda.so\n");
        assertThat(LaunchLogReader.readLibraryLog(file, Frontend.PARAMETERS).libraries())
                .containsExactly(Path.of("/usr/lib/libtorch_cuda.so"));
        Path wrong = write("wrong.txt", "# cuda-stack-budget launch log 1\n");
        assertThatThrownBy(() -> LaunchLogReader.readLibraryLog(wrong, Frontend.PARAMETERS))
                .isInstanceOf(LaunchLogException.class).hasMessageContaining("is not a cuda-stack-budget library log");
    }

    @Test
    void legacyLogListingAKernelTwiceMergesWithoutNullPointer() throws Exception {
        // issue 10: a two-column log (no dynamic figure) with one kernel twice gave a NullPointerException (exit 3)
        Path file = write("launch.log", "_Z1kPi\tmain\n_Z1kPi\tworker\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.kernels()).singleElement().satisfies(kernel -> {
            assertThat(kernel.attributions()).containsExactly("main", "worker");
            assertThat(kernel.maxDynamicShared()).isNull();
        });
    }

    @Test
    void mixedDynamicColumnsMergeKeepingTheKnownFigure() throws Exception {
        Path file = write("launch.log", "_Z1kPi\tmain\n_Z1kPi\tworker\t64\n_Z1kPi\tthird\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.kernels()).singleElement().extracting(LaunchedKernel::maxDynamicShared).isEqualTo(64L);
    }

    @Test
    void nulByteInALibraryLogPathIsAMalformedLineNotAnInvalidPathException() throws Exception {
        // issue 10: InvalidPathException, exit 3
        Path file = write("libraries.log", "# cuda-stack-budget library log 1\n/lib/a\0b.so\n/lib/ok.so\n");
        LibraryLog log = LaunchLogReader.readLibraryLog(file, Frontend.PARAMETERS);
        assertThat(log.libraries()).containsExactly(Path.of("/lib/ok.so"));
        assertThat(log.warnings()).containsExactly(file + ":2: malformed line skipped: the path holds a NUL byte");
    }

    @Test
    void aLongStatusLineIsReadInLinearTime() throws Exception {
        // issue 10: an 80,000-character '# status:' line took 8 s (a quadratic regular expression)
        String blanks = " ".repeat(80_000);
        Path file = write("launch.log", HEADER + "#" + blanks + "status:" + blanks + "x" + blanks + "\n");
        long start = System.nanoTime();
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(1.0);
        assertThat(log.statusSummary()).isEqualTo("x");
    }

    @Test
    void anEnormousDynamicFigureIsAMalformedLine() throws Exception {
        Path file = write("launch.log", "_Z1kPi\tmain\t999999999999999999\n");
        LaunchLog log = LaunchLogReader.readLaunchLog(file, Frontend.PARAMETERS);
        assertThat(log.kernels()).isEmpty();
        assertThat(log.warnings()).containsExactly(file + ":1: malformed line skipped: the dynamic shared memory "
                + "999999999999999999 is more than any device has (at most 4294967295)");
    }
}
