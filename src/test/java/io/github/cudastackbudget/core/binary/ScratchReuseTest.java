package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A decode thread reuses its arrays from entry to entry (issue 11): each payload read through one scratch must be the
 * bytes a fresh read gives, whatever came before it (larger or smaller, compressed with another codec or stored).
 */
class ScratchReuseTest {

    @Test
    void everyPayloadThroughOneScratchEqualsAFreshRead() throws Exception {
        EntryDecompressor decompressor = new EntryDecompressor(1L << 30);
        EntryDecompressor.Scratch scratch = new EntryDecompressor.Scratch();
        int compared = 0;
        for (String name : List.of("libframes_zstd.so", "libframes_lz4.so", "libframes_nocomp.so", "libframes.so",
                "libjitmixed.so", "frames.fatbin")) {
            Path file = NativeTestFiles.testCuda(name);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteRegion region = ByteRegion.read(file.toString(), channel);
                List<FatbinWalker.Entry> entries = new ArrayList<>();
                if (FatbinWalker.isFatbin(region)) {
                    entries.addAll(FatbinWalker.entries(region));
                } else {
                    for (ElfFile.Section section : DeviceCodeSections.of(ElfFile.read(region)).toRead()) {
                        entries.addAll(FatbinWalker.entries(region.sub(section.offset(), section.size(),
                                file.toString())));
                    }
                }
                // largest first, then smallest first: every array is reused for a smaller and a larger payload
                List<FatbinWalker.Entry> order = new ArrayList<>(entries);
                order.sort(Comparator.comparingLong((FatbinWalker.Entry e) -> e.header().uncompressedSize())
                        .reversed());
                List<FatbinWalker.Entry> ascending = new ArrayList<>(order);
                java.util.Collections.reverse(ascending);
                order.addAll(ascending);
                for (FatbinWalker.Entry entry : order) {
                    ByteBuffer fresh = decompressor.payload(entry, file.toString());
                    ByteBuffer reused = decompressor.payload(entry, file.toString(),
                            new EntryDecompressor.FileBudget(Long.MAX_VALUE), scratch);
                    assertThat(reused.position()).isZero();
                    assertThat(reused.remaining()).as("%s at 0x%x", name, entry.header().fileOffset())
                            .isEqualTo(fresh.remaining());
                    assertThat(reused.equals(fresh)).as("%s at 0x%x", name, entry.header().fileOffset()).isTrue();
                    compared++;
                }
            }
        }
        assertThat(compared).isGreaterThan(60);
    }

    @Test
    void oneZstandardContextServesAThreadsEntriesUntilTheScratchIsClosed() throws Exception {
        EntryDecompressor decompressor = new EntryDecompressor(1L << 30);
        Path file = NativeTestFiles.testCuda("libframes_zstd.so");
        EntryDecompressor.Scratch scratch = new EntryDecompressor.Scratch();
        assertThat(scratch.holdsZstd()).isFalse();
        com.github.luben.zstd.ZstdDecompressCtx first = null;
        int decoded = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteRegion region = ByteRegion.read(file.toString(), channel);
            for (ElfFile.Section section : DeviceCodeSections.of(ElfFile.read(region)).toRead()) {
                for (FatbinWalker.Entry entry : FatbinWalker.entries(region.sub(section.offset(), section.size(),
                        file.toString()))) {
                    ByteBuffer reused = decompressor.payload(entry, file.toString(),
                            new EntryDecompressor.FileBudget(Long.MAX_VALUE), scratch);
                    assertThat(reused).isEqualTo(decompressor.payload(entry, file.toString()));
                    assertThat(scratch.holdsZstd()).as("the entry's decompression made the context").isTrue();
                    if (first == null) {
                        first = scratch.zstd();
                    }
                    assertThat(scratch.zstd()).as("the context of the first entry").isSameAs(first);
                    decoded++;
                }
            }
        }
        assertThat(decoded).isGreaterThan(5);
        scratch.close();
        assertThat(scratch.holdsZstd()).isFalse();
        assertThat(scratch.zstd()).as("a closed context is never used again").isNotSameAs(first);
        scratch.close();
        scratch.close();
    }

    @Test
    void aPayloadLargerThanWhatIsKeptGetsItsOwnArrays() {
        EntryDecompressor.Scratch scratch = new EntryDecompressor.Scratch();
        byte[] small = scratch.output(1024);
        assertThat(scratch.output(512)).isSameAs(small);
        byte[] large = scratch.output(EntryDecompressor.Scratch.KEEP + 1);
        assertThat(large).hasSize(EntryDecompressor.Scratch.KEEP + 1);
        assertThat(scratch.output(1024)).as("the large array is not kept").isSameAs(small);
        assertThat(scratch.input(100)).isSameAs(scratch.input(50));
    }

    @Test
    void aSmallerCapKeepsOnlyArraysUpToIt() {
        EntryDecompressor.Scratch scratch = new EntryDecompressor.Scratch(2 << 20);
        byte[] kept = scratch.output(2 << 20);
        assertThat(scratch.output(1 << 20)).isSameAs(kept);
        byte[] own = scratch.output((2 << 20) + 1);
        assertThat(scratch.output((2 << 20) + 1)).as("above the cap: a new array each time").isNotSameAs(own);
        assertThat(scratch.output(1024)).isSameAs(kept);
    }

    /**
     * Issue 11: decoding on every processor must not let the arrays kept between entries grow with the thread count:
     * together at most an eighth of the heap, each between 1 and 64 MiB.
     */
    @Test
    void theCapKeepsTheThreadsArraysWithinAnEighthOfTheHeap() {
        long mib = 1L << 20;
        assertThat(EntryDecompressor.Scratch.keepFor(8, 32L << 30)).isEqualTo(EntryDecompressor.Scratch.KEEP);
        assertThat(EntryDecompressor.Scratch.keepFor(16, 512 * mib)).isEqualTo(2 * mib);
        assertThat(EntryDecompressor.Scratch.keepFor(8, 512 * mib)).isEqualTo(4 * mib);
        assertThat(EntryDecompressor.Scratch.keepFor(64, 256 * mib)).isEqualTo(EntryDecompressor.Scratch.MIN_KEEP);
        assertThat(EntryDecompressor.Scratch.keepFor(0, 512 * mib)).isEqualTo(32 * mib);
        assertThat(EntryDecompressor.Scratch.keepFor(16, 32L << 30)).isEqualTo(64 * mib);
        for (int threads = 1; threads <= 64; threads++) {
            for (long heap : new long[] {256 * mib, 512 * mib, 1L << 30, 4L << 30, 32L << 30}) {
                long keep = EntryDecompressor.Scratch.keepFor(threads, heap);
                assertThat(keep).isBetween((long) EntryDecompressor.Scratch.MIN_KEEP,
                        (long) EntryDecompressor.Scratch.KEEP);
                if (keep > EntryDecompressor.Scratch.MIN_KEEP) {
                    assertThat(2 * keep * threads).as("%d threads, %d B heap", threads, heap).isLessThanOrEqualTo(heap / 8);
                }
            }
        }
    }
}
