package io.github.cudastackbudget.core.binary;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where the native reader's time goes inside the read stage, summed over its decode threads (a measurement aid for
 * issue 11, off unless the system property {@code cudaStackBudget.readProfile} is {@code true}: then each read adds
 * its walk, heap copies, decompression, PTX scans and cubin parsing, and the check logs {@link #line()} at debug
 * level after the read). Off, each probe is one test of a constant.
 */
public final class ReadProfile {

    /** Whether reads are profiled in this JVM. */
    public static final boolean ENABLED = Boolean.getBoolean("cudaStackBudget.readProfile");

    enum Part {
        WALK("walk (calling thread)"), WAIT("memory wait"), COPY("heap copy"), DECOMPRESS("decompress"),
        PTX("PTX scan"), CUBIN("cubin parse"), TASK("decode tasks");

        final String label;

        Part(String label) {
            this.label = label;
        }
    }

    private static final LongAdder[] NANOS = new LongAdder[Part.values().length];
    private static final LongAdder ENTRIES = new LongAdder();
    private static final LongAdder PTX_ENTRIES = new LongAdder();
    private static final LongAdder ZSTD_ENTRIES = new LongAdder();
    private static final LongAdder LZ4_ENTRIES = new LongAdder();
    private static final LongAdder STORED = new LongAdder();
    private static final LongAdder DECODED = new LongAdder();
    /** Wall clock: the reads (walk and decodes), the walks, and every decode task, summed. */
    private static final LongAdder READ_WALL = new LongAdder();
    private static final LongAdder WALK_WALL = new LongAdder();
    private static final LongAdder TASK_WALL = new LongAdder();
    /** The longest decode task's wall time and the decoded bytes of its entry. */
    private static final java.util.concurrent.atomic.AtomicLong LONGEST = new java.util.concurrent.atomic.AtomicLong();
    private static final java.util.concurrent.atomic.AtomicLong LONGEST_BYTES =
            new java.util.concurrent.atomic.AtomicLong();
    /** When the first decode task began and the last one ended (System.nanoTime). */
    private static final java.util.concurrent.atomic.LongAccumulator FIRST_START =
            new java.util.concurrent.atomic.LongAccumulator(Math::min, Long.MAX_VALUE);
    private static final java.util.concurrent.atomic.LongAccumulator LAST_END =
            new java.util.concurrent.atomic.LongAccumulator(Math::max, Long.MIN_VALUE);
    private static final java.util.Set<String> THREAD_NAMES = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        for (int i = 0; i < NANOS.length; i++) {
            NANOS[i] = new LongAdder();
        }
    }

    private ReadProfile() {
    }

    private static final java.lang.management.ThreadMXBean THREADS = ENABLED
            ? java.lang.management.ManagementFactory.getThreadMXBean() : null;

    /** The calling thread's CPU time (not wall time: decode threads share the cores with the JIT and the GC). */
    private static long now() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** A start time, or 0 when off. */
    static long start() {
        return ENABLED ? now() : 0;
    }

    /** Adds the time since {@code start} to {@code part}; returns now (the next part's start). */
    static long add(Part part, long start) {
        if (!ENABLED) {
            return 0;
        }
        long now = now();
        NANOS[part.ordinal()].add(now - start);
        return now;
    }

    /** A wall-clock start (System.nanoTime), or 0 when off. */
    static long wallStart() {
        return ENABLED ? System.nanoTime() : 0;
    }

    /** Adds the wall time of one read since {@code start}. */
    static void read(long start) {
        if (ENABLED) {
            READ_WALL.add(System.nanoTime() - start);
        }
    }

    /** Adds the wall time of one walk since {@code start}. */
    static void walk(long start) {
        if (ENABLED) {
            WALK_WALL.add(System.nanoTime() - start);
        }
    }

    /** One decode task's wall time since {@code start}, with its decoded bytes (for the longest). */
    static void task(long start, long decodedBytes) {
        if (ENABLED) {
            long end = System.nanoTime();
            long took = end - start;
            TASK_WALL.add(took);
            FIRST_START.accumulate(start);
            LAST_END.accumulate(end);
            THREAD_NAMES.add(Thread.currentThread().getName() + "#" + Thread.currentThread().getId());
            synchronized (LONGEST) {
                if (took > LONGEST.get()) {
                    LONGEST.set(took);
                    LONGEST_BYTES.set(decodedBytes);
                }
            }
        }
    }

    static void entry(boolean ptx, FatbinEntry.Compression compression, long stored, long decoded) {
        if (ENABLED) {
            ENTRIES.increment();
            if (compression == FatbinEntry.Compression.ZSTD) {
                ZSTD_ENTRIES.increment();
            } else if (compression == FatbinEntry.Compression.LZ4) {
                LZ4_ENTRIES.increment();
            }
            if (ptx) {
                PTX_ENTRIES.increment();
            }
            STORED.add(stored);
            DECODED.add(decoded);
        }
    }

    /** The totals so far, one line; then starts again from zero. */
    public static String line() {
        StringBuilder line = new StringBuilder("Read profile (thread CPU ms, summed):");
        for (Part part : Part.values()) {
            line.append(' ').append(part.label).append(' ').append(NANOS[part.ordinal()].sumThenReset() / 1_000_000)
                    .append(',');
        }
        line.append(" entries ").append(ENTRIES.sumThenReset()).append(" (PTX ").append(PTX_ENTRIES.sumThenReset())
                .append(", Zstandard ").append(ZSTD_ENTRIES.sumThenReset()).append(", LZ4 ")
                .append(LZ4_ENTRIES.sumThenReset())
                .append("), stored ").append(STORED.sumThenReset()).append(" B, decoded ")
                .append(DECODED.sumThenReset()).append(" B");
        long first = FIRST_START.getThenReset();
        long last = LAST_END.getThenReset();
        line.append("; wall ms: reads ").append(READ_WALL.sumThenReset() / 1_000_000).append(" (walks ")
                .append(WALK_WALL.sumThenReset() / 1_000_000).append("), first task start to last task end ")
                .append(first == Long.MAX_VALUE ? 0 : (last - first) / 1_000_000).append(", tasks summed ")
                .append(TASK_WALL.sumThenReset() / 1_000_000).append(" on ").append(THREAD_NAMES.size())
                .append(" threads, longest task ");
        synchronized (LONGEST) {
            line.append(LONGEST.getAndSet(0) / 1_000_000).append(" (").append(LONGEST_BYTES.getAndSet(0))
                    .append(" B decoded)");
        }
        THREAD_NAMES.clear();
        return line.toString();
    }
}
