package io.github.cudastackbudget.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ToolRunTest {

    private static final Duration SHORT = Duration.ofSeconds(1);
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private Path script(String body) throws IOException {
        Path file = tmp.resolve("tool");
        Files.writeString(file, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /**
     * Regression: a wrapper script whose hung child the watchdog killed went on, printed its last line and exited 0
     * before the watchdog looked at the wrapper itself; commons-exec then saw a finished process, did not mark it as
     * killed, and the run looked like a normal run with little output (the engine said "no device code" instead of
     * "did not finish within"). It happened only on a loaded machine; the hook lets the wrapper finish first every time.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void wrapperThatExitsZeroAfterItsChildIsKilledAtTheTimeoutStillTimedOut() throws Exception {
        Path wrapper = script("sleep 25\necho 'child ended'\nexit 0");
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean wrapperExitedOnItsOwn = new AtomicBoolean();

        ToolRun run = ToolRun.run(wrapper, List.of(), null, SHORT, lines::add, tool -> {
            try {
                tool.onExit().get(10, TimeUnit.SECONDS);
                wrapperExitedOnItsOwn.set(true);
            } catch (Exception e) {
                // the wrapper did not exit: the watchdog stops it next, the assertions below say so
            }
        });

        // the race really was forced: the wrapper ended by itself, with exit 0 and its last line printed
        assertThat(wrapperExitedOnItsOwn).isTrue();
        assertThat(run.exitCode()).isZero();
        assertThat(lines).containsExactly("child ended");
        // and the run is still a timeout: the tool was running at the deadline, so its output is incomplete
        assertThat(run.timedOut()).isTrue();
        assertThat(run.failure()).isNull();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void hungToolIsKilledAtTheTimeoutWithItsPartialOutput() throws Exception {
        Path tool = script("echo partial\nexec sleep 30");
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();

        ToolRun run = ToolRun.run(tool, List.of(), null, SHORT, lines::add);

        assertThat(run.timedOut()).isTrue();
        assertThat(run.exitCode()).isNotZero();
        assertThat(lines).containsExactly("partial");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void lineCutByTheKillIsNotPassedOnAndCannotHideTheTimeout() throws Exception {
        // regression: the cut last line was flushed into the parser, whose error replaced the timeout
        Path tool = script("printf 'whole\\ncut mid-li'\nexec sleep 30");
        List<String> lines = Collections.synchronizedList(new ArrayList<>());

        ToolRun run = ToolRun.run(tool, List.of(), null, SHORT, line -> {
            if (!line.equals("whole")) {
                throw new IllegalStateException("unreadable line " + line);
            }
            lines.add(line);
        });

        assertThat(run.timedOut()).isTrue();
        assertThat(lines).containsExactly("whole");
    }

    @Test
    void consumerFailureOfAToolThatFinishedIsRethrown() throws Exception {
        Path tool = script("printf 'good\\nbad'");

        assertThatThrownBy(() -> ToolRun.run(tool, List.of(), null, GENEROUS, line -> {
            if (line.equals("bad")) {
                throw new IllegalStateException("unreadable line " + line);
            }
        })).isInstanceOf(IllegalStateException.class).hasMessage("unreadable line bad");
    }

    @Test
    void toolThatFinishesInTimeIsNotATimeoutWhateverItsExitStatus() throws Exception {
        Path tool = script("echo out\necho 'bad input' >&2\nexit 3");
        List<String> lines = new ArrayList<>();

        ToolRun run = ToolRun.run(tool, List.of(), null, GENEROUS, lines::add);

        assertThat(run.timedOut()).isFalse();
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(lines).containsExactly("out");
        assertThat(run.stderrFirstLine()).isEqualTo(": bad input");
    }

    @Test
    void toolKilledBySomeoneElseIsAFailedExitNotATimeout() throws Exception {
        // a signal from outside (the OOM killer, a user) is an abnormal exit status, never mistaken for the timeout
        Path tool = script("kill -9 $$");
        AtomicInteger hookCalls = new AtomicInteger();

        ToolRun run = ToolRun.run(tool, List.of(), null, GENEROUS, line -> { }, process -> hookCalls.incrementAndGet());

        assertThat(run.timedOut()).isFalse();
        assertThat(run.exitCode()).isEqualTo(128 + 9);
        assertThat(hookCalls).hasValue(0);
    }
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void lineLongerThanTheLimitIsRefusedAndTheToolStopped() throws Exception {
        Path tool = script("echo first\nexec tr '\\000' x < /dev/zero");
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();

        ToolRun run = ToolRun.run(tool, List.of(), null, GENEROUS, lines::add, process -> { }, 1000, 1L << 30);

        assertThat(run.refused()).isEqualTo("printed a line longer than 1000 bytes");
        assertThat(run.timedOut()).isFalse();
        assertThat(lines).containsExactly("first");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void outputBeyondTheTotalLimitIsRefusedAndTheToolStopped() throws Exception {
        Path tool = script("exec yes line");
        AtomicInteger count = new AtomicInteger();

        ToolRun run = ToolRun.run(tool, List.of(), null, GENEROUS, line -> count.incrementAndGet(), process -> { },
                1000, 1_000_000);

        assertThat(run.refused()).isEqualTo("printed more than 1000000 bytes of output");
        assertThat(run.timedOut()).isFalse();
        // no more lines than fit the limit ("line\n" is 5 bytes)
        assertThat(count.get()).isBetween(1, 200_000);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void consumerFailureStopsAToolThatWouldRunOnAtOnce() throws Exception {
        Path tool = script("exec yes bad");
        long start = System.nanoTime();

        assertThatThrownBy(() -> ToolRun.run(tool, List.of(), null, GENEROUS, line -> {
            throw new IllegalStateException("unreadable line " + line);
        })).isInstanceOf(IllegalStateException.class).hasMessage("unreadable line bad");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void crlfLineEndsAndALastLineWithoutBreakArePassedOn() throws Exception {
        Path tool = script("printf 'one\\r\\ntwo\\n\\nthree'");
        List<String> lines = new ArrayList<>();

        ToolRun run = ToolRun.run(tool, List.of(), null, GENEROUS, lines::add);

        assertThat(run.refused()).isNull();
        assertThat(lines).containsExactly("one", "two", "", "three");
    }
    /**
     * Regression: the output pump starts before the executor hands the process to the watchdog; a consumer that
     * failed on the very first line in between asked to stop a process not known yet, and the tool ran on until the
     * timeout (seen once under load, 60 s). Twenty runs of a tool that fails its consumer at once, then hangs.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aStopAskedForBeforeTheWatchdogKnowsTheProcessIsCarriedOut() throws Exception {
        Path tool = script("echo bad\nexec sleep 60");
        for (int i = 0; i < 20; i++) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> ToolRun.run(tool, List.of(), null, GENEROUS, line -> {
                throw new IllegalStateException("unreadable line " + line);
            })).hasMessage("unreadable line bad");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("run %d", i).isLessThan(Duration.ofSeconds(30));
        }
    }

    @Test
    void manyLinesAcrossTheCopyBuffersArriveWholeAndInOrder() throws Exception {
        // the names fed on stdin come back through cat: megabytes, lines of every length, CRLF ends, no final newline
        StringBuilder input = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            String line = "_Z" + i + "x".repeat(i % 997) + (i % 5 == 0 ? "\u00e9" : "");
            expected.add(line);
            input.append(line).append(i % 7 == 0 ? "\r\n" : "\n");
        }
        input.append("last");
        expected.add("last");
        List<String> lines = Collections.synchronizedList(new ArrayList<>());

        ToolRun run = ToolRun.run(script("exec cat"), List.of(), input.toString().getBytes(StandardCharsets.UTF_8),
                GENEROUS, lines::add);

        assertThat(run.exitCode()).isZero();
        assertThat(input.length()).isGreaterThan(5_000_000);
        assertThat(lines).containsExactlyElementsOf(expected);
    }
}
