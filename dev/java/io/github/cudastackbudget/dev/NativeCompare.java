package io.github.cudastackbudget.dev;

import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.BinaryKind;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeListing;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.EntryDecompressor;
import io.github.cudastackbudget.core.binary.ResourceUsageText;
import io.github.cudastackbudget.core.engine.CuobjdumpEngine;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Compares the native engine with cuobjdump on real files (dev/native-compare.sh, dev/bench-native.sh).
 *
 *   NativeCompare [--cuobjdump WRAPPER] [--capture DIR] [--repeat N] [--parallelism N] [--list FILE]
 *                 [--budget-seconds S] FILE...
 *
 * Candidates (arguments and the lines of --list) are probed with the plugin's DeviceCodeDetector: files without device
 * code are dropped, duplicates (same real path) too; ELF, cubin and fatbin files come first (by path), archives after
 * them (smallest first). Per file, after reading it once to warm the page cache: the native reader (best of N reads,
 * plus the time to print its text), then the cuobjdump engine (through WRAPPER, which runs the real cuobjdump and
 * tees its text to DIR/&lt;index&gt;.cuobjdump.txt, the index being read from DIR/current); records, library labels and
 * SASS/PTX targets are compared one by one, the texts byte for byte. No new file is started once S seconds have
 * passed. Prints one table row per file and the totals. A tool of the repo, not shipped in the plugin.
 */
public final class NativeCompare {

