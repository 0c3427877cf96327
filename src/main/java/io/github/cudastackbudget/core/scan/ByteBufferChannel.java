package io.github.cudastackbudget.core.scan;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/** A read-only channel over a buffer (e.g. a JAR nested in a JAR, mapped in place), for commons-compress' ZipFile. */
final class ByteBufferChannel implements SeekableByteChannel {

    private final ByteBuffer content;
    private long position;
    private boolean open = true;

    ByteBufferChannel(ByteBuffer content) {
        this.content = content.duplicate();
    }

    @Override
    public int read(ByteBuffer destination) throws IOException {
        ensureOpen();
        if (position >= content.limit()) {
            return -1;
        }
        int count = (int) Math.min(destination.remaining(), content.limit() - position);
        ByteBuffer slice = content.duplicate();
        slice.position((int) position).limit((int) position + count);
        destination.put(slice);
        position += count;
        return count;
    }

    @Override
    public int write(ByteBuffer source) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return content.limit();
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
