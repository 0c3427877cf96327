package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    /** One read: a scan, or empty when the input turned out to hold no device code. */
    @FunctionalInterface
    public interface ReadTask {
        Optional<LibraryScan> read() throws EngineException;
    }

    /**
     * Reads every file with this scanner's engine.
     *
     * @throws EngineException the first failure in input order (the others are abandoned)
     */
    public List<LibraryScan> scan(List<DeviceCodeProbe> files, Progress progress) throws EngineException {
        List<ReadTask> tasks = new ArrayList<>(files.size());
        for (DeviceCodeProbe file : files) {
            tasks.add(() -> Optional.of(engine.read(file)));
        }
        return run(tasks, progress);
    }

    /**
     * Runs reads several at a time; the scans keep the task order, empty results are left out.
     *
     * @throws EngineException the first failure in task order (the others are abandoned)
     */
    public List<LibraryScan> run(List<ReadTask> files, Progress progress) throws EngineException {
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
            List<Future<Optional<LibraryScan>>> futures = new ArrayList<>();
            for (ReadTask file : files) {
                futures.add(pool.submit(() -> {
                    Optional<LibraryScan> scan = file.read();
                    int finished = done.incrementAndGet();
                    scan.ifPresent(read -> progress.finished(read, finished, files.size()));
                    return scan;
                }));
            }
            List<LibraryScan> scans = new ArrayList<>();
            for (Future<Optional<LibraryScan>> future : futures) {
                try {
                    future.get().ifPresent(scans::add);
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
