package io.github.cudastackbudget.core.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The content hash of the kernel cache's key: SHA-256 over every byte, fast on large libraries.
 *
 * <p>The bytes are cut into fixed {@value #CHUNK_BYTES}-byte chunks; each chunk's SHA-256 is computed on its own
 * (several chunks at once, one per processor), and the result is the SHA-256 of a header (the scheme's name, the size
 * and the chunk size) followed by the chunk digests in order: a tree of depth one, as strong as SHA-256 itself (a
 * collision of the result needs one of a chunk or of the combining hash) and covering every byte and the size. The
 * JDK's SHA-256 uses the processor's SHA extensions where they exist (x86 SHA-NI, ARMv8 SHA2).
 */
public final class ContentHash {

    /** The chunk size; part of the scheme (changing it changes every hash). */
    public static final int CHUNK_BYTES = 4 << 20;

    /** Read buffer per chunk task. */
    private static final int READ_BYTES = 1 << 20;

    private static final String SCHEME = "cuda-stack-budget content hash 1: sha-256 over 4 MiB chunks";

    private ContentHash() {
    }

    /**
     * The hash of a file's bytes, read with up to {@code threads} threads.
     *
     * @throws IOException when the file cannot be read, or changes size while it is read
     */
    public static String of(Path file, int threads) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            return combine(size, digests(size, threads, (position, length, digest) -> {
                ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(READ_BYTES, length));
                long at = position;
                long end = position + length;
                while (at < end) {
                    buffer.clear().limit((int) Math.min(buffer.capacity(), end - at));
                    int read = channel.read(buffer, at);
                    if (read < 0) {
                        throw new IOException(file + " became shorter while it was read (it is being written?)");
                    }
                    digest.update(buffer.array(), 0, buffer.position());
                    at += read;
                }
            }), () -> {
                if (channel.size() != size) {
                    throw new IOException(file + " changed size while it was read (it is being written?)");
                }
            });
        }
    }

    /** The hash of the bytes from position to limit (not modified), with up to {@code threads} threads. */
    public static String of(ByteBuffer content, int threads) {
        ByteBuffer bytes = content.duplicate();
        int base = bytes.position();
        long size = bytes.remaining();
        try {
            return combine(size, digests(size, threads, (position, length, digest) -> {
                ByteBuffer slice = bytes.duplicate();
                slice.position(base + (int) position).limit(base + (int) (position + length));
                if (slice.hasArray()) {
                    digest.update(slice.array(), slice.arrayOffset() + slice.position(), slice.remaining());
                } else {
                    byte[] buffer = new byte[(int) Math.min(READ_BYTES, length)];
                    while (slice.hasRemaining()) {
                        int n = Math.min(buffer.length, slice.remaining());
                        slice.get(buffer, 0, n);
                        digest.update(buffer, 0, n);
                    }
                }
            }), () -> {
            });
        } catch (IOException e) {
            throw new IllegalStateException("bytes in memory cannot fail to be read", e);
        }
    }

    private interface ChunkReader {
        void digest(long position, long length, MessageDigest digest) throws IOException;
    }

    private interface Check {
        void run() throws IOException;
    }

    private static List<byte[]> digests(long size, int threads, ChunkReader reader) throws IOException {
        int chunks = (int) Math.max(1, (size + CHUNK_BYTES - 1) / CHUNK_BYTES);
        int workers = Math.max(1, Math.min(threads, chunks));
        if (workers == 1) {
            List<byte[]> digests = new ArrayList<>(chunks);
            for (int i = 0; i < chunks; i++) {
                digests.add(chunk(reader, size, i));
            }
            return digests;
        }
        ExecutorService pool = Executors.newFixedThreadPool(workers, runnable -> {
            Thread thread = new Thread(runnable, "cuda-stack-budget-hash");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<byte[]>> futures = new ArrayList<>(chunks);
            for (int i = 0; i < chunks; i++) {
                int index = i;
                futures.add(pool.submit(() -> chunk(reader, size, index)));
            }
            List<byte[]> digests = new ArrayList<>(chunks);
            for (Future<byte[]> future : futures) {
                digests.add(future.get());
            }
            return digests;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("hashing failed unexpectedly: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while hashing", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static byte[] chunk(ChunkReader reader, long size, int index) throws IOException {
        MessageDigest digest = sha256();
        long position = (long) index * CHUNK_BYTES;
        reader.digest(position, Math.min(CHUNK_BYTES, size - position), digest);
        return digest.digest();
    }

    private static String combine(long size, List<byte[]> digests, Check check) throws IOException {
        check.run();
        MessageDigest digest = sha256();
        digest.update(SCHEME.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        digest.update(ByteBuffer.allocate(16).putLong(size).putLong(CHUNK_BYTES).array());
        digests.forEach(digest::update);
        return HexFormat.of().formatHex(digest.digest());
    }

    /** A new SHA-256 digest. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
