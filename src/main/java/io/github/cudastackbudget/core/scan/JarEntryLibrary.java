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
 * compressed one is inflated into memory. Nothing is extracted to disk.
 *
 * @param jar        the archive
 * @param entryName  the entry's path inside it ({@code native/linux-x86_64/libx.so})
 * @param size       the entry's uncompressed size in bytes
 * @param stored     true when the entry is stored without compression (it can then be mapped)
 * @param dataOffset where a stored entry's bytes start in the JAR
 * @param usedBy     who ships the JAR
 */
public record JarEntryLibrary(Path jar, String entryName, long size, boolean stored, long dataOffset, String usedBy) {

    /** Entries larger than this cannot be held in one buffer. */
    static final long MAX_ENTRY_BYTES = Integer.MAX_VALUE - 8L;

    public JarEntryLibrary {
        Objects.requireNonNull(jar, "jar");
        Objects.requireNonNull(entryName, "entryName");
        usedBy = usedBy == null ? "" : usedBy;
    }

    /** The label reports use: {@code app.jar!/native/libx.so} (interface.md). */
    public String label() {
        return jar.getFileName() + "!/" + entryName;
    }

    /** Where the bytes come from, for messages: the JAR's path, then the entry. */
    public String location() {
        return jar + "!/" + entryName;
    }

    /**
     * The entry's bytes, little-endian by default, positioned at 0.
     *
     * @throws IOException naming the JAR and the entry when the bytes cannot be read
     */
    public ByteBuffer read() throws IOException {
        if (size > MAX_ENTRY_BYTES) {
            throw new IOException(location() + " is " + size + " bytes, more than one buffer holds: unpack it and name "
                    + "the file in <libraryFiles>");
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
}
