package io.github.cudastackbudget.core.budget;

/**
 * The driver's arithmetic (docs/driver.md, measured on an H200): a launch raises the per-thread stack limit to the
 * kernel's frame rounded up to 16 bytes, and the context then holds {@code maxResidentThreads x limit} bytes of device
 * memory. The default limit is 1024 bytes.
 */
public final class Reservation {

    /** The driver's default per-thread stack limit. */
    public static final long DEFAULT_STACK_LIMIT = 1024;

    private Reservation() {
    }

    /** The per-thread limit the driver sets for a frame: rounded up to a multiple of 16. */
    public static long stackLimitFor(long frameBytes) {
        return (frameBytes + 15) / 16 * 16;
    }

    /** Bytes held for a frame: threads x roundup16(frame). */
    public static long bytesFor(long maxResidentThreads, long frameBytes) {
        return Math.multiplyExact(maxResidentThreads, stackLimitFor(frameBytes));
    }

    /** Bytes above what the default 1024-B limit already holds. */
    public static long incrementFor(long maxResidentThreads, long frameBytes) {
        return Math.multiplyExact(maxResidentThreads, Math.max(0, stackLimitFor(frameBytes) - DEFAULT_STACK_LIMIT));
    }
}
