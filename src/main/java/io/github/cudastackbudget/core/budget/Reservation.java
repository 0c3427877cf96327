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

    /**
     * The per-thread limit the driver sets for a frame: rounded up to a multiple of 16. A frame within 15 bytes of
     * {@code Long.MAX_VALUE} gives the largest multiple of 16 (no overflow to a negative limit).
     *
     * @throws IllegalArgumentException for a negative frame (the readers never make one)
     */
    public static long stackLimitFor(long frameBytes) {
        if (frameBytes < 0) {
            throw new IllegalArgumentException("negative stack frame " + frameBytes);
        }
        return frameBytes > Long.MAX_VALUE - 15 ? Long.MAX_VALUE & ~15L : (frameBytes + 15) / 16 * 16;
    }

    /**
     * Bytes held for a frame: threads x roundup16(frame), saturated at {@code Long.MAX_VALUE} (a product beyond 2^63
     * bytes exceeds every budget just as well; it never wraps to a small or negative figure).
     */
    public static long bytesFor(long maxResidentThreads, long frameBytes) {
        return saturatedProduct(maxResidentThreads, stackLimitFor(frameBytes));
    }

    /** Bytes above what the default 1024-B limit already holds, saturated like {@link #bytesFor}. */
    public static long incrementFor(long maxResidentThreads, long frameBytes) {
        return saturatedProduct(maxResidentThreads, Math.max(0, stackLimitFor(frameBytes) - DEFAULT_STACK_LIMIT));
    }

    /** a x b for non-negative figures, {@code Long.MAX_VALUE} where it overflows. */
    static long saturatedProduct(long a, long b) {
        if (a < 0 || b < 0) {
            throw new IllegalArgumentException("negative factor " + a + " x " + b);
        }
        long high = Math.multiplyHigh(a, b);
        long product = a * b;
        return high != 0 || product < 0 ? Long.MAX_VALUE : product;
    }
}
