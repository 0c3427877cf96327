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
 * @param refused  why its output was refused and the tool stopped early (a line longer than {@link #MAX_LINE} bytes,
 *                 more than {@link #MAX_OUTPUT} bytes in all), else null; its exit status and output are then
 *                 incomplete
 */
public record ToolRun(int exitCode, String stderr, boolean timedOut, IOException failure, String refused) {

    /** The longest line of standard output passed on: real tools' lines are far shorter (a mangled name). */
    public static final int MAX_LINE = 1 << 20;
    /** The most standard output read from one run: 27 times what cuobjdump prints for the largest library seen. */
    public static final long MAX_OUTPUT = 1L << 30;
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
        return run(executable, arguments, stdin, timeout, stdout, tool -> { }, MAX_LINE, MAX_OUTPUT);
    }

    static ToolRun run(Path executable, List<String> arguments, byte[] stdin, Duration timeout,
            Consumer<String> stdout, Consumer<Process> afterDescendantsKilled) {
        return run(executable, arguments, stdin, timeout, stdout, afterDescendantsKilled, MAX_LINE, MAX_OUTPUT);
    }

    /**
     * {@link #run(Path, List, byte[], Duration, Consumer)} with a hook that the watchdog calls at the timeout after it
     * has killed the tool's descendants and before it stops the tool itself (tests use it to let a wrapper script
     * react to its child's death first, which a loaded machine does at random).
     */
    /**
     * The full form: {@code maxLine} and {@code maxOutput} bound what standard output may hold (tests lower them).
     * A consumer failure or refused output stops the tool at once (with its descendants): nothing it prints after can
     * change the verdict, and a tool that floods its output must not keep the build waiting until the timeout.
     */
    static ToolRun run(Path executable, List<String> arguments, byte[] stdin, Duration timeout,
            Consumer<String> stdout, Consumer<Process> afterDescendantsKilled, int maxLine, long maxOutput) {
        return run(executable, arguments, stdin, timeout, stdout, null, afterDescendantsKilled, maxLine, maxOutput);
    }

    /**
     * {@link #run(Path, List, byte[], Duration, Consumer)} for a tool that prints what the caller needs on standard
     * error (ptxas {@code -v}): every line of standard error goes to {@code stderrLines} too, under the same bounds as
     * standard output (the record's {@code stderr} keeps its first 64 KiB as always).
     */
    public static ToolRun runWithStderrLines(Path executable, List<String> arguments, Duration timeout,
            Consumer<String> stdout, Consumer<String> stderrLines) {
        return run(executable, arguments, null, timeout, stdout, stderrLines, tool -> { }, MAX_LINE, MAX_OUTPUT);
    }

    private static ToolRun run(Path executable, List<String> arguments, byte[] stdin, Duration timeout,
            Consumer<String> stdout, Consumer<String> stderrLines, Consumer<Process> afterDescendantsKilled,
            int maxLine, long maxOutput) {
        CommandLine command = new CommandLine(executable.toFile());
        arguments.forEach(argument -> command.addArgument(argument, false));
        TreeKillingWatchdog watchdog = new TreeKillingWatchdog(timeout, afterDescendantsKilled);
        LineStream lines = new LineStream(stdout, maxLine, maxOutput, watchdog::stopEarly);
        BoundedBuffer stderr = new BoundedBuffer(MAX_STDERR);
        LineStream errorLines = stderrLines == null ? null : new LineStream(stderrLines, maxLine, maxOutput,
                watchdog::stopEarly);
        OutputStream errors = errorLines == null ? stderr : new OutputStream() {
            @Override
            public void write(int value) {
                stderr.write(value);
                errorLines.write(value);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                stderr.write(bytes, offset, length);
                errorLines.write(bytes, offset, length);
            }
        };
        DefaultExecutor executor = DefaultExecutor.builder().get();
        PumpStreamHandler streams = stdin == null ? new Pumps(lines, errors)
                : new Pumps(lines, errors, new ByteArrayInputStream(stdin));
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
            if (lines.refused() == null) {
                lines.flushLastLine();
            }
            if (lines.consumerFailure() != null) {
                throw lines.consumerFailure();
            }
            if (errorLines != null) {
                if (errorLines.refused() == null) {
                    errorLines.flushLastLine();
                }
                if (errorLines.consumerFailure() != null) {
                    throw errorLines.consumerFailure();
                }
            }
        }
        String refusedOutput = lines.refused() != null ? lines.refused()
                : errorLines != null && errorLines.refused() != null ? "on standard error: " + errorLines.refused() : null;
        // the watchdog's own verdict, not killedProcess(): see TreeKillingWatchdog
        return new ToolRun(exitCode, stderr.text(), timedOut, failure, timedOut ? null : refusedOutput);
    }

    /**
     * Standard output split into lines ({@code \n}, a trailing {@code \r} dropped; UTF-8) for the consumer, with a
     * bound on the line length and on the total; what breaks a bound, or a consumer failure, stops the tool.
     */
    /**
     * commons-exec's stream handling with 64 KiB copies instead of its 1 KiB default: a demangler reads and prints
     * megabytes of names (issue 11). The pumps are daemon threads, as commons-exec makes them.
     */
    private static final class Pumps extends PumpStreamHandler {
        private static final int BUFFER = 64 * 1024;

        Pumps(OutputStream out, OutputStream err) {
            super(out, err);
        }

        Pumps(OutputStream out, OutputStream err, java.io.InputStream in) {
            super(out, err, in);
        }

        @Override
        protected Thread createPump(java.io.InputStream is, OutputStream os, boolean closeWhenExhausted) {
            Thread thread = new Thread(new org.apache.commons.exec.StreamPumper(is, os, closeWhenExhausted, BUFFER),
                    "CommonsExecStreamPumper");
            thread.setDaemon(true);
            return thread;
        }
    }

    private static final class LineStream extends OutputStream {
        private final Consumer<String> consumer;
        private final int maxLine;
        private final long maxOutput;
        private final Runnable stop;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        private long total;
        private volatile String refused;
        private volatile RuntimeException consumerFailure;

        LineStream(Consumer<String> consumer, int maxLine, long maxOutput, Runnable stop) {
            this.consumer = consumer;
            this.maxLine = maxLine;
            this.maxOutput = maxOutput;
            this.stop = stop;
        }

        String refused() {
            return refused;
        }

        RuntimeException consumerFailure() {
            return consumerFailure;
        }

        private boolean done() {
            return refused != null || consumerFailure != null;
        }

        @Override
        public synchronized void write(int value) {
            write(new byte[] {(byte) value}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            if (done()) {
                return;
            }
            total += length;
            if (total > maxOutput) {
                refuse("printed more than " + maxOutput + " bytes of output");
                return;
            }
            // a line at a time: the scan for the line break reads no volatile field (a demangler prints megabytes of
            // names; a per-byte check of done() made this loop a sixth of a cold check's samples, issue 11)
            int start = offset;
            int end = offset + length;
            while (start < end) {
                int newline = start;
                while (newline < end && bytes[newline] != '\n') {
                    newline++;
                }
                append(bytes, start, newline - start);
                if (newline == end || done()) {
                    return;
                }
                emit();
                if (done()) {
                    return;
                }
                start = newline + 1;
            }
        }

        private void append(byte[] bytes, int offset, int length) {
            if (line.size() + (long) length > maxLine) {
                refuse("printed a line longer than " + maxLine + " bytes");
                return;
            }
            line.write(bytes, offset, length);
        }

        private void emit() {
            byte[] bytes = line.toByteArray();
            line.reset();
            int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
            try {
                consumer.accept(new String(bytes, 0, length, StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                consumerFailure = e;
                stop.run();
            }
        }

        private void refuse(String why) {
            refused = why;
            line.reset();
            stop.run();
        }

        /** Passes on the last line when the tool ended without a line break. */
        synchronized void flushLastLine() {
            if (!done() && line.size() > 0) {
                emit();
            }
        }
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
        private boolean stoppedEarly;

        @SuppressWarnings("deprecation") // the builder cannot make a subclass; the millisecond constructor is the same
        TreeKillingWatchdog(Duration timeout, Consumer<Process> afterDescendantsKilled) {
            super(timeout.toMillis());
            this.afterDescendantsKilled = afterDescendantsKilled;
        }

        @Override
        public synchronized void start(Process started) {
            this.process = started;
            super.start(started);
            if (stoppedEarly) {
                // the output pump starts before the executor hands the process over: a stop asked for in between
                // is carried out now
                kill(started);
            }
        }

        private static void kill(Process toStop) {
            toStop.descendants().forEach(ProcessHandle::destroyForcibly);
            toStop.destroyForcibly();
        }

        @Override
        public synchronized void timeoutOccured(org.apache.commons.exec.Watchdog watchdog) {
            // a tool that ended by itself before this point (stop() clears isWatching()) finished in time
            if (process != null && isWatching() && process.isAlive() && !stoppedEarly) {
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
            return timedOut || (killedProcess() && !stoppedEarly);
        }

        /** Stops the tool and its descendants now, for a reason of the reader's (not the timeout). */
        void stopEarly() {
            Process toStop;
            synchronized (this) {
                stoppedEarly = true;
                toStop = process;
            }
            if (toStop != null) {
                kill(toStop);
            }
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
