package io.github.cudastackbudget.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10: launch and library logs with endless lines, CRLF, lone CR, NUL and control characters. */
class LaunchLogReaderHostileTest {

    private static final String HEADER = "# cuda-stack-budget launch log 1\n# status: ok\n";

    @TempDir
    Path tmp;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text, StandardCharsets.ISO_8859_1);
    }

    @Test
    void lineEndingsAreLfCrlfAndLoneCr() throws Exception {
        BoundedLineReader reader = new BoundedLineReader(new StringReader("a\nb\r\nc\rd\r\n\r\ne"));
        List<String> lines = new ArrayList<>();
        for (String line = reader.next(); line != null; line = reader.next()) {
            lines.add(line);
        }
        assertThat(lines).containsExactly("a", "b", "c", "d", "", "e");
    }

    @Test
    void anOverlongLineIsCutAndMarked() throws Exception {
        BoundedLineReader reader = new BoundedLineReader(new StringReader("x".repeat(100) + "\nshort\n"), 10);

        assertThat(reader.next()).isEqualTo("x".repeat(10));
        assertThat(reader.tooLong()).isTrue();
        assertThat(reader.next()).isEqualTo("short");
        assertThat(reader.tooLong()).isFalse();
        assertThat(reader.next()).isNull();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aLineOfSeveralMebibytesIsOneMalformedLineNotAnOutOfMemory() throws Exception {
        Path log = write("long.launch.log", HEADER + "_Z1kv" + "x".repeat(3 * BoundedLineReader.MAX_LINE)
                + "\tworker-0\t0\n_Z1kv\tworker-1\t16\n");

        LaunchLog read = LaunchLogReader.readLaunchLog(log, Frontend.PARAMETERS);

        assertThat(read.kernels()).extracting(LaunchedKernel::name).containsExactly("_Z1kv");
        assertThat(read.warnings()).containsExactly(log + ":3: malformed line skipped: longer than 1048576 characters");
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void longStatusAndCommentLinesAreLinear() throws Exception {
        for (int length : new int[] {80_000, 1_000_000}) {
            int pad = length / 3; // each line about `length` characters: under the 1 Mi line limit
            Path log = write("status.launch.log", "# cuda-stack-budget launch log 1\n#" + " ".repeat(pad)
                    + "status:" + " ".repeat(pad) + "ok" + " ".repeat(pad) + "\n#" + "\t".repeat(length - 2)
                    + "x\n_Z1kv\tw\t0\n");
            long start = System.nanoTime();

            LaunchLog read = LaunchLogReader.readLaunchLog(log, Frontend.PARAMETERS);

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
            assertThat(read.statuses()).containsExactly("ok");
            assertThat(read.warnings()).isEmpty();
        }
    }

    @Test
    void crlfLogReadsAsLf() throws Exception {
        Path log = write("crlf.launch.log", (HEADER + "_Z1kv\tworker-0\t64\n_Z1kv\tworker-1\t128\n")
                .replace("\n", "\r\n"));

        LaunchLog read = LaunchLogReader.readLaunchLog(log, Frontend.PARAMETERS);

        assertThat(read.warnings()).isEmpty();
        assertThat(read.statuses()).containsExactly("ok");
        assertThat(read.kernels()).singleElement().satisfies(kernel -> {
            assertThat(kernel.attributions()).containsExactly("worker-0", "worker-1");
            assertThat(kernel.maxDynamicShared()).isEqualTo(128);
        });
    }

    @Test
    void controlCharactersInNamesAndValuesAreSkippedAndEscaped() throws Exception {
        Path log = write("control.launch.log", HEADER + "_Z1\u0000kv\tw\t0\n_Z1kv\tw\t1\u001b[2J\n_Z1kv\tw\t-5\n");

        LaunchLog read = LaunchLogReader.readLaunchLog(log, Frontend.PARAMETERS);

        assertThat(read.kernels()).isEmpty();
        assertThat(read.warnings()).containsExactly(
                log + ":3: malformed line skipped: the kernel name '_Z1\\x00kv' is empty or not a mangled name (it "
                        + "holds white space, parentheses or control characters)",
                log + ":4: malformed line skipped: the dynamic shared memory '1\\x1b[2J' is not a byte count",
                log + ":5: malformed line skipped: the dynamic shared memory -5 is negative");
    }

    @Test
    void libraryLogWithAnEndlessLineAndNul() throws Exception {
        Path log = write("libs", "# cuda-stack-budget library log 1\n/" + "a".repeat(BoundedLineReader.MAX_LINE + 5)
                + "\n/lib/x\u0000.so\n/lib/libc.so.6\r\n");

        LibraryLog read = LaunchLogReader.readLibraryLog(log, Frontend.PARAMETERS);

        assertThat(read.libraries()).containsExactly(Path.of("/lib/libc.so.6"));
        assertThat(read.warnings()).containsExactly(
                log + ":2: malformed line skipped: longer than 1048576 characters",
                log + ":3: malformed line skipped: the path holds a NUL byte");
    }
}
