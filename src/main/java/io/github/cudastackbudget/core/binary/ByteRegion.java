package io.github.cudastackbudget.core.binary;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A window of bytes of one file (or of an in-memory buffer) that the readers of this package look at: a whole file, an
 * archive member, a section, a decompressed cubin. Every access is bounds-checked against the window and fails with
 * a {@link BinaryFormatException} naming the source and the absolute file offset.
 *
 * <p>A file's region is read with positional reads ({@link #read}): each slice asked for is read into a heap buffer,
 * nothing is mapped, so the process holds what the readers keep and not the file; the device-code reader reads the
 * headers a window at a time and copies each payload once ({@link #copy}). A region can also map a file ({@link #map}:
 * a file of at most 2 GiB at once, a larger one piece by piece as slices are asked for) or wrap a buffer, e.g. a JAR
 * entry ({@link #of}); every slice must be below 2 GiB, the limit of a Java buffer. Buffers handed out are
 * little-endian, independent of each other (own position and limit) and safe to read from several threads when each
 * thread has its own.
 */
public final class ByteRegion {

    /** The largest slice a Java buffer can hold. */
    static final long MAX_SLICE = Integer.MAX_VALUE - 8L;

    private final String source;
    private final ByteBuffer buffer;
    private final FileChannel channel;
    private final long base;
    private final long size;
    private final long fileOffset;
    /** True when slices of {@code channel} are read into heap buffers instead of mapped. */
    private final boolean reads;
    /** The file of a region mapped at once, for {@link #copy} while it is open; else null. */
    private final FileChannel file;

    private ByteRegion(String source, ByteBuffer buffer, FileChannel channel, long base, long size, long fileOffset,
            boolean reads, FileChannel file) {
        this.source = Objects.requireNonNull(source, "source");
        this.buffer = buffer;
        this.channel = channel;
        this.base = base;
        this.size = size;
        this.fileOffset = fileOffset;
        this.reads = reads;
        this.file = file;
    }

    private ByteRegion(String source, ByteBuffer buffer, FileChannel channel, long base, long size, long fileOffset,
            boolean reads) {
        this(source, buffer, channel, base, size, fileOffset, reads, null);
    }

    /**
     * Maps a whole file. The channel must stay open while the region (and slices of a file over 2 GiB) are read; a
     * file of at most 2 GiB is mapped at once and its slices stay valid after the channel is closed.
     */
    public static ByteRegion map(String source, FileChannel channel) throws IOException {
        long size = channel.size();
        if (size <= MAX_SLICE) {
            ByteBuffer mapped = size == 0 ? ByteBuffer.allocate(0) : channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            return new ByteRegion(source, mapped, null, 0, size, 0, false, channel);
        }
        return new ByteRegion(source, null, channel, 0, size, 0, false);
    }

    /**
     * A whole file whose slices are read when asked for (positional reads, nothing mapped). The channel must stay open
     * while the region is read. A read that fails, or finds the file shorter
     * than it was, fails with a {@link BinaryFormatException} whose cause is the {@link IOException}.
     */
    public static ByteRegion read(String source, FileChannel channel) throws IOException {
        return new ByteRegion(source, null, channel, 0, channel.size(), 0, true);
    }

    /** The bytes from the buffer's position to its limit (not copied). */
    public static ByteRegion of(String source, ByteBuffer content) {
        return of(source, content, 0);
    }

    /** The bytes from the buffer's position to its limit, whose first byte lies at {@code fileOffset} in messages. */
    public static ByteRegion of(String source, ByteBuffer content, long fileOffset) {
        return new ByteRegion(source, content.slice(), null, 0, content.remaining(), fileOffset, false);
    }

    /** The file (with the archive member, where there is one) this region is part of, for messages. */
    public String source() {
        return source;
    }

    public long size() {
        return size;
    }

    /** The absolute offset in the file (or the outermost buffer) of the region's byte {@code offset}. */
    public long fileOffset(long offset) {
        return fileOffset + offset;
    }

    /** A sub-window, e.g. an archive member; its messages name {@code newSource}. */
    public ByteRegion sub(long offset, long length, String newSource) throws BinaryFormatException {
        check(offset, length);
        return new ByteRegion(newSource, buffer, channel, base + offset, length, fileOffset + offset, reads, file);
    }

    /** Whether the region is a buffer (in memory, or a file mapped at once): its slices are views, not reads. */
    boolean inMemory() {
        return buffer != null;
    }

    /** Whether {@code length} bytes at {@code offset} lie inside the region. */
    public boolean contains(long offset, long length) {
        return offset >= 0 && length >= 0 && offset <= size && length <= size - offset;
    }

    /**
     * {@code length} bytes at {@code offset}, as a little-endian buffer positioned at 0.
     *
     * @throws BinaryFormatException when they are not all inside the region, or are 2 GiB or more
     */
    public ByteBuffer slice(long offset, long length) throws BinaryFormatException {
        check(offset, length);
        if (length > MAX_SLICE) {
            throw new BinaryFormatException(source, fileOffset(offset), length
                    + " bytes are to be read in one piece, more than the 2 GiB a Java buffer holds");
        }
        if (buffer != null) {
            return buffer.slice(Math.toIntExact(base + offset), (int) length).order(ByteOrder.LITTLE_ENDIAN);
        }
        if (reads) {
            return readSlice(offset, (int) length);
        }
        try {
            return channel.map(FileChannel.MapMode.READ_ONLY, base + offset, length).order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new BinaryFormatException(source, fileOffset(offset), "cannot map " + length + " bytes: "
                    + e.getMessage(), e);
        }
    }

    /**
     * A heap copy of {@code length} bytes at {@code offset}. Of a mapped file whose channel is still open, the bytes
     * are read with positional reads, not through the mapping: the mapping's pages would stay in the process's
     * resident set until it is unmapped (issue 11: the compressed entries of libtorch_cuda.so kept about 300 MB
     * resident under -Xmx512m); the headers, read through the mapping, touch only a few pages.
     *
     * @throws BinaryFormatException when the bytes are not all inside the region, or the file cannot be read (it
     *                               shrank: a message naming the offset)
     */
    public byte[] copy(long offset, int length) throws BinaryFormatException {
        byte[] copy = new byte[length];
        copyInto(offset, copy, length);
        return copy;
    }

    /**
     * The same bytes as {@link #copy}, into the first {@code length} bytes of {@code into} (a buffer used again for
     * the next entry: issue 11, a new array per entry was zeroed only to be overwritten).
     */
    public void copyInto(long offset, byte[] into, int length) throws BinaryFormatException {
        check(offset, length);
        if (file != null && file.isOpen()) {
            ByteBuffer read = ByteBuffer.wrap(into, 0, length);
            try {
                while (read.hasRemaining()) {
                    if (file.read(read, base + offset + read.position()) < 0) {
                        throw new BinaryFormatException(source, fileOffset(offset), "the file changed or shrank while "
                                + "it was read (it ends before these " + length + " bytes); read it again once nothing "
                                + "writes it");
                    }
                }
                return;
            } catch (java.nio.channels.ClosedChannelException e) {
                // closed meanwhile (the caller is done with the file): the mapping still holds the bytes
            } catch (IOException e) {
                throw new BinaryFormatException(source, fileOffset(offset), "cannot read " + length + " bytes: "
                        + e.getMessage(), e);
            }
        }
        if (reads) {
            readInto(ByteBuffer.wrap(into, 0, length), offset);
            return;
        }
        slice(offset, length).get(into, 0, length);
    }

    private ByteBuffer readSlice(long offset, int length) throws BinaryFormatException {
        ByteBuffer read = ByteBuffer.allocate(length);
        readInto(read, offset);
        return read.flip().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Fills {@code read} from the file at {@code offset} with positional reads (safe from several threads). */
    private void readInto(ByteBuffer read, long offset) throws BinaryFormatException {
        int length = read.remaining();
        try {
            while (read.hasRemaining()) {
                if (channel.read(read, base + offset + read.position()) < 0) {
                    throw new BinaryFormatException(source, fileOffset(offset), "the file changed or shrank while "
                            + "it was read (it ends before these " + length + " bytes); read it again once nothing "
                            + "writes it");
                }
            }
        } catch (java.nio.channels.ClosedChannelException e) {
            throw new BinaryFormatException(source, fileOffset(offset), "cannot read " + length + " bytes: the file "
                    + "was closed before its read ended", e);
        } catch (IOException e) {
            throw new BinaryFormatException(source, fileOffset(offset), "cannot read " + length + " bytes: "
                    + e.getMessage(), e);
        }
    }

    private void check(long offset, long length) throws BinaryFormatException {
        if (!contains(offset, length)) {
            throw new BinaryFormatException(source, fileOffset(Math.max(0, offset)), length
                    + " bytes are needed here but only " + Math.max(0, size - Math.max(0, offset)) + " remain in "
                    + size + " bytes (truncated or corrupt?)");
        }
    }
}
