package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.scan.DeviceCodeProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** Reads many files with one engine, several at a time, reporting progress; results keep the input order. */
public final class LibraryScanner {

    /** Progress callbacks, called from worker threads (implementations must be thread-safe). */
    public interface Progress {
        /** A file was read: {@code done} of {@code total}. */
        void finished(LibraryScan scan, int done, int total);
    }

    private final KernelEngine engine;
    private final int parallelism;

    public LibraryScanner(KernelEngine engine, int parallelism) {
        this.engine = engine;
        this.parallelism = Math.max(1, parallelism);
    }

    /**
     * Reads every file.
     *
     * @throws EngineException the first failure in input order (the others are abandoned)
     */
    public List<LibraryScan> scan(List<DeviceCodeProbe> files, Progress progress) throws EngineException {
        if (files.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, files.size()), runnable -> {
            Thread thread = new Thread(runnable, "cuda-stack-budget-scan");
            thread.setDaemon(true);
            return thread;
        });
        AtomicInteger done = new AtomicInteger();
        try {
            List<Future<LibraryScan>> futures = new ArrayList<>();
            for (DeviceCodeProbe file : files) {
                futures.add(pool.submit(() -> {
                    LibraryScan scan = engine.read(file);
                    progress.finished(scan, done.incrementAndGet(), files.size());
                    return scan;
                }));
            }
            List<LibraryScan> scans = new ArrayList<>();
            for (Future<LibraryScan> future : futures) {
                try {
                    scans.add(future.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof EngineException engineException) {
                        throw engineException;
                    }
                    throw new EngineException("reading a library failed unexpectedly: " + e.getCause(), e.getCause());
                }
            }
            return scans;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineException("interrupted while reading libraries", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
