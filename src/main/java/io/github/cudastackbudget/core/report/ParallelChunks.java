package io.github.cudastackbudget.core.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A report's long list rendered in consecutive ranges at once (issue 11: once the read runs on every core, a cold
 * check's largest single cost is the slowest report writer, one loop over every function or record). The ranges and
 * their bytes follow from the number of items alone, never from the machine, and are put together in order: the
 * output is the same bytes whatever the number of threads. A small list is one range, rendered by the calling thread.
 */
final class ParallelChunks {

    /** Items per range at the least (a range below this costs more to hand over than to render). */
    static final int MIN_ITEMS = 1024;
    /** The most ranges of one list. */
    static final int MAX_CHUNKS = 8;

    private ParallelChunks() {
    }

    /** Renders items {@code [from, to)} of a list. */
    @FunctionalInterface
    interface Renderer {
        void render(int from, int to, ByteArrayOutputStream out) throws IOException;
    }

    /** One range's bytes: the first {@code length} of {@code bytes} (the buffer they were rendered into, not copied). */
    record Part(byte[] bytes, int length) {
    }

    /** A buffer whose bytes are handed on as they are. */
    private static final class Buffer extends ByteArrayOutputStream {
        Buffer(int size) {
            super(size);
        }

        Part part() {
            return new Part(buf, count);
        }
    }

    /**
     * The ranges of {@code items}: about equal, at least {@link #MIN_ITEMS} each, at most {@link #MAX_CHUNKS} and at
     * most {@code maxChunks}.
     */
    static int[] bounds(int items, int maxChunks) {
        int chunks = (int) Math.max(1, Math.min(Math.min(MAX_CHUNKS, maxChunks), (long) items / MIN_ITEMS));
        int[] bounds = new int[chunks + 1];
        for (int i = 1; i <= chunks; i++) {
            bounds[i] = (int) ((long) items * i / chunks);
        }
        return bounds;
    }

    /**
     * Each range's bytes, in order, in at most {@code maxChunks} ranges (1: the whole list on the calling thread, as
     * the tests compare); the first range on the calling thread, the others on as many threads as there are
     * processors (at most one per range). A renderer's exception is this call's, after every range has ended.
     *
     * @param sizeHint the bytes one item takes, about (the first capacity of each range's buffer)
     */
    static List<Part> render(int items, int maxChunks, int sizeHint, Renderer renderer) throws IOException {
        try {
            return renderRanges(items, maxChunks, sizeHint, renderer);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static List<Part> renderRanges(int items, int maxChunks, int sizeHint, Renderer renderer)
            throws IOException {
        int[] bounds = bounds(items, maxChunks);
        int chunks = bounds.length - 1;
        int threads = Math.min(chunks - 1, Math.max(0, Runtime.getRuntime().availableProcessors() - 1));
        if (threads == 0) {
            List<Part> all = new ArrayList<>(chunks);
            for (int c = 0; c < chunks; c++) {
                all.add(range(renderer, bounds[c], bounds[c + 1], sizeHint));
            }
            return all;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "cuda-stack-budget-report-part");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Part>> rest = new ArrayList<>(chunks - 1);
            for (int c = 1; c < chunks; c++) {
                int from = bounds[c];
                int to = bounds[c + 1];
                rest.add(pool.submit(() -> range(renderer, from, to, sizeHint)));
            }
            List<Part> all = new ArrayList<>(chunks);
            all.add(range(renderer, bounds[0], bounds[1], sizeHint));
            for (Future<Part> part : rest) {
                all.add(part.get());
            }
            return all;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException unchecked) {
                throw unchecked.getCause();
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
            throw new InterruptedIOException("interrupted while rendering a report");
        } finally {
            pool.shutdownNow();
            ReportFiles.awaitQuietly(pool); // no range outlives the call: a failed one returns once the others end
        }
    }

    private static Part range(Renderer renderer, int from, int to, int sizeHint) {
        Buffer out = new Buffer((int) Math.min(1 << 26,
                Math.max(256L, (long) (to - from) * Math.max(1, sizeHint))));
        try {
            renderer.render(from, to, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.part();
    }
}
