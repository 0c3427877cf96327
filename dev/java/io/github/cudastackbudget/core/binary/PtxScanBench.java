package io.github.cudastackbudget.core.binary;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread CPU time of decoding the PTX entries of one host library (this build's EntryDecompressor) and of scanning
 * their kernel names with the fast scan ({@code fast}) or the tests' byte-wise oracle ({@code ref}). Run each mode in a
 * fresh JVM, alternating: {@code java -cp target/test-classes:target/classes:RUNTIME_CP
 * io.github.cudastackbudget.core.binary.PtxScanBench FILE fast|ref [MAX_MB]}. Thread CPU, not wall time, so a loaded
 * machine changes the figures less.
 */
public final class PtxScanBench {

    private PtxScanBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !List.of("fast", "ref").contains(args[1])) {
            System.err.println("usage: PtxScanBench FILE fast|ref [MAX_MB]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        boolean fast = args[1].equals("fast");
        long maxBytes = (args.length > 2 ? Long.parseLong(args[2]) : Long.MAX_VALUE >> 20) << 20;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        EntryDecompressor decompressor = new EntryDecompressor(EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        List<ByteBuffer> texts = new ArrayList<>();
        long bytes = 0;
        long start = threads.getCurrentThreadCpuTime();
        try (FileChannel channel = FileChannel.open(file)) {
            ByteRegion region = ByteRegion.map(file.toString(), channel);
            ElfFile elf = ElfFile.read(region);
            for (ElfFile.Section section : DeviceCodeSections.of(elf).toRead()) {
                for (FatbinWalker.Entry entry : FatbinWalker.entries(region.sub(section.offset(), section.size(),
                        file.toString()))) {
                    if (entry.header().isPtx() && bytes <= maxBytes) {
                        ByteBuffer text = decompressor.payload(entry, file.toString());
                        texts.add(text);
                        bytes += text.remaining();
                    }
                }
            }
        }
        System.out.printf("decode %d MB of PTX in %d entries: %d ms thread CPU (LZ4: %s)%n", bytes >> 20,
                texts.size(), (threads.getCurrentThreadCpuTime() - start) / 1_000_000,
                EntryDecompressor.lz4Decoder());
        start = threads.getCurrentThreadCpuTime();
        long names = 0;
        for (ByteBuffer text : texts) {
            names += (fast ? PtxEntryNames.scan(text) : PtxEntryNamesReference.scan(text)).size();
        }
        System.out.printf("%s scan: %d names, %d ms thread CPU%n", args[1], names,
                (threads.getCurrentThreadCpuTime() - start) / 1_000_000);
    }
}
