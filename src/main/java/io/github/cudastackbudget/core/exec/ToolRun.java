package io.github.cudastackbudget.core.exec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.LogOutputStream;
import org.apache.commons.exec.PumpStreamHandler;

/**
 * One run of an external tool through commons-exec: arguments passed as they are (no shell), a watchdog timeout,
 * standard output streamed line by line to a consumer, standard error kept up to a bound. Any exit status is returned
 * (the caller decides what it means).
 *
 * @param exitCode the tool's exit status (-1 when it could not start)
 * @param stderr   the first 64 KiB of its standard error
 * @param timedOut true when it was still running at the timeout (it was then killed; whatever exit status or output
 *                 it ended with is incomplete)
 * @param failure  why it could not start or be read, else null
 */
public record ToolRun(int exitCode, String stderr, boolean timedOut, IOException failure) {

    private static final int MAX_STDERR = 64 * 1024;
    private static final Duration STREAM_STOP_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Runs {@code executable arguments...}.
     *
     * @param stdin  bytes for standard input, or null for none
     * @param stdout receives each line of standard output, in order, on a pump thread; a RuntimeException it throws
     *               stops the consumption and is rethrown here after the tool ends, unless the tool timed out (its
     *               output is then incomplete: the timeout is the verdict, and the line cut by the kill is not passed on)
     */
    public static ToolRun run(Path executable, List<String> arguments, byte[] stdin, Duration timeout,
            Consumer<String> stdout) {
        return run(executable, arguments, stdin, timeout, stdout, tool -> { });
    }

    /**
     * {@link #run(Path, List, byte[], Duration, Consumer)} with a hook that the watchdog calls at the timeout after it
     * has killed the tool's descendants and before it stops the tool itself (tests use it to let a wrapper script
     * react to its child's death first, which a loaded machine does at random).
     */
    static ToolRun run(Path executable, List<String> arguments, byte[] stdin, Duration timeout,
            Consumer<String> stdout, Consumer<Process> afterDescendantsKilled) {
        CommandLine command = new CommandLine(executable.toFile());
        arguments.forEach(argument -> command.addArgument(argument, false));
        RuntimeException[] consumerFailure = new RuntimeException[1];
        OutputStream lines = new LogOutputStream(0, StandardCharsets.UTF_8) {
            @Override
            protected void processLine(String line, int level) {
                if (consumerFailure[0] != null) {
                    return;
                }
                try {
                    stdout.accept(line);
                } catch (RuntimeException e) {
                    consumerFailure[0] = e;
                }
            }
        };
        BoundedBuffer stderr = new BoundedBuffer(MAX_STDERR);
        TreeKillingWatchdog watchdog = new TreeKillingWatchdog(timeout, afterDescendantsKilled);
        DefaultExecutor executor = DefaultExecutor.builder().get();
        PumpStreamHandler streams = stdin == null ? new PumpStreamHandler(lines, stderr)
                : new PumpStreamHandler(lines, stderr, new ByteArrayInputStream(stdin));
        // once the tool has ended (or was killed), stop pumping output that a surviving grandchild still holds open
        streams.setStopTimeout(STREAM_STOP_TIMEOUT);
        executor.setStreamHandler(streams);
        executor.setWatchdog(watchdog);
        executor.setExitValues(null);
        int exitCode;
        IOException failure = null;
        try {
            exitCode = executor.execute(command);
        } catch (ExecuteException e) {
            exitCode = e.getExitValue();
        } catch (IOException e) {
            exitCode = -1;
            failure = e;
        }
        boolean timedOut = watchdog.timedOut();
        if (!timedOut) {
            try {
                lines.close();
            } catch (IOException ignored) {
                // closing flushes the last unterminated line into the consumer; nothing else can fail here
            }
            if (consumerFailure[0] != null) {
                throw consumerFailure[0];
            }
        }
        // the watchdog's own verdict, not killedProcess(): see TreeKillingWatchdog
        return new ToolRun(exitCode, stderr.text(), timedOut, failure);
    }

    /** {@code ": first line of stderr"}, or empty when it printed nothing. */
    public String stderrFirstLine() {
        String trimmed = stderr == null ? "" : stderr.strip();
        if (trimmed.isEmpty()) {
            return "";
        }
        int newline = trimmed.indexOf('\n');
        return ": " + (newline < 0 ? trimmed : trimmed.substring(0, newline).strip());
    }

    /**
     * A watchdog that, on timeout, kills the tool's descendants before the tool itself: a wrapper script's hung child
     * would otherwise keep the output pipes open and the build waiting.
     *
     * <p>It decides "timed out" itself, before it kills anything: the tool was still running at the deadline, so its
     * output is incomplete whatever it does next. {@link ExecuteWatchdog#killedProcess()} cannot be used: it is set
     * only when the tool is still alive <em>after</em> the descendants were killed, and a wrapper whose child just died
     * may by then have printed its last line and exited 0 on its own (on a loaded machine it often has), which made a
     * timeout look like a normal run with little output.
     */
    private static final class TreeKillingWatchdog extends ExecuteWatchdog {
        private final Consumer<Process> afterDescendantsKilled;
        private Process process;
        private boolean timedOut;

        @SuppressWarnings("deprecation") // the builder cannot make a subclass; the millisecond constructor is the same
        TreeKillingWatchdog(Duration timeout, Consumer<Process> afterDescendantsKilled) {
            super(timeout.toMillis());
            this.afterDescendantsKilled = afterDescendantsKilled;
        }

        @Override
        public synchronized void start(Process started) {
            this.process = started;
            super.start(started);
        }

        @Override
        public synchronized void timeoutOccured(org.apache.commons.exec.Watchdog watchdog) {
            // a tool that ended by itself before this point (stop() clears isWatching()) finished in time
            if (process != null && isWatching() && process.isAlive()) {
                timedOut = true;
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                afterDescendantsKilled.accept(process);
            }
            super.timeoutOccured(watchdog);
        }

        /**
         * Whether the tool was still running when the timeout fired. Read after the executor returned: the executor
         * calls the synchronized {@link #stop()} after the tool ended, so a timeout being handled has finished by then.
         */
        synchronized boolean timedOut() {
            return timedOut || killedProcess();
        }
    }

    /** Keeps the first bytes of a stream and drops the rest, so a chatty tool cannot exhaust memory. */
    private static final class BoundedBuffer extends ByteArrayOutputStream {
        private final int limit;

        BoundedBuffer(int limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            super.write(bytes, offset, Math.min(Math.max(0, limit - count), length));
        }

        @Override
        public synchronized void write(int value) {
            if (count < limit) {
                super.write(value);
            }
        }

        String text() {
            return toString(StandardCharsets.UTF_8);
        }
    }
}
