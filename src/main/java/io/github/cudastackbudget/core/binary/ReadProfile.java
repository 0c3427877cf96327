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
        return line.toString();
    }
}
