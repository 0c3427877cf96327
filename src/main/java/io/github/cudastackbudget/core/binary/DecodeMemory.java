package io.github.cudastackbudget.core.binary;

/**
 * The heap that decodes in flight may hold at once, shared by every decode thread of one {@link DeviceCodeReader}.
 * A decode first reserves what it will hold at its peak (its {@link #estimate estimate}) and waits while the others
 * hold too much; an entry larger than the whole budget waits until it is alone and then runs. So a reader with many
 * threads keeps the peak of a few large entries, not one per thread: sixteen 60 MB entries of libnccl decoded at
 * once did not fit {@code -Xmx512m} (issue 11).
 *
 * <p>Waiting never deadlocks: a decode holds only its own reservation, takes it in one step, and gives it back when
 * it ends, also when it fails.
 */
final class DecodeMemory {

    /** Never less than this, so that small heaps still decode a few ordinary entries at once. */
    static final long MIN_BYTES = 32L << 20;

    private final long capacity;
    private long held;
    private int holders;

    DecodeMemory(long capacity) {
        this.capacity = Math.max(1, capacity);
    }

    /** Two fifths of the heap the JVM may grow to, at least {@link #MIN_BYTES}. */
    static DecodeMemory ofHeap() {
        return new DecodeMemory(Math.max(MIN_BYTES, Runtime.getRuntime().maxMemory() / 5 * 2));
    }

    long capacity() {
        return capacity;
    }

    /**
     * The heap one entry's decode holds at its peak: the payload copied to the heap (twice for Zstandard: the heap copy
     * and the direct buffer it streams from) and the output while it grows (old and new array at once).
     */
    static long estimate(FatbinEntry header) {
        long compressed = Math.max(0, header.compressedSize());
        long declared = Math.max(0, header.uncompressedSize());
        return switch (header.compression()) {
            case NONE -> Math.max(0, header.payloadSize());
            case ZSTD -> 2 * compressed + 2 * declared;
            case LZ4 -> compressed + Math.min(declared, EntryDecompressor.LZ4_MAX_RATIO * compressed + 16);
        };
    }

    /**
     * Waits until {@code bytes} (clamped to the capacity) can be held, then holds them.
     *
     * @return what was reserved, to give to {@link #release}
     */
    synchronized long acquire(long bytes) throws InterruptedException {
        long wanted = Math.min(Math.max(0, bytes), capacity);
        while (holders > 0 && held + wanted > capacity) {
            wait();
        }
        held += wanted;
        holders++;
        return wanted;
    }

    synchronized void release(long reserved) {
        held -= reserved;
        holders--;
        notifyAll();
    }
}
