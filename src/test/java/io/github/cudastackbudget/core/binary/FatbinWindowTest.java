package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fatbin walk over a file read with positional reads ({@link ByteRegion#read}: headers a window at a time) finds
 * exactly what the walk over the same bytes in memory finds, entry for entry and error for error, and never reads the
 * payloads between the headers (issue 11: the peak RSS under {@code -Xmx512m}).
 */
class FatbinWindowTest {

    @TempDir
    Path tmp;

    /** What a walk found: each entry's header, payload offset and stored bytes, or the error's message. */
    private static List<String> walk(ByteRegion region) {
        List<String> found = new ArrayList<>();
        try {
            for (FatbinWalker.Entry entry : FatbinWalker.entries(region)) {
                found.add(entry.header() + " @" + entry.payloadOffset() + " " + entry.storedSize() + " "
                        + Arrays.hashCode(entry.payloadBytes()));
            }
        } catch (BinaryFormatException e) {
            found.add("error: " + e.getMessage());
        }
        return found;
    }

    private static List<String> inMemory(Path file, long offset, long size) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        return walk(ByteRegion.of(file.toString(), ByteBuffer.wrap(bytes)).sub(offset, size, file.toString()));
    }

    private static List<String> windowed(Path file, long offset, long size) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return walk(ByteRegion.read(file.toString(), channel).sub(offset, size, file.toString()));
        }
    }

    /** The device-code sections of an ELF file, or the whole file for a bare fatbin. */
    private static List<long[]> fatbins(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        ByteRegion region = ByteRegion.of(file.toString(), ByteBuffer.wrap(bytes));
        if (FatbinWalker.isFatbin(region)) {
            return List.of(new long[] {0, bytes.length});
        }
        List<long[]> sections = new ArrayList<>();
        for (ElfFile.Section section : DeviceCodeSections.of(ElfFile.read(region)).toRead()) {
            sections.add(new long[] {section.offset(), section.size()});
        }
        return sections;
    }

    @Test
    void aWindowedWalkOfARealLibraryFindsWhatTheInMemoryWalkFinds() throws Exception {
        int entries = 0;
        for (String name : List.of("libframes.so", "libframes_nocomp.so", "libframes_lz4.so", "libframes_zstd.so",
                "libframes_debug.so", "libjitmixed.so", "frames.fatbin")) {
            Path file = NativeTestFiles.testCuda(name);
            for (long[] section : fatbins(file)) {
                List<String> expected = inMemory(file, section[0], section[1]);
                assertThat(windowed(file, section[0], section[1])).as(name).isEqualTo(expected);
                assertThat(expected).as(name).noneMatch(line -> line.startsWith("error: "));
                entries += expected.size();
            }
        }
        assertThat(entries).isGreaterThan(30);
    }

    @Test
    void aWindowedWalkOfAMalformedFatbinFailsWithTheSameMessage() throws Exception {
        int cases = 0;
        try (Stream<Path> files = Files.list(Path.of("src", "test", "resources", "malformed", "fatbin"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".fatbin")).sorted().toList()) {
                long size = Files.size(file);
                assertThat(windowed(file, 0, size)).as(file.toString()).isEqualTo(inMemory(file, 0, size));
                cases++;
            }
        }
        assertThat(cases).isGreaterThan(10);
    }

    @Test
    void entriesAndPaddingAcrossWindowBoundariesAreFound() throws Exception {
        // the real fatbin's containers, each followed by zero padding of a length that puts the next header across an
        // 8 KiB window boundary, then a long zero run: the in-memory walk is the reference
        byte[] fatbin = Files.readAllBytes(NativeTestFiles.testCuda("frames.fatbin"));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int padding : new int[] {0, 8, 8192 - 16, 8192 + 24, 3 << 20}) {
            out.write(fatbin);
            out.write(new byte[padding]);
        }
        Path file = Files.write(tmp.resolve("padded.fatbin"), out.toByteArray());
        long size = Files.size(file);
        List<String> expected = inMemory(file, 0, size);

        assertThat(windowed(file, 0, size)).isEqualTo(expected);
        assertThat(expected).hasSize(5 * inMemory(NativeTestFiles.testCuda("frames.fatbin"), 0, fatbin.length).size())
                .noneMatch(line -> line.startsWith("error: "));
    }

    @Test
    void theWindowedWalkReadsTheHeadersNotThePayloads() throws Exception {
        Path file = NativeTestFiles.testCuda("libframes_nocomp.so");
        long[] section = fatbins(file).get(0);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteRegion region = ByteRegion.read(file.toString(), channel).sub(section[0], section[1], file.toString());
            FatbinWalker.entries(region); // once, so that class loading is not counted
            long before = threads.getCurrentThreadAllocatedBytes();
            List<FatbinWalker.Entry> entries = FatbinWalker.entries(region);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            long payloads = entries.stream().mapToLong(FatbinWalker.Entry::storedSize).sum();
            assertThat(payloads).as("payload bytes of the uncompressed entries").isGreaterThan(section[1] / 2);
            assertThat(allocated).as("bytes allocated by the walk of " + entries.size() + " entries")
                    .isLessThan(entries.size() * 12_000L + 64_000L).isLessThan(payloads / 2);
        }
    }
}