    public static void main(String[] args) throws Exception {
        Path cuobjdump = null;
        Path capture = null;
        int repeat = 1;
        int parallelism = Runtime.getRuntime().availableProcessors();
        List<Path> candidates = new ArrayList<>();
        double budgetSeconds = Double.MAX_VALUE;
        if (args.length > 0 && args[0].equals("--decompress-bench")) {
            decompressBench(java.util.Arrays.asList(args).subList(1, args.length));
            return;
        }
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--list" -> Files.readAllLines(Path.of(args[++i])).stream().filter(line -> !line.isBlank())
                        .map(Path::of).forEach(candidates::add);
                case "--budget-seconds" -> budgetSeconds = Double.parseDouble(args[++i]);
                case "--cuobjdump" -> cuobjdump = Path.of(args[++i]);
                case "--capture" -> capture = Path.of(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--parallelism" -> parallelism = Integer.parseInt(args[++i]);
                default -> candidates.add(Path.of(args[i]));
            }
        }
        PrintStream out = System.out;
        long began = System.nanoTime();
        List<Path> files = deviceCodeFiles(candidates, out);
        CuobjdumpEngine engine = cuobjdump == null ? null : CuobjdumpEngine.using(cuobjdump, Duration.ofMinutes(10),
                Frontend.PARAMETERS);
        DeviceCodeReader reader = new DeviceCodeReader(parallelism, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        out.printf(Locale.ROOT, "%-4s %-58s %9s %6s %5s %7s %10s %9s %7s %7s%n", "#", "library", "records", "diffs",
                "text", "size MB", "cuobjdump s", "native s", "ratio", "print s");
        int skipped = 0;
        java.util.Map<String, long[]> census = new java.util.TreeMap<>();
        long totalRecords = 0;
        long totalDiffs = 0;
        int textDiffs = 0;
        int failures = 0;
        double totalCuobjdump = 0;
        double totalNative = 0;
        int index = 0;
        for (Path file : files) {
            index++;
            if ((System.nanoTime() - began) / 1e9 > budgetSeconds) {
                skipped++;
                out.println("     not compared (time budget spent): " + file);
                continue;
            }
            warm(file);
            String name = file.getFileName().toString();
            double sizeMb = Files.size(file) / 1e6;
            LibraryScan nativeScan = null;
            DeviceCodeListing listing = null;
            String nativeError = null;
            double nativeSeconds = Double.MAX_VALUE;
            for (int run = 0; run < repeat; run++) {
                long start = System.nanoTime();
                try {
                    listing = reader.read(file);
                    nativeScan = NativeEngine.toScan(file, listing, start);
                } catch (BinaryFormatException | EngineException | IOException e) {
                    nativeError = e.getMessage();
                }
                nativeSeconds = Math.min(nativeSeconds, (System.nanoTime() - start) / 1e9);
            }
            double printSeconds = 0;
            if (listing != null) {
                for (DeviceCodeListing.Block block : listing.blocks()) {
                    for (io.github.cudastackbudget.core.binary.DeviceImage image : block.images()) {
                        io.github.cudastackbudget.core.binary.FatbinEntry entry = image.entry();
                        String key = entry == null ? "bare cubin" : String.format(Locale.ROOT,
                                "kind %d header 0x%02x flags 0x%07x identifier %s ptxasOptions %s", entry.kind(),
                                entry.headerSize(), entry.flags(), entry.identifier().isEmpty() ? "-" : "yes",
                                entry.ptxasOptions() == null ? "-" : entry.ptxasOptions().length() + " chars");
                        census.computeIfAbsent(key, k -> new long[1])[0]++;
                    }
                }
                long printStart = System.nanoTime();
                byte[] nativeText = ResourceUsageText.toText(listing).getBytes(StandardCharsets.ISO_8859_1);
                printSeconds = (System.nanoTime() - printStart) / 1e9;
                if (capture != null) {
                    Files.write(capture.resolve(index + ".native.txt"), nativeText);
                }
            }
            if (capture != null) {
                Files.writeString(capture.resolve("current"), Integer.toString(index));
                Files.writeString(capture.resolve(index + ".path"), file.toString());
            }
            if (engine == null) {
                out.printf(Locale.ROOT, "%-4d %-58s %9s %6s %5s %7.1f %10s %9.3f %7s %7.3f%n", index, name,
                        nativeScan == null ? "-" : Integer.toString(nativeScan.records().size()), "-", "-", sizeMb, "-",
                        nativeSeconds, "-", printSeconds);
                if (nativeError != null) {
                    out.println("     native failed: " + nativeError);
                    failures++;
                }
                totalNative += nativeSeconds;
                continue;
            }
            LibraryScan cuobjdumpScan = null;
            String cuobjdumpError = null;
            long start = System.nanoTime();
            try {
                DeviceCodeProbe probe = DeviceCodeDetector.probe(file);
                cuobjdumpScan = engine.read(probe);
            } catch (EngineException | IOException e) {
                cuobjdumpError = e.getMessage();
            }
            double cuobjdumpSeconds = (System.nanoTime() - start) / 1e9;
            String text = "-";
            if (capture != null) {
                Path cuText = capture.resolve(index + ".cuobjdump.txt");
                Path naText = capture.resolve(index + ".native.txt");
                if (Files.exists(cuText) && Files.exists(naText)) {
                    text = Files.mismatch(cuText, naText) == -1 ? "same" : "DIFF";
                    if (text.equals("DIFF")) {
                        textDiffs++;
                    }
                }
            }
            long diffs = 0;
            int records = 0;
            if (cuobjdumpScan != null && nativeScan != null) {
                records = cuobjdumpScan.records().size();
                diffs = differences(cuobjdumpScan, nativeScan, out);
            } else {
                diffs = -1;
                failures++;
            }
            totalRecords += records;
            totalDiffs += Math.max(0, diffs);
            totalCuobjdump += cuobjdumpSeconds;
            totalNative += nativeSeconds;
            out.printf(Locale.ROOT, "%-4d %-58s %9d %6s %5s %7.1f %10.3f %9.3f %7.1f %7.3f%n", index, name, records,
                    diffs < 0 ? "FAIL" : Long.toString(diffs), text, sizeMb, cuobjdumpSeconds, nativeSeconds,
                    cuobjdumpSeconds / nativeSeconds, printSeconds);
            if (cuobjdumpError != null) {
                out.println("     cuobjdump engine failed: " + cuobjdumpError);
            }
            if (nativeError != null) {
                out.println("     native failed: " + nativeError);
            }
        }
        out.println("Entry header census (entries read by the native reader):");
        census.forEach((key, count) -> out.printf(Locale.ROOT, "  %8d  %s%n", count[0], key));
        if (skipped > 0) {
            out.println("NOT COMPARED (time budget): " + skipped + " files");
        }
        out.printf(Locale.ROOT, "TOTAL %d files, %d records compared, %d record differences, %d text differences, "
                + "%d failures; cuobjdump %.1f s, native %.1f s, ratio %.1f%n", files.size() - skipped, totalRecords, totalDiffs,
                textDiffs, failures, totalCuobjdump, totalNative, totalNative > 0 ? totalCuobjdump / totalNative : 0);
    }

    /** The candidates with device code, deduplicated by real path, ELF/cubin/fatbin first, then archives by size. */
    private static List<Path> deviceCodeFiles(List<Path> candidates, PrintStream out) throws IOException {
        java.util.Set<Path> seen = new java.util.HashSet<>();
        List<Path> plain = new ArrayList<>();
        List<Path> archives = new ArrayList<>();
        int probed = 0;
        for (Path candidate : candidates) {
            if (!Files.isRegularFile(candidate) || !seen.add(candidate.toRealPath())) {
                continue;
            }
            probed++;
            DeviceCodeProbe probe;
            try {
                probe = DeviceCodeDetector.probe(candidate);
            } catch (IOException e) {
                continue;
            }
            if (!probe.hasDeviceCode()) {
                continue;
            }
            (probe.kind() == BinaryKind.AR_ARCHIVE ? archives : plain)
                    .add(candidate);
        }
        plain.sort(java.util.Comparator.comparing(Path::toString));
        archives.sort(java.util.Comparator.comparingLong(path -> {
            try {
                return Files.size(path);
            } catch (IOException e) {
                return Long.MAX_VALUE;
            }
        }));
        out.println("probed " + probed + " distinct files: " + plain.size() + " ELF/cubin/fatbin and " + archives.size()
                + " archives with device code");
        List<Path> all = new ArrayList<>(plain);
        all.addAll(archives);
        return all;
    }

