package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.report.html.HtmlReportWriter;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The report files of a check, each formatted from the one report model: {@code cuda-stack-budget.json},
 * {@code cuda-stack-budget.txt} (the full text report) and {@code cuda-stack-budget.html} (the standalone page).
 */
public final class ReportFiles {

    /** The text report's file name. */
    public static final String TEXT_FILE_NAME = "cuda-stack-budget.txt";

    private ReportFiles() {
    }

    /**
     * Writes the three reports into {@code directory} (created if needed), each through a temporary file.
     *
     * @param top      kernel rows the page shows at first
     * @param frontend spells the options the reports name
     * @return the files written: JSON, text, HTML
     */
    public static List<Path> write(ReportModel model, Path directory, int top, Frontend frontend) throws IOException {
        Files.createDirectories(directory);
        List<Callable<Path>> writers = List.of(
                () -> JsonReportWriter.write(model, directory),
                () -> {
                    Path text = directory.resolve(TEXT_FILE_NAME);
                    Path temporary = directory.resolve(TEXT_FILE_NAME + ".tmp");
                    Files.write(temporary, TextReport.render(model, 0, true, frontend), StandardCharsets.UTF_8);
                    Files.move(temporary, text, StandardCopyOption.REPLACE_EXISTING);
                    return text;
                },
                () -> HtmlReportWriter.write(model, top, frontend, directory));
        // the formats share nothing but the (immutable) model: written at once, a cold run's largest single cost
        // (about half of a cached re-check) is the slowest writer instead of the sum of the three
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
    private static void awaitQuietly(ExecutorService pool) {
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
