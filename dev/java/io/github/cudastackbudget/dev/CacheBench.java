package io.github.cudastackbudget.dev;

import io.github.cudastackbudget.core.cache.CacheKey;
import io.github.cudastackbudget.core.cache.ContentHash;
import io.github.cudastackbudget.core.cache.EntryFormat;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel cache's two costs on a hit, each in the process that runs it (run it as a fresh process for cold figures):
 * {@code hash FILE [THREADS]} prints the content hash's time and MB/s; {@code write FILE ENTRY} reads FILE with the
 * native reader and writes its cache entry; {@code read FILE ENTRY} times decoding that entry.
 */
public final class CacheBench {

    private CacheBench() {
    }

    private static CacheKey key(Path file) throws Exception {
        return new CacheKey("native", "bench", file.getFileName().toString(), Files.size(file), "bench");
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: CacheBench hash FILE [THREADS] | write FILE ENTRY | read FILE ENTRY");
            System.exit(2);
        }
        Path file = Path.of(args[1]);
        long start = System.nanoTime();
        switch (args[0]) {
            case "hash" -> {
                int threads = args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
                String hash = ContentHash.of(file, threads);
                double seconds = (System.nanoTime() - start) / 1e9;
                long size = Files.size(file);
                System.out.printf("hash %s: %d bytes, %d threads, %.1f ms, %.0f MB/s (%s)%n", file.getFileName(), size,
                        threads, seconds * 1e3, size / seconds / 1e6, hash);
            }
            case "write" -> {
                LibraryScan scan = new NativeEngine().read(file);
                byte[] entry = EntryFormat.write(key(file), scan);
                Files.write(Path.of(args[2]), entry);
                System.out.printf("write %s: %d records, entry %d bytes, %.1f ms (read and write)%n",
                        file.getFileName(), scan.records().size(), entry.length, (System.nanoTime() - start) / 1e6);
            }
            case "read" -> {
                byte[] entry = Files.readAllBytes(Path.of(args[2]));
                LibraryScan scan = EntryFormat.read(entry, key(file), file, 0);
                System.out.printf("read %s: %d records from %d bytes, %.1f ms%n", file.getFileName(),
                        scan.records().size(), entry.length, (System.nanoTime() - start) / 1e6);
            }
            default -> {
                System.err.println("unknown mode " + args[0]);
                System.exit(2);
            }
        }
    }
}
