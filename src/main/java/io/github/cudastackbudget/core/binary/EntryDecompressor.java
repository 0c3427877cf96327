package io.github.cudastackbudget.core.binary;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decompresses fatbin entry payloads: flag 0x8000 is one Zstandard frame, flag 0x2000 a raw LZ4 block. The decoder
 * gets exactly the compressed length from the entry header (not the 8-byte padded payload: liblz4 itself rejects the
 * padding), always as a heap copy (the decoder never reads the mapped file, which may change under it).
 *
 * <ul>
 *   <li>Zstandard: zstd-jni's streaming decoder (the reference libzstd, bounds-checked and fuzzed upstream), writing
 *       into an output that starts small and doubles as it fills: a header that declares 1 GiB costs nothing until
 *       the bytes are really produced.</li>
 *   <li>LZ4 block: lz4-java's safe decompressor (at.yawk.lz4, the maintained continuation of org.lz4): the reference
 *       liblz4's {@code LZ4_decompress_safe} through JNI, which checks every literal and match against the input and
 *       output limits and is fuzzed upstream, or, where its native library does not load, lz4-java's pure-Java
 *       safe decoder; on heap arrays only. Native code runs at full speed from the first entry, where a pure-Java
 *       decoder runs interpreted until the JIT has compiled it: most of a cold build's LZ4 time (issue 11). The
 *       output array is at most the LZ4 format's own bound, 255 bytes per compressed byte, so a small payload that
 *       declares a huge size cannot make a huge array.</li>
 * </ul>
 *
 * <p>Two caps: per entry ({@code maxEntryBytes}) and per file (a {@link FileBudget} shared by the entries of one
 * read). Going past either, or producing other than the declared size, is a {@link BinaryFormatException} naming the
 * file, the entry offset and the cap.
 */
public final class EntryDecompressor {

    /** Default cap on one decompressed entry: far above the largest real cubin (tens of MB). */
    public static final long DEFAULT_MAX_ENTRY_BYTES = 1L << 30;
    /** Default cap on all decompressed entries of one file: real libraries decompress to a few GB at most. */
    public static final long DEFAULT_MAX_FILE_BYTES = 32L << 30;
    /** LZ4's largest expansion: one token byte and 255-byte length steps. */
    static final long LZ4_MAX_RATIO = 255;
    private static final int FIRST_CHUNK = 64 << 10;

    /** The largest expansion of a Zstandard payload decoded in one call into an array of its declared size. */
    private static final long ONE_SHOT_RATIO = 64;
    /** The direct buffer the Zstandard stream writes into, one block at a time. */
    private static final int CHUNK = 128 << 10;

    /** The LZ4 block decoder: liblz4 through JNI where it loads, else lz4-java's safe pure-Java decoder. */
    private static final LZ4SafeDecompressor LZ4 = lz4();

    private final long maxEntryBytes;

    public EntryDecompressor(long maxEntryBytes) {
        this.maxEntryBytes = Math.min(maxEntryBytes, ByteRegion.MAX_SLICE);
    }

    /** The decompressed bytes left to one file's read. */
    public static final class FileBudget {
        private final long cap;
        private final AtomicLong used = new AtomicLong();

        public FileBudget(long cap) {
            this.cap = cap;
        }

        void take(long bytes, String source, long offset) throws BinaryFormatException {
            if (used.addAndGet(bytes) > cap) {
                throw new BinaryFormatException(source, offset, "the fatbin entries of this file decompress to more "
                        + "than the " + cap + "-byte limit per file");
            }
        }

        /** Returns what {@link #take} took for an output that was dropped (a fast path that fell back). */
        void giveBack(long bytes) {
            used.addAndGet(-bytes);
        }
    }

    /**
     * The payload as stored when not compressed, else its decompressed bytes (little-endian, positioned at 0), with no
     * limit per file.
     *
     * @param source the file, for messages
     */
    public ByteBuffer payload(FatbinWalker.Entry entry, String source) throws BinaryFormatException {
        return payload(entry, source, new FileBudget(Long.MAX_VALUE));
    }

