package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files over 2 GiB (sparse: the tail is a hole, so the test writes a few megabytes): mapped piece by piece, and a
 * single piece over 2 GiB is refused with a clear message instead of an overflow.
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
    void refusesOnePieceLargerThan2GiB() throws Exception {
        // a bare fatbin followed by a 2 GiB hole: the whole file is one container walk
        Path large = grownCopy("frames.fatbin");
        DeviceCodeReader reader = new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);

        assertThatThrownBy(() -> reader.read(large)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(large + ": at offset 0x0: " + OVER_2_GIB
                        + " bytes are to be read in one piece, more than the 2 GiB a Java buffer holds");
    }
}
