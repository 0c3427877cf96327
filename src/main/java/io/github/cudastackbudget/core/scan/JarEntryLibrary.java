package io.github.cudastackbudget.core.scan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * One candidate native library inside a JAR, read in place: a stored entry is memory-mapped from the JAR, a
 * compressed one is inflated into memory. Nothing is extracted to disk. An entry of a JAR nested in the JAR (Spring
 * Boot's {@code BOOT-INF/lib/*.jar}, a WAR's {@code WEB-INF/lib/*.jar}) is read from the nested JAR's bytes.
 *
 * @param jar        the archive on disk
 * @param container  the nested JAR entry this entry lives in, or null for an entry of {@code jar} itself
 * @param entryName  the entry's path inside it ({@code native/linux-x86_64/libx.so})
 * @param size       the entry's uncompressed size in bytes
 * @param stored     true when the entry is stored without compression (it can then be mapped)
 * @param dataOffset where a stored entry's bytes start in the JAR
 * @param crc        the entry's CRC-32 from the JAR's directory
 * @param compressedSize the entry's size in the JAR, compressed (its size for a stored entry)
 * @param usedBy     who ships the JAR
 */
public record JarEntryLibrary(Path jar, JarEntryLibrary container, String entryName, long size, boolean stored,
        long dataOffset, long crc, long compressedSize, String usedBy) {

    /** Entries larger than this cannot be held in one buffer. */
    public static final long MAX_ENTRY_BYTES = Integer.MAX_VALUE - 8L;
    /**
     * The most a compressed entry may expand, for entries above {@link #RATIO_FLOOR}: native libraries deflate 1.6:1
     * to 3:1 (the ONNX Runtime GPU JAR's four natives), DEFLATE itself reaches about 1,032:1 on zeros. An entry that
     * claims more is a ZIP bomb or a damaged JAR and is refused before a byte is inflated.
     */
    public static final long MAX_RATIO = 100;
    /** Entries up to this size are inflated whatever their ratio: they cannot exhaust memory. */
    public static final long RATIO_FLOOR = 16L << 20;

    public JarEntryLibrary {
        Objects.requireNonNull(jar, "jar");
        Objects.requireNonNull(entryName, "entryName");
        usedBy = usedBy == null ? "" : usedBy;
    }

    // written out in the generated one's form (issue 11): it is part of the check-result cache's key, and the
    // generated toString bootstraps through method handles, about 50 ms in a build's cold JVM
    @Override
    public String toString() {
        return "JarEntryLibrary[jar=" + jar + ", container=" + container + ", entryName=" + entryName + ", size="
                + size + ", stored=" + stored + ", dataOffset=" + dataOffset + ", crc=" + crc + ", compressedSize="
                + compressedSize + ", usedBy=" + usedBy + "]";
    }

    /**
     * Whether a file on disk holds exactly this entry's bytes (same size and CRC-32), e.g. a library of the build
     * output that the project's JAR also packages: it is then scanned once, as the file.
     */
    public boolean sameBytesAs(Path file) throws IOException {
        if (java.nio.file.Files.size(file) != size) {
            return false;
        }
        java.util.zip.CRC32 checksum = new java.util.zip.CRC32();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
            while (channel.read(buffer) > 0) {
                buffer.flip();
                checksum.update(buffer);
                buffer.clear();
            }
        }
        return checksum.getValue() == crc;
    }

    /**
     * The label reports use: {@code app.jar!/native/libx.so} (interface.md), {@code app.jar!/BOOT-INF/lib/dep.jar!/
     * native/libx.so} inside a nested JAR.
     */
    public String label() {
        return (container == null ? jar.getFileName().toString() : container.label()) + "!/" + entryName;
    }

    /** Where the bytes come from, for messages: the JAR's path, then the entry. */
    public String location() {
        return (container == null ? jar.toString() : container.location()) + "!/" + entryName;
    }

    /**
     * The entry's bytes, little-endian by default, positioned at 0.
     *
     * @throws IOException naming the JAR and the entry when the bytes cannot be read (also when they are more than
     *                     {@link #MAX_ENTRY_BYTES}: the reader of the entry says what to do then)
     */
    public ByteBuffer read() throws IOException {
        if (size > MAX_ENTRY_BYTES) {
            throw new IOException(location() + " is " + size + " bytes, more than one buffer holds");
        }
        if (!stored && size > RATIO_FLOOR && (compressedSize <= 0 || size / compressedSize >= MAX_RATIO)) {
            throw new IOException(location() + ": declares " + size + " bytes from " + compressedSize
                    + " compressed bytes, an expansion beyond the " + MAX_RATIO + ":1 that native libraries stay far "
                    + "below: a ZIP bomb or a damaged JAR (if the entry is genuine, unpack it and name the file)");
        }
        if (container != null) {
            ByteBuffer outer = container.read();
            if (stored) {
                if (dataOffset < 0 || dataOffset + size > outer.limit()) {
                    throw new IOException(location() + ": entry data lies beyond the end of its JAR (truncated?)");
                }
                return outer.duplicate().position((int) dataOffset).limit((int) (dataOffset + size)).slice()
                        .order(ByteOrder.LITTLE_ENDIAN);
            }
            try (ZipFile zip = ZipFile.builder().setSeekableByteChannel(new ByteBufferChannel(outer)).get()) {
                return inflate(zip);
            }
        }
        if (stored) {
            try (FileChannel channel = FileChannel.open(jar, StandardOpenOption.READ)) {
                if (dataOffset < 0 || dataOffset + size > channel.size()) {
                    throw new IOException(location() + ": entry data lies beyond the end of the JAR (truncated?)");
                }
                return channel.map(FileChannel.MapMode.READ_ONLY, dataOffset, size).order(ByteOrder.LITTLE_ENDIAN);
            }
        }
        try (ZipFile zip = ZipFile.builder().setPath(jar).get()) {
            return inflate(zip);
        }
    }

    /** Inflates this entry from an open ZIP (the JAR, or the nested JAR), checking its declared size. */
    private ByteBuffer inflate(ZipFile zip) throws IOException {
        ZipArchiveEntry entry = zip.getEntry(entryName);
        if (entry == null) {
            throw new IOException(location() + ": the entry disappeared from the JAR while it was scanned");
        }
        byte[] bytes;
        try (InputStream in = zip.getInputStream(entry)) {
            bytes = in.readNBytes((int) size);
            if (in.read() != -1) {
                throw new IOException(location() + ": the entry holds more bytes than its declared size " + size);
            }
        }
        if (bytes.length != size) {
            throw new IOException(location() + ": read " + bytes.length + " of " + size + " bytes (truncated JAR?)");
        }
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
