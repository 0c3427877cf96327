package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap budget of the decodes in flight (issue 11: libnccl.so.2 ran out of a 512 MB heap on 16 threads). */
class DecodeMemoryTest {

    @TempDir
    Path tmp;

    private static FatbinEntry entry(long flags, long payload, long compressed, long uncompressed) {
        return new FatbinEntry(0, FatbinEntry.KIND_ELF, 64, payload, compressed, 1, 8, 90, "", null,
                FatbinEntry.FLAG_64BIT | FatbinEntry.FLAG_HOST_LINUX | flags, uncompressed);
    }

    @Test
    void estimatesWhatEachKindOfEntryHoldsAtItsPeak() {
        assertThat(DecodeMemory.estimate(entry(0, 4096, 0, 0))).isEqualTo(4096);
        assertThat(DecodeMemory.estimate(entry(FatbinEntry.FLAG_ZSTD, 1008, 1000, 9000)))
                .isEqualTo(2 * 1000 + 2 * 9000);
        assertThat(DecodeMemory.estimate(entry(FatbinEntry.FLAG_LZ4, 1008, 1000, 9000))).isEqualTo(1000 + 9000);
        // LZ4 cannot produce more than 255 bytes per input byte, whatever the header claims
        assertThat(DecodeMemory.estimate(entry(FatbinEntry.FLAG_LZ4, 8, 8, 1L << 30))).isEqualTo(8 + 255 * 8 + 16);
    }

    @Test
    void anEntryLargerThanTheBudgetRunsAloneInsteadOfWaitingForever() throws Exception {
        DecodeMemory memory = new DecodeMemory(100);
        long reserved = memory.acquire(1L << 40);
        assertThat(reserved).isEqualTo(100);
        memory.release(reserved);
        assertThat(memory.acquire(50)).isEqualTo(50);
    }

    @Test
    void aDecodeWaitsWhileOthersHoldTheBudgetAndStartsWhenTheyEnd() throws Exception {
        DecodeMemory memory = new DecodeMemory(100);
        long first = memory.acquire(70);
        CountDownLatch started = new CountDownLatch(1);
        AtomicLong second = new AtomicLong(-1);
        Thread waiter = new Thread(() -> {
            try {
                second.set(memory.acquire(40));
                started.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.start();
        // it must still be waiting after a while: 70 + 40 is over the budget
        assertThat(started.await(300, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(waiter.getState()).isEqualTo(Thread.State.WAITING);
        memory.release(first);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get()).isEqualTo(40);
        waiter.join();
    }

    @Test
    void aReaderWithATinyBudgetReadsEveryEntryAsOneThreadDoes() throws Exception {
        for (String name : NativeTestFiles.RECORDED_TEST_BINARIES) {
            DeviceCodeReader serial = new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
            // one byte of budget: every entry is over it, so the eight threads decode one entry at a time
            DeviceCodeReader starved = new DeviceCodeReader(8, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES,
                    EntryDecompressor.DEFAULT_MAX_FILE_BYTES, 1);
            assertThat(ResourceUsageText.toText(NativeTestFiles.readAsRecorded(starved, name)))
                    .as(name)
                    .isEqualTo(ResourceUsageText.toText(NativeTestFiles.readAsRecorded(serial, name)))
                    .isEqualTo(NativeTestFiles.recording(name));
        }
    }

    /** Entries of this many decompressed bytes each: one real cubin followed by zeros (its sections ignore them). */
    private static final int WIDE_ENTRY = 40 << 20;
    private static final int WIDE_ENTRIES = 24;

    /**
     * A fatbin of {@link #WIDE_ENTRIES} Zstandard entries that each decompress to a valid 40 MiB cubin: the first cubin
     * of the real libframes_zstd.so padded with zeros. Sixteen threads decoding at once held about 1 GB.
     */
    private Path wideFatbin() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        byte[] cubin = null;
        byte[] header = null;
        try (FileChannel channel = FileChannel.open(real, StandardOpenOption.READ)) {
            ByteRegion region = ByteRegion.map(real.toString(), channel);
            ElfFile elf = ElfFile.read(region);
            for (ElfFile.Section section : DeviceCodeSections.of(elf).toRead()) {
                for (FatbinWalker.Entry entry : FatbinWalker.entries(region.sub(section.offset(), section.size(),
                        real.toString()))) {
                    FatbinEntry h = entry.header();
                    if (cubin == null && !h.isPtx() && h.compression() == FatbinEntry.Compression.ZSTD) {
                        ByteBuffer payload = new EntryDecompressor(EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES)
                                .payload(entry, real.toString());
                        cubin = new byte[payload.remaining()];
                        payload.get(cubin);
                        header = new byte[0x40];
                        region.slice(h.fileOffset(), 0x40).get(header);
                    }
                }
            }
        }
        assertThat(cubin).as("a Zstandard cubin entry in libframes_zstd.so").isNotNull();
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(4, 0x40).putInt(0x14, 0).putInt(0x20, 0).putInt(0x24, 0)
                .putLong(0x28, h.getLong(0x28) & ~FatbinEntry.FLAG_COMPAT_DESCRIPTOR);
        byte[] compressed = Zstd.compress(Arrays.copyOf(cubin, WIDE_ENTRY), 1);
        int padded = (compressed.length + 7) & ~7;
        ByteArrayOutputStream entries = new ByteArrayOutputStream();
        for (int i = 0; i < WIDE_ENTRIES; i++) {
            ByteBuffer entry = ByteBuffer.allocate(0x40 + padded).order(ByteOrder.LITTLE_ENDIAN).put(header);
            entry.putLong(8, padded).putInt(0x10, compressed.length).putLong(0x38, WIDE_ENTRY);
            entry.position(0x40);
            entry.put(compressed);
            entries.write(entry.array());
        }
        ByteBuffer container = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(FatbinWalker.MAGIC)
                .putShort((short) 1).putShort((short) 0x10).putLong(entries.size());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(container.array());
        out.write(entries.toByteArray());
        return Files.write(tmp.resolve("wide.fatbin"), out.toByteArray());
    }

    /**
     * Regression (issue 11): many threads decoding large entries at once ran out of a small heap
     * ("OutOfMemoryError: Java heap space" on libnccl.so.2 under -Xmx512m with 16 threads). A fresh JVM with a 192 MiB
     * heap reads 24 entries of 40 MiB on 16 threads: every entry is read, nothing runs out of memory.
     */
    @Test
    void sixteenThreadsReadLargeEntriesInASmallHeap() throws Exception {
        Path fatbin = wideFatbin();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-Xmx192m", "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), ReadMain.class.getName(), fatbin.toString(), "16")
                .redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output.strip()).isEqualTo("images " + WIDE_ENTRIES);
    }

    /** Reads one file with N threads in this JVM and prints how many images it held ({@code FILE N [BUDGET]}). */
    static final class ReadMain {
        public static void main(String[] args) throws Exception {
            // a third argument sets the decode budget in bytes (by hand: a huge one shows the old failure)
            DeviceCodeReader reader = args.length > 2
                    ? new DeviceCodeReader(Integer.parseInt(args[1]), EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES,
                            EntryDecompressor.DEFAULT_MAX_FILE_BYTES, Long.parseLong(args[2]))
                    : new DeviceCodeReader(Integer.parseInt(args[1]), EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
            DeviceCodeListing listing = reader.read(Path.of(args[0]));
            List<DeviceCodeListing.Block> blocks = listing.blocks();
            System.out.println("images " + blocks.stream().mapToInt(b -> b.images().size()).sum());
        }
    }
}
