package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files over 2 GiB (sparse: the tail is a hole, so the test writes a few megabytes): mapped piece by piece, or read a
 * window at a time, never as one piece over 2 GiB (the limit of a Java buffer).
 */
class LargeFilesTest {

    private static final long OVER_2_GIB = (1L << 31) + (64L << 20);

    @TempDir
    Path tmp;

    private Path grownCopy(String name) throws Exception {
        Path copy = Files.copy(NativeTestFiles.testCuda(name), tmp.resolve(name));
        try (RandomAccessFile file = new RandomAccessFile(copy.toFile(), "rw")) {
            file.setLength(OVER_2_GIB);
        }
        return copy;
    }

    @Test
    void readsALibraryLargerThan2GiB() throws Exception {
        Path large = grownCopy("libframes.so");
        DeviceCodeReader reader = new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);

        DeviceCodeListing listing;
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(large)) {
            // the channel stays open while a file over 2 GiB is read: its pieces are mapped on demand
            listing = reader.read("libframes.so", "libframes.so", ByteRegion.map("libframes.so", channel));
        }

        assertThat(Files.size(large)).isGreaterThan(Integer.MAX_VALUE);
        assertThat(ResourceUsageText.toText(listing)).isEqualTo(NativeTestFiles.recording("libframes.so"));
    }

    @Test
    void readsABareFatbinFollowedBy2GiBOfZeroPadding() throws Exception {
        // the whole file is one container walk: read a window at a time (never one piece over 2 GiB), the zero run
        // skipped in large windows rather than a word at a time
        Path large = grownCopy("frames.fatbin");
        DeviceCodeReader reader = new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);

        long start = System.nanoTime();
        DeviceCodeListing listing = reader.read(large);

        assertThat(ResourceUsageText.toText(listing)).isEqualTo(NativeTestFiles.recording("frames.fatbin"));
        assertThat((System.nanoTime() - start) / 1_000_000_000.0).as("seconds to read past 2 GiB of zeros")
                .isLessThan(60);
    }
}
