package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decoder's limits and the reader's lifetime on REAL nvcc-built libraries (issue 10): the per-entry and per-file
 * output caps of Zstandard and LZ4 entries, entry headers that lie about the uncompressed size, a payload that expands
 * without bound, no decode task outliving a failed read, and a file that shrinks while it is mapped.
 */
class DecodeSafetyTest {

    @TempDir
    Path tmp;

    /** The compressed entries of a real library, with their absolute offsets. */
    private static List<FatbinEntry> compressedEntries(Path file) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteRegion region = ByteRegion.map(file.toString(), channel);
            ElfFile elf = ElfFile.read(region);
            List<FatbinEntry> entries = new ArrayList<>();
            for (ElfFile.Section section : DeviceCodeSections.of(elf).toRead()) {
                for (FatbinWalker.Entry entry : FatbinWalker.entries(region.sub(section.offset(), section.size(),
                        file.toString()))) {
                    if (entry.header().compression() != FatbinEntry.Compression.NONE) {
                        entries.add(entry.header());
                    }
                }
            }
            return entries;
        }
    }

    /** The largest compressed cubin entry (the one with functions). */
    private static FatbinEntry largestCubin(Path file) throws Exception {
        return compressedEntries(file).stream().filter(entry -> !entry.isPtx())
                .max((a, b) -> Long.compare(a.uncompressedSize(), b.uncompressedSize())).orElseThrow();
    }

    private Path patched(String name, FatbinEntry entry, int field, long value) throws Exception {
        return NativeTestFiles.corrupted(tmp, name, bytes -> ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
                .putLong((int) entry.fileOffset() + field, value));
    }

    @Test
    void zstdPerEntryCapNamesTheFileTheEntryAndTheCap() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        FatbinEntry entry = largestCubin(real);
        long cap = entry.uncompressedSize() - 1;
        FatbinEntry first = compressedEntries(real).stream().filter(e -> e.uncompressedSize() > cap).findFirst()
                .orElseThrow();
        assertThatThrownBy(() -> new DeviceCodeReader(1, cap).read(real)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(real + ": at offset 0x" + Long.toHexString(first.fileOffset() + 0x38)
                        + ": fatbin entry declares " + first.uncompressedSize() + " uncompressed bytes, more than the "
                        + cap + "-byte limit per entry");
    }

    @Test
    void zstdEntryThatExpandsBeyondItsDeclaredSizeStopsThere() throws Exception {
        // the real frame decodes to more than the header now declares: the output stops one byte past the declared
        // size, whatever the frame would produce
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        FatbinEntry entry = largestCubin(real);
        long declared = entry.uncompressedSize() - 100;
        Path file = patched("libframes_zstd.so", entry, 0x38, declared);
        assertThatThrownBy(() -> new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES).read(file))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessage(file + ": at offset 0x" + Long.toHexString(entry.fileOffset() + entry.headerSize())
                        + ": Zstandard decompression produced more than " + declared + " bytes, the entry header "
                        + "declares " + declared);
    }

    @Test
    void zstdBombInARealEntryIsCutAtTheDeclaredSize() throws Exception {
        // a crafted frame of 64 MiB of zeros (a few KB compressed) in place of the real payload, the header declaring
        // the real size: decoding stops at that size + 1, it never produces the 64 MiB
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        FatbinEntry entry = largestCubin(real);
        byte[] bomb = Zstd.compress(new byte[64 << 20], 3);
        assertThat((long) bomb.length).as("the bomb fits the real payload").isLessThanOrEqualTo(entry.payloadSize());
        Path file = NativeTestFiles.corrupted(tmp, "libframes_zstd.so", bytes -> {
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            buffer.putInt((int) entry.fileOffset() + 0x10, bomb.length);
            System.arraycopy(bomb, 0, bytes, (int) (entry.fileOffset() + entry.headerSize()), bomb.length);
        });
        assertThatThrownBy(() -> new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES).read(file))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessage(file + ": at offset 0x" + Long.toHexString(entry.fileOffset() + entry.headerSize())
                        + ": Zstandard decompression produced more than " + entry.uncompressedSize()
                        + " bytes, the entry header declares " + entry.uncompressedSize());
    }

    @Test
    void zstdPerFileCapNamesTheFileTheEntryAndTheCap() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        List<FatbinEntry> entries = compressedEntries(real);
        long cap = 50_000;
        assertThat(entries.stream().mapToLong(FatbinEntry::uncompressedSize).sum()).isGreaterThan(cap);
        assertThatThrownBy(() -> new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES, cap).read(real))
                .isInstanceOf(BinaryFormatException.class)
                .satisfies(error -> {
                    BinaryFormatException format = (BinaryFormatException) error;
                    assertThat(entries.stream().map(FatbinEntry::fileOffset)).contains(format.offset());
                    assertThat(format.getMessage()).isEqualTo(real + ": at offset 0x" + Long.toHexString(format.offset())
                            + ": the fatbin entries of this file decompress to more than the 50000-byte limit per "
                            + "file");
                });
        // the same file within a cap that holds it reads
        assertThat(new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES, 1L << 30).read(real).blocks())
                .isNotEmpty();
    }

    @Test
    void lz4PerEntryCapNamesTheFileTheEntryAndTheCap() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_lz4.so");
        FatbinEntry entry = largestCubin(real);
        assertThat(entry.compression()).isEqualTo(FatbinEntry.Compression.LZ4);
        long cap = entry.uncompressedSize() - 1;
        FatbinEntry first = compressedEntries(real).stream().filter(e -> e.uncompressedSize() > cap).findFirst()
                .orElseThrow();
        assertThatThrownBy(() -> new DeviceCodeReader(1, cap).read(real)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(real + ": at offset 0x" + Long.toHexString(first.fileOffset() + 0x38)
                        + ": fatbin entry declares " + first.uncompressedSize() + " uncompressed bytes, more than the "
                        + cap + "-byte limit per entry");
    }

    @Test
    void lz4PerFileCapNamesTheFileTheEntryAndTheCap() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_lz4.so");
        List<FatbinEntry> entries = compressedEntries(real);
        long cap = entries.get(0).uncompressedSize(); // the first entry fits exactly, the second crosses
        long crossing = entries.get(1).fileOffset();
        assertThatThrownBy(() -> new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES, cap).read(real))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessage(real + ": at offset 0x" + Long.toHexString(crossing) + ": the fatbin entries of this file "
                        + "decompress to more than the " + cap + "-byte limit per file");
    }

    @Test
    void lz4EntryThatDeclaresLessThanItHoldsFails() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_lz4.so");
        FatbinEntry entry = largestCubin(real);
        long declared = entry.uncompressedSize() - 100;
        Path file = patched("libframes_lz4.so", entry, 0x38, declared);
        assertThatThrownBy(() -> new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES).read(file))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessageStartingWith(file + ": at offset 0x" + Long.toHexString(entry.fileOffset()
                        + entry.headerSize()) + ": LZ4 decompression of the " + entry.compressedSize()
                        + "-byte payload failed: ")
                .hasMessageNotContaining("\n");
    }

    /**
     * A fatbin of real entries: the first cubin entry of libframes_zstd.so with its payload corrupted (fails at once
     * when decoded), then {@code slow} entries whose frames decode 48 MiB of zeros each (tens of milliseconds).
     */
    private Path failFastThenSlow(int slow) throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        FatbinEntry template = largestCubin(real);
        byte[] file = Files.readAllBytes(real);
        byte[] header = Arrays.copyOfRange(file, (int) template.fileOffset(), (int) template.fileOffset() + 0x40);
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(4, 0x40).putInt(0x14, 0).putInt(0x20, 0).putInt(0x24, 0)
                .putLong(0x28, h.getLong(0x28) & ~FatbinEntry.FLAG_COMPAT_DESCRIPTOR);
        ByteArrayOutputStream entries = new ByteArrayOutputStream();
        byte[] corrupt = new byte[64];
        Arrays.fill(corrupt, (byte) 0xFF);
        entries.write(entry(header, corrupt, 4096));
        byte[] zeros = Zstd.compress(new byte[48 << 20], 3);
        for (int i = 0; i < slow; i++) {
            entries.write(entry(header, zeros, 48 << 20));
        }
        ByteBuffer container = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(FatbinWalker.MAGIC)
                .putShort((short) 1).putShort((short) 0x10).putLong(entries.size());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(container.array());
        out.write(entries.toByteArray());
        return Files.write(tmp.resolve("fail-fast-then-slow.fatbin"), out.toByteArray());
    }

    private static byte[] entry(byte[] header, byte[] payload, long uncompressed) {
        int padded = (payload.length + 7) & ~7;
        ByteBuffer entry = ByteBuffer.allocate(0x40 + padded).order(ByteOrder.LITTLE_ENDIAN).put(header);
        entry.putLong(8, padded).putInt(0x10, payload.length).putLong(0x38, uncompressed);
        entry.position(0x40);
        entry.put(payload);
        return entry.array();
    }

    /** The decode frames still on the reader's pool threads. */
    private static List<String> runningDecodes() {
        List<String> running = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            if (!thread.getKey().getName().equals("cuda-stack-budget-native")) {
                continue;
            }
            for (StackTraceElement frame : thread.getValue()) {
                if (frame.getClassName().equals(EntryDecompressor.class.getName())
                        || frame.getMethodName().startsWith("decode")) {
                    running.add(thread.getKey() + " in " + frame);
                    break;
                }
            }
        }
        return running;
    }

    @Test
    void aFailedReadReturnsOnlyAfterEveryDecodeTaskHasEnded() throws Exception {
        Path fatbin = failFastThenSlow(6);
        DeviceCodeReader reader = new DeviceCodeReader(4, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        for (int round = 0; round < 5; round++) {
            assertThatThrownBy(() -> reader.read(fatbin)).isInstanceOf(BinaryFormatException.class)
                    .hasMessageContaining("Zstandard decompression of the 64-byte payload failed");
            // sampled at once: a task still decoding a 48 MiB entry (tens of ms) would be seen here
            assertThat(runningDecodes()).as("decode tasks still running after the read failed (round %d)", round)
                    .isEmpty();
        }
    }

    @Test
    void aFileThatShrinksWhileMappedIsAClearError() throws Exception {
        Path copy = Files.copy(NativeTestFiles.testCuda("libframes.so"), tmp.resolve("libframes.so"));
        DeviceCodeReader reader = new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteRegion region = ByteRegion.map(copy.toString(), channel);
            channel.truncate(4096); // the section header table and .nv_fatbin now lie past the end of the file
            assertThatThrownBy(() -> reader.read(copy.toString(), "libframes.so", region))
                    .isInstanceOf(BinaryFormatException.class)
                    .hasMessage(copy + ": the file changed or shrank while it was read (a fault in the memory-mapped "
                            + "bytes); read it again once nothing writes it");
        }
    }

    @Test
    void aFileThatShrinksBetweenTheWalkAndTheDecodeIsAClearError() throws Exception {
        // the headers are walked from the mapping; the payload copy (the decode's input, positional reads since issue 11)
        // finds the file shorter
        Path copy = Files.copy(NativeTestFiles.testCuda("libframes_zstd.so"), tmp.resolve("libframes_zstd.so"));
        FatbinEntry entry = largestCubin(copy);
        try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteRegion region = ByteRegion.map(copy.toString(), channel);
            ElfFile elf = ElfFile.read(region);
            ElfFile.Section section = DeviceCodeSections.of(elf).toRead().get(0);
            List<FatbinWalker.Entry> walked = FatbinWalker.entries(region.sub(section.offset(), section.size(),
                    copy.toString()));
            FatbinWalker.Entry target = walked.stream().filter(e -> e.header().fileOffset() == entry.fileOffset())
                    .findFirst().orElseThrow();
            EntryDecompressor decompressor = new EntryDecompressor(EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
            // compiled (JIT) code reports the fault later than interpreted code (seen in a full build: after payload()
            // had returned): decode often enough first that the copy runs compiled
            for (int i = 0; i < 20_000; i++) {
                decompressor.payload(target, copy.toString());
            }
            channel.truncate(4096);
            assertThatThrownBy(() -> decompressor.payload(target, copy.toString()))
                    .isInstanceOf(BinaryFormatException.class)
                    .hasMessage(copy + ": at offset 0x" + Long.toHexString(entry.fileOffset() + entry.headerSize())
                            + ": the file changed or shrank while it was read (it ends before these "
                            + entry.compressedSize() + " bytes); read it again once nothing writes it");
        }
    }
}
