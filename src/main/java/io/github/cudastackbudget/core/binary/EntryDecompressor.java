package io.github.cudastackbudget.core.binary;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Decompresses fatbin entry payloads with aircompressor (pure Java, no JNI): flag 0x8000 is one Zstandard frame, flag
 * 0x2000 a raw LZ4 block. The decoder gets exactly the compressed length from the entry header (not the 8-byte padded
 * payload: liblz4 itself rejects the padding), writes into a fresh array of exactly the uncompressed size from the
 * header, and the produced length is checked. A declared size above the cap fails before anything is allocated, so
 * one entry costs at most {@code maxEntryBytes} of heap.
 */
public final class EntryDecompressor {

    /** Default cap on one decompressed entry: far above the largest real cubin (tens of MB). */
    public static final long DEFAULT_MAX_ENTRY_BYTES = 1L << 30;

    private final long maxEntryBytes;

    public EntryDecompressor(long maxEntryBytes) {
        this.maxEntryBytes = Math.min(maxEntryBytes, ByteRegion.MAX_SLICE);
    }

    /**
     * The payload as stored when not compressed, else its decompressed bytes (little-endian, positioned at 0).
     *
     * @param source the file, for messages
     */
    public ByteBuffer payload(FatbinWalker.Entry entry, String source) throws BinaryFormatException {
        FatbinEntry header = entry.header();
        FatbinEntry.Compression compression = header.compression();
        if (compression == FatbinEntry.Compression.NONE) {
            return entry.payload().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        }
        long expected = header.uncompressedSize();
        if (expected > maxEntryBytes) {
            throw new BinaryFormatException(source, header.fileOffset() + 0x38, "fatbin entry declares "
                    + expected + " uncompressed bytes, more than the " + maxEntryBytes + "-byte limit per entry");
        }
        ByteBuffer input = entry.payload().duplicate();
        ByteBuffer output = ByteBuffer.wrap(new byte[(int) expected]);
        String codec = compression == FatbinEntry.Compression.ZSTD ? "Zstandard" : "LZ4";
        try {
            if (compression == FatbinEntry.Compression.ZSTD) {
                new ZstdDecompressor().decompress(input, output);
            } else {
                new Lz4Decompressor().decompress(input, output);
            }
        } catch (MalformedInputException e) {
            throw new BinaryFormatException(source, header.fileOffset() + header.headerSize(), codec
                    + " decompression of the " + header.compressedSize() + "-byte payload failed: "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            // any other failure of the decoder on these bytes (it reports most as MalformedInputException)
            throw new BinaryFormatException(source, header.fileOffset() + header.headerSize(), codec
                    + " decompression of the " + header.compressedSize() + "-byte payload failed: " + e, e);
        }
        if (output.position() != expected) {
            throw new BinaryFormatException(source, header.fileOffset() + header.headerSize(), codec
                    + " decompression produced " + output.position() + " bytes, the entry header declares "
                    + expected);
        }
        return output.flip().order(ByteOrder.LITTLE_ENDIAN);
    }
}
