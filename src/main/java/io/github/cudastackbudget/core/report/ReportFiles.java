package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.report.html.HtmlReportWriter;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The report files of a check, each formatted from the one report model, in the formats the user selected
 * ({@link ReportFormat}: {@code cuda-stack-budget.json}, {@code .txt} (the full text report), {@code .html} (the
 * standalone page), {@code .md} (the Markdown summary), {@code .sarif} and {@code TEST-cuda-stack-budget.xml}). A
 * format not selected loses its file from an earlier run, and a check that could not run writes the error into each
 * selected format instead of figures ({@link #writeError}): no report in the directory is ever left from a run whose
 * result it does not describe. With a step summary file ({@code $GITHUB_STEP_SUMMARY}) the Markdown summary is also
 * appended to it, whether or not {@code markdown} is selected.
 */
public final class ReportFiles {

    /** The text report's file name. */
    public static final String TEXT_FILE_NAME = "cuda-stack-budget.txt";

    /** The formats written when none are selected: JSON, text, HTML. */
    public static final Set<ReportFormat> DEFAULT_FORMATS = EnumSet.of(ReportFormat.JSON, ReportFormat.TXT,
            ReportFormat.HTML);

    private ReportFiles() {
    }

    /** Writes the three default reports (JSON, text, HTML); see {@link #write(ReportModel, Path, int, Frontend, Set, Path)}. */
    public static List<Path> write(ReportModel model, Path directory, int top, Frontend frontend) throws IOException {
        return write(model, directory, top, frontend, DEFAULT_FORMATS, null);
    }

    /**
     * Writes the selected reports into {@code directory} (created if needed), each through a temporary file, all at
     * once; deletes the files of the formats not selected.
     *
     * @param top         kernel rows the page shows at first
     * @param frontend    spells the options the reports name
     * @param formats     the formats to write
     * @param stepSummary a file to append the Markdown summary to ({@code $GITHUB_STEP_SUMMARY}), or null
     * @return the files written, in {@link ReportFormat}'s order (JSON, text, HTML, Markdown, JUnit, SARIF)
     */
    public static List<Path> write(ReportModel model, Path directory, int top, Frontend frontend,
            Set<ReportFormat> formats, Path stepSummary) throws IOException {
        return write(model, directory, top, frontend, formats, stepSummary, null);
    }

    /**
     * The same, putting each format's wall time in milliseconds into {@code millis} (where not null: the debug line
     * of a cold run's writers, issue 11).
     */
    public static List<Path> write(ReportModel model, Path directory, int top, Frontend frontend,
            Set<ReportFormat> formats, Path stepSummary, java.util.Map<ReportFormat, Long> millis) throws IOException {
        Files.createDirectories(directory);
        removeUnselected(directory, formats);
        List<Callable<Path>> writers = new ArrayList<>();
        for (ReportFormat format : formats) {
            writers.add(switch (format) {
                case JSON -> () -> JsonReportWriter.write(model, directory);
                case TXT -> () -> atomically(directory, format, out -> writeLines(TextReport.render(model, 0, true,
                        frontend), out));
                case HTML -> () -> HtmlReportWriter.write(model, top, frontend, directory);
                case MARKDOWN -> () -> atomically(directory, format, out -> out.write(MarkdownReport.render(model,
                        frontend, others(formats, format), true).getBytes(StandardCharsets.UTF_8)));
                case JUNIT -> () -> atomically(directory, format, out -> JUnitReportWriter.write(model, frontend,
                        out));
                case SARIF -> () -> atomically(directory, format, out -> SarifReportWriter.write(model, frontend,
                        out));
            });
        }
        if (millis != null) {
            List<ReportFormat> order = List.copyOf(formats);
            for (int i = 0; i < writers.size(); i++) {
                Callable<Path> writer = writers.get(i);
                ReportFormat format = order.get(i);
                writers.set(i, () -> {
                    long start = System.nanoTime();
                    Path file = writer.call();
                    millis.put(format, (System.nanoTime() - start) / 1_000_000);
                    return file;
                });
            }
        }
        List<Path> written = inParallel(writers, directory);
        if (stepSummary != null) {
            appendStepSummary(stepSummary, stepSummaryMarkdown(model, frontend, written));
        }
        return written;
    }

    /** The Markdown {@link #write} appends to {@code $GITHUB_STEP_SUMMARY} for these report files. */
    public static String stepSummaryMarkdown(ReportModel model, Frontend frontend, List<Path> written) {
        return MarkdownReport.render(model, frontend, names(written), false);
    }

    /**
     * Writes report files whose bytes are known (the check-result cache's replay of an identical earlier check), as
     * {@link #write} writes rendered ones: each through a temporary file, the files of the formats not selected
     * deleted, the Markdown appended to the step summary.
     *
     * @param files       each selected format's bytes, in the order to report them
     * @param stepSummary the file to append {@code markdown} to, or null
     * @return the files written, in the order given
     */
    public static List<Path> writeBytes(Path directory, Set<ReportFormat> formats,
            java.util.Map<ReportFormat, java.nio.ByteBuffer> files, Path stepSummary, String markdown)
            throws IOException {
        return writeBytes(directory, formats, files, stepSummary, markdown, (format, file) -> false);
    }

    /**
     * The same, leaving alone each file that {@code unchanged} says holds its bytes already (the check-result cache
     * knows the files it wrote before: a re-check of an unchanged build need not write them again).
     */
    public static List<Path> writeBytes(Path directory, Set<ReportFormat> formats,
            java.util.Map<ReportFormat, java.nio.ByteBuffer> files, Path stepSummary, String markdown,
            java.util.function.BiPredicate<ReportFormat, Path> unchanged) throws IOException {
        if (!files.keySet().equals(formats)) {
            throw new IllegalArgumentException("the stored reports " + files.keySet() + " are not the formats "
                    + formats);
        }
        Files.createDirectories(directory);
        removeUnselected(directory, formats);
        // the files that hold their bytes already are found first (a look at each file's status, mostly): a re-check of
        // an unchanged build starts no writer thread (issue 11: the threads were most of a cached re-check's writing)
        List<Path> written = new ArrayList<>(files.size());
        List<Callable<Path>> writers = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        for (java.util.Map.Entry<ReportFormat, java.nio.ByteBuffer> file : files.entrySet()) {
            java.nio.ByteBuffer bytes = file.getValue().duplicate();
            Path target = directory.resolve(file.getKey().fileName());
            written.add(target);
            if (!unchanged.test(file.getKey(), target)) {
                slots.add(written.size() - 1);
                writers.add(() -> atomically(directory, file.getKey(), bytes));
            }
        }
        List<Path> rewritten = writers.size() == 1 ? List.of(call(writers.get(0))) : inParallel(writers, directory);
        for (int i = 0; i < slots.size(); i++) {
            written.set(slots.get(i), rewritten.get(i));
        }
        written = List.copyOf(written);
        if (stepSummary != null && markdown != null) {
            appendStepSummary(stepSummary, markdown);
        }
        return written;
    }

    private static Path call(Callable<Path> writer) throws IOException {
        try {
            return writer.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Writes the report of a check that could not run: the error, in each selected format (JSON {@code error}, the
     * text and Markdown say it, a JUnit {@code <error>} test case, a SARIF run that did not execute successfully, an
     * HTML page with the error), and deletes the files of the formats not selected.
     *
     * @return the files written, in {@link ReportFormat}'s order
     */
    public static List<Path> writeError(String message, Path directory, Set<ReportFormat> formats, Path stepSummary)
            throws IOException {
        Files.createDirectories(directory);
        removeUnselected(directory, formats);
        List<Callable<Path>> writers = new ArrayList<>();
        for (ReportFormat format : formats) {
            writers.add(() -> atomically(directory, format, out -> {
                switch (format) {
                    case JSON -> JsonReportWriter.writeError(message, out);
                    case TXT -> out.write(lines(TextReport.error(message)));
                    case HTML -> {
                        Writer writer = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
                        HtmlReportWriter.renderError(message, writer);
                        writer.flush();
                    }
                    case MARKDOWN -> out.write(MarkdownReport.error(message, others(formats, format), true)
                            .getBytes(StandardCharsets.UTF_8));
                    case JUNIT -> JUnitReportWriter.writeError(message, out);
                    case SARIF -> SarifReportWriter.writeError(message, out);
                }
            }));
        }
        List<Path> written = inParallel(writers, directory);
        if (stepSummary != null) {
            appendStepSummary(stepSummary, MarkdownReport.error(message, names(written), false));
        }
        return written;
    }

    /** Deletes every report file (of every format) in {@code directory}: where no report can be written at all. */
    public static void removeAll(Path directory) throws IOException {
        removeUnselected(directory, EnumSet.noneOf(ReportFormat.class));
    }

    private static void removeUnselected(Path directory, Set<ReportFormat> formats) throws IOException {
        for (ReportFormat format : ReportFormat.values()) {
            if (!formats.contains(format)) {
                Files.deleteIfExists(directory.resolve(format.fileName()));
            }
        }
    }

    /** The other selected reports' file names, for the Markdown summary's links. */
    private static List<String> others(Set<ReportFormat> formats, ReportFormat self) {
        return formats.stream().filter(format -> format != self).map(ReportFormat::fileName).toList();
    }

    private static List<String> names(List<Path> files) {
        return files.stream().map(Path::toString).toList();
    }

    /**
     * The lines, each ended by a line break, in UTF-8 through a buffer (issue 11: joined first into one text, a large
     * report was copied four times over, the builder's growth included, and its pages touched afresh each time). The
     * bytes are those of {@link #lines}: each line is encoded alone there too, as no character pair spans a break.
     */
    private static void writeLines(List<String> lines, OutputStream out) throws IOException {
        OutputStream buffered = new java.io.BufferedOutputStream(out, 1 << 16);
        for (String line : lines) {
            buffered.write(line.getBytes(StandardCharsets.UTF_8));
            buffered.write('\n');
        }
        buffered.flush();
    }

    private static byte[] lines(List<String> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line).append('\n'));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** GitHub shows what every step appends to the file; nothing is ever replaced. */
    private static void appendStepSummary(Path file, String markdown) throws IOException {
        try {
            Files.writeString(file, markdown, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new IOException("cannot append the Markdown summary to GITHUB_STEP_SUMMARY " + file + " ("
                    + e.getMessage() + ")", e);
        }
    }

    /** Writes one format's file through a temporary file in the same directory. */
    private static Path atomically(Path directory, ReportFormat format, Body body) throws IOException {
        Path file = directory.resolve(format.fileName());
        Path temporary = directory.resolve(format.fileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            body.write(out);
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /**
     * Writes one format's stored bytes through a temporary file: with a channel, so that bytes mapped from the
     * check-result cache go from the page cache to the file without a copy on the heap.
     */
    private static Path atomically(Path directory, ReportFormat format, java.nio.ByteBuffer bytes) throws IOException {
        Path file = directory.resolve(format.fileName());
        Path temporary = directory.resolve(format.fileName() + ".tmp");
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(temporary,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer rest = bytes.duplicate();
            while (rest.hasRemaining()) {
                channel.write(rest);
            }
        } catch (InternalError e) {
            // a mapped entry cut short by something else while it was copied
            throw new IOException("its stored copy changed while it was written", e);
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    @FunctionalInterface
    private interface Body {
        void write(OutputStream out) throws IOException;
    }

    /**
     * Runs the writers at once: the formats share nothing but the (immutable) model, so a cold run's largest single
     * cost (about half of a cached re-check) is the slowest writer instead of the sum of them.
     */
    private static List<Path> inParallel(List<Callable<Path>> writers, Path directory) throws IOException {
        if (writers.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers.size(), runnable -> {
            Thread thread = new Thread(runnable, "cuda-stack-budget-report");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Path>> futures = new ArrayList<>(writers.size());
            for (Callable<Path> writer : writers) {
                futures.add(pool.submit(writer));
            }
            List<Path> written = new ArrayList<>(writers.size());
            for (Future<Path> future : futures) {
                written.add(future.get());
            }
            return List.copyOf(written);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while writing the reports in " + directory);
        } finally {
            pool.shutdown();
            awaitQuietly(pool);
        }
    }

    /** A failed write returns once the other writers have ended: no writer outlives the call that started it. */
    static void awaitQuietly(ExecutorService pool) {
        boolean interrupted = false;
        while (true) {
            try {
                if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
                pool.shutdownNow();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