    /**
     * The payload as stored when not compressed, else its decompressed bytes (little-endian, positioned at 0).
     *
     * @param source the file, for messages
     * @param file   the decompressed bytes left to the file this entry is part of
     */
    public ByteBuffer payload(FatbinWalker.Entry entry, String source, FileBudget file) throws BinaryFormatException {
        return payload(entry, source, file, null);
    }

    /**
     * Buffers one decode thread uses again for the next entry (issue 11: a new array per entry, zeroed by the JVM only
     * to be overwritten, was a third of a cold read's samples). Arrays up to {@link #KEEP} bytes are kept; a larger
     * entry gets arrays of its own. The bytes a payload returned over these arrays are valid until the next payload
     * read with the same scratch. It also holds one Zstandard decompression context for its thread's entries; whoever
     * makes a scratch closes it ({@link #close}), which frees that context's native memory.
     */
    public static final class Scratch implements AutoCloseable {
        /**
         * The largest array kept, where the heap allows it ({@link #keepFor}): an entry larger than what is kept gets
         * a new array, zeroed by the JVM and first touched by the process (issue 11: at 8 MiB, the entries of 8-42 MB
         * of libonnxruntime_providers_cuda.so cost a cold check 0.18 CPU-s in allocation and page faults).
         */
        static final int KEEP = 64 << 20;
        /** The smallest cap on a kept array (most cubins are smaller). */
        static final int MIN_KEEP = 1 << 20;

        /** The payload as stored, and the decompressed bytes. */
        private final byte[][] kept = {new byte[0], new byte[0]};
        private final int keep;

        /** A scratch that keeps arrays of up to {@link #KEEP} bytes. */
        public Scratch() {
            this(KEEP);
        }

        /** A scratch that keeps arrays of up to {@code keep} bytes (larger entries get arrays of their own). */
        Scratch(int keep) {
            this.keep = keep;
        }

        /**
         * The cap for one of {@code threads} decode threads: the arrays they keep between entries stay within an
         * eighth of the heap the JVM may grow to (they are not part of {@code DecodeMemory}'s budget, which bounds
         * the entries in flight), between {@link #MIN_KEEP} and {@link #KEEP}.
         */
        static int keepFor(int threads, long maxHeap) {
            long share = maxHeap / 8 / Math.max(1, threads) / 2;
            return (int) Math.max(MIN_KEEP, Math.min(KEEP, share));
        }

        byte[] input(int length) {
            return array(0, length);
        }

        byte[] output(int length) {
            return array(1, length);
        }

        /**
         * The context for one-shot decompression, made at the first Zstandard entry (issue 11: a context made and
         * freed per entry cost about 10 us each, tens of milliseconds over a library of thousands of entries).
         */
        private ZstdDecompressCtx zstd;

        ZstdDecompressCtx zstd() {
            if (zstd == null) {
                zstd = new ZstdDecompressCtx();
            }
            return zstd;
        }

        /** Whether a context is held (made by a Zstandard entry, not yet closed). */
        boolean holdsZstd() {
            return zstd != null;
        }

        /** Drops the context after a failed decompression: the next entry starts from a new one. */
        void dropZstd() {
            close();
        }

        /** Frees the Zstandard context; the arrays stay until the scratch is collected. Safe to call again. */
        @Override
        public void close() {
            if (zstd != null) {
                zstd.close();
                zstd = null;
            }
        }

        private byte[] array(int which, int length) {
            if (kept[which].length >= length) {
                return kept[which];
            }
            byte[] grown = new byte[length];
            if (length <= keep) {
                kept[which] = grown;
            }
            return grown;
        }
    }

    /**
     * The same, into the arrays of {@code scratch} where it is not null: the returned bytes are valid until its next
     * use.
     */
    public ByteBuffer payload(FatbinWalker.Entry entry, String source, FileBudget file, Scratch scratch)
            throws BinaryFormatException {
        try {
            return decode(entry, source, file, scratch);
        } catch (InternalError e) {
            // the JVM reports a fault of the mapped bytes (the file shrank or changed) when compiled code next checks
            // for it, which may be after the copy that faulted (seen inside the Zstandard call): the whole decode
            // turns it into the clear error
            throw DeviceCodeReader.changedWhileRead(source, entry.header().fileOffset() + entry.header().headerSize(),
                    e);
        }
    }