    /**
     * Single-threaded decompression throughput per codec: walks every fatbin entry of each file and decompresses the
     * compressed ones with the reader's EntryDecompressor (zstd-jni, lz4-java), three times, keeping the best time.
     */
    private static void decompressBench(List<String> files) throws Exception {
        EntryDecompressor decompressor = new EntryDecompressor(EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        System.out.printf(Locale.ROOT, "%-40s %6s %8s %10s %12s %8s %9s%n", "library", "codec", "entries",
                "in MB", "out MB", "best s", "out MB/s");
        for (String name : files) {
            Path file = Path.of(name);
            warm(file);
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
                io.github.cudastackbudget.core.binary.ByteRegion region =
                        io.github.cudastackbudget.core.binary.ByteRegion.map(name, channel);
                io.github.cudastackbudget.core.binary.ElfFile elf =
                        io.github.cudastackbudget.core.binary.ElfFile.read(region);
                java.util.Map<io.github.cudastackbudget.core.binary.FatbinEntry.Compression,
                        List<io.github.cudastackbudget.core.binary.FatbinWalker.Entry>> byCodec = new java.util.TreeMap<>();
                for (io.github.cudastackbudget.core.binary.ElfFile.Section section : elf.sections()) {
                    if (section.name().equals(".nv_fatbin")) {
                        for (io.github.cudastackbudget.core.binary.FatbinWalker.Entry entry :
                                io.github.cudastackbudget.core.binary.FatbinWalker.entries(
                                        region.sub(section.offset(), section.size(), name))) {
                            byCodec.computeIfAbsent(entry.header().compression(), k -> new ArrayList<>()).add(entry);
                        }
                    }
                }
                for (var codec : byCodec.entrySet()) {
                    if (codec.getKey() == io.github.cudastackbudget.core.binary.FatbinEntry.Compression.NONE) {
                        continue;
                    }
                    long in = 0;
                    long outBytes = 0;
                    double best = Double.MAX_VALUE;
                    for (int run = 0; run < 3; run++) {
                        in = 0;
                        outBytes = 0;
                        long start = System.nanoTime();
                        for (var entry : codec.getValue()) {
                            in += entry.header().compressedSize();
                            outBytes += decompressor.payload(entry, name).remaining();
                        }
                        best = Math.min(best, (System.nanoTime() - start) / 1e9);
                    }
                    System.out.printf(Locale.ROOT, "%-40s %6s %8d %10.1f %12.1f %8.3f %9.0f%n",
                            file.getFileName(), codec.getKey(), codec.getValue().size(), in / 1e6, outBytes / 1e6,
                            best, outBytes / 1e6 / best);
                }
            }
        }
    }

    /** Reads the whole file once so that neither tool pays the disk. */
    private static void warm(Path file) throws IOException {
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocateDirect(8 << 20);
            while (channel.read(buffer) > 0) {
                buffer.clear();
            }
        }
    }

    /** Differences between the two scans: records position by position, labels, targets (printed, at most 5). */
    private static long differences(LibraryScan expected, LibraryScan actual, PrintStream out) {
        long diffs = 0;
        List<KernelRecord> a = expected.records();
        List<KernelRecord> b = actual.records();
        int shown = 0;
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            KernelRecord x = i < a.size() ? a.get(i) : null;
            KernelRecord y = i < b.size() ? b.get(i) : null;
            if (x == null || !x.equals(y)) {
                diffs++;
                if (shown++ < 5) {
                    out.println("     record " + i + ": cuobjdump " + x + " / native " + y);
                }
            }
        }
        if (!expected.libraries().equals(actual.libraries())) {
            diffs++;
            out.println("     libraries: cuobjdump " + expected.libraries() + " / native " + actual.libraries());
        }
        if (!expected.sassArches().equals(actual.sassArches())) {
            diffs++;
            out.println("     SASS targets: cuobjdump " + expected.sassArches() + " / native " + actual.sassArches());
        }
        if (!expected.ptxArches().equals(actual.ptxArches())) {
            diffs++;
            out.println("     PTX targets: cuobjdump " + expected.ptxArches() + " / native " + actual.ptxArches());
        }
        return diffs;
    }
}