    private ByteBuffer decode(FatbinWalker.Entry entry, String source, FileBudget file, Scratch scratch)
            throws BinaryFormatException {
        FatbinEntry header = entry.header();
        FatbinEntry.Compression compression = header.compression();
        long copy = ReadProfile.start();
        if (compression == FatbinEntry.Compression.NONE) {
            // a heap copy: nothing after this reads the file, which may change while it is read
            ByteBuffer stored = ByteBuffer.wrap(heapCopy(entry, source, header.fileOffset() + header.headerSize(),
                    scratch), 0, entry.storedSize()).slice().order(ByteOrder.LITTLE_ENDIAN);
            ReadProfile.add(ReadProfile.Part.COPY, copy);
            return stored;
        }
        long expected = header.uncompressedSize();
        long at = header.fileOffset();
        if (expected > maxEntryBytes) {
            throw new BinaryFormatException(source, at + 0x38, "fatbin entry declares " + expected
                    + " uncompressed bytes, more than the " + maxEntryBytes + "-byte limit per entry");
        }
        if (expected < 0) {
            throw new BinaryFormatException(source, at + 0x38, "fatbin entry declares a negative uncompressed size");
        }
        byte[] input = heapCopy(entry, source, at + header.headerSize(), scratch);
        long decompress = ReadProfile.add(ReadProfile.Part.COPY, copy);
        int inputLength = entry.storedSize();
        String codec = compression == FatbinEntry.Compression.ZSTD ? "Zstandard" : "LZ4";
        byte[] output;
        int produced;
        try {
            if (compression == FatbinEntry.Compression.ZSTD) {
                ByteBuffer decoded = zstd(input, inputLength, (int) expected, source, at, file, scratch);
                output = decoded.array();
                produced = decoded.limit();
            } else {
                int bound = (int) Math.min(expected, LZ4_MAX_RATIO * inputLength + 16);
                file.take(bound, source, at);
                output = scratch == null ? new byte[bound] : scratch.output(bound);
                produced = LZ4.decompress(input, 0, inputLength, output, 0, bound);
            }
        } catch (LZ4Exception | ZstdException e) {
            throw new BinaryFormatException(source, at + header.headerSize(), codec + " decompression of the "
                    + header.compressedSize() + "-byte payload failed: " + oneLine(e.getMessage()), e);
        } catch (RuntimeException e) {
            // any other failure of the decoder on these bytes (it reports most as MalformedInputException)
            throw new BinaryFormatException(source, at + header.headerSize(), codec + " decompression of the "
                    + header.compressedSize() + "-byte payload failed: " + e.getClass().getSimpleName() + ": "
                    + oneLine(e.getMessage()), e);
        }
        ReadProfile.add(ReadProfile.Part.DECOMPRESS, decompress);
        if (produced != expected) {
            throw new BinaryFormatException(source, at + header.headerSize(), codec + " decompression produced "
                    + (produced > expected ? "more than " + expected : Integer.toString(produced))
                    + " bytes, the entry header declares " + expected);
        }
        return ByteBuffer.wrap(output, 0, produced).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * One Zstandard frame, streamed into a growing array of at most {@code expected + 1} bytes (one more than declared
     * tells a lying header from an honest one).
     */
    private static ByteBuffer zstd(byte[] input, int inputLength, int expected, String source, long at,
            FileBudget file, Scratch scratch) throws BinaryFormatException {
        int limit = (int) Math.min((long) expected + 1, ByteRegion.MAX_SLICE);
        // issue 11: the fast path, one call into libzstd writing straight into an array of the declared size plus one,
        // where that size is plausible for the payload (at most ONE_SHOT_RATIO times it): no direct buffers, no chunk
        // copies, no growing array (a cold profile found 18% of the samples of a 542 MB library in that growth). Any
        // failure falls back to the streaming decoder below, which words the error precisely (truncated frame, more
        // or fewer bytes than declared); a header that declares far more than the payload can hold also streams, so a
        // small hostile payload never makes a large array
        if (limit <= Math.max(FIRST_CHUNK, (long) inputLength * ONE_SHOT_RATIO)) {
            file.take(limit, source, at);
            byte[] output = scratch == null ? new byte[limit] : scratch.output(limit);
            ZstdDecompressCtx ctx = scratch == null ? new ZstdDecompressCtx() : scratch.zstd();
            try {
                int produced = ctx.decompressByteArray(output, 0, limit, input, 0, inputLength);
                return ByteBuffer.wrap(output, 0, produced);
            } catch (ZstdException e) {
                file.giveBack(limit);
                if (scratch != null) {
                    scratch.dropZstd();
                }
            } finally {
                if (scratch == null) {
                    ctx.close();
                }
            }
        }
        byte[] output = new byte[Math.min(limit, Math.max(FIRST_CHUNK, inputLength * 4))];
        file.take(output.length, source, at);
        ByteBuffer in = ByteBuffer.allocateDirect(inputLength).put(input, 0, inputLength).flip();
        // one block's worth (ZSTD_DStreamOutSize is 128 KiB): a zeroed 1 MiB direct buffer per entry cost more than
        // decoding a small entry
        ByteBuffer chunk = ByteBuffer.allocateDirect(Math.min(limit, CHUNK));
        int produced = 0;
        try (ZstdDecompressCtx ctx = new ZstdDecompressCtx()) {
            boolean done = false;
            while (!done) {
                int before = in.position();
                chunk.clear();
                done = ctx.decompressDirectByteBufferStream(chunk, in);
                chunk.flip();
                int got = chunk.remaining();
                if (got == 0 && in.position() == before && !done) {
                    throw new BinaryFormatException(source, at, "the Zstandard frame ends before its last block "
                            + "(truncated payload)");
                }
                if ((long) produced + got > limit) {
                    got = limit - produced; // already more than declared: reported by the caller
                    done = true;
                }
                if (produced + got > output.length) {
                    int grown = (int) Math.min(limit, Math.max((long) output.length * 2, (long) produced + got));
                    file.take(grown - output.length, source, at);
                    output = Arrays.copyOf(output, grown);
                }
                chunk.get(output, produced, got);
                produced += got;
                if (produced >= limit) {
                    break;
                }
            }
        }
        return ByteBuffer.wrap(output, 0, produced);
    }

    /**
     * The payload as stored, on the heap (positional reads of a mapped file: its pages are not made resident); a fault
     * reading the mapped file (it changed) is a clear error.
     */
    private static byte[] heapCopy(FatbinWalker.Entry entry, String source, long offset, Scratch scratch)
            throws BinaryFormatException {
        byte[] copy;
        try {
            if (scratch == null) {
                copy = entry.payloadBytes();
            } else {
                copy = scratch.input(entry.storedSize());
                entry.payloadInto(copy);
            }
            // compiled code does not throw the fault of a mapped read where it happens: the JVM marks it pending and
            // throws it at the thread's next return from native code. A native call here makes that happen inside this
            // try, not in whatever the caller runs next (seen: after payload() had returned)
            Thread.yield();
        } catch (InternalError e) {
            throw DeviceCodeReader.changedWhileRead(source, offset, e);
        }
        return copy;
    }

    /** Which LZ4 decoder this JVM uses: "liblz4 (JNI)" or "lz4-java (pure Java)". */
    public static String lz4Decoder() {
        return LZ4.getClass().getSimpleName().contains("JNI") ? "liblz4 (JNI)" : "lz4-java (pure Java)";
    }

    private static LZ4SafeDecompressor lz4() {
        try {
            return LZ4Factory.nativeInstance().safeDecompressor();
        } catch (RuntimeException | LinkageError e) {
            // no native library for this platform, or it cannot be loaded (e.g. a noexec temporary directory)
            return LZ4Factory.safeInstance().safeDecompressor();
        }
    }

    private static String oneLine(String message) {
        return message == null ? "(no detail)" : message.replaceAll("\\s+", " ").strip();
    }
}
