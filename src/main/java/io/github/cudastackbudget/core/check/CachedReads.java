package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.cache.CacheKey;
import io.github.cudastackbudget.core.cache.ContentHash;
import io.github.cudastackbudget.core.cache.KernelCache;
import io.github.cudastackbudget.core.engine.AutoEngine;
import io.github.cudastackbudget.core.engine.CuobjdumpEngine;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.JarEntryReads;
import io.github.cudastackbudget.core.engine.KernelEngine;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The engines' reads through the kernel cache ({@code core.cache}): a read whose key (content size and hash, name,
 * engine and its version) has an entry is served from it, any other is read by the engine and stored. Without a
 * cache every read goes to the engine.
 *
 * <p>Which engines are cached: the native reader (key: its {@link NativeEngine#READER_VERSION} and the plugin's
 * version); cuobjdump (key: its {@code --version} text and its executable's content hash); {@code auto} as the native
 * reader, storing only what the native reader read (a file it falls back to cuobjdump for is read again each time, so
 * its warning stays). Any other engine is never cached. A read that fails stores nothing.
 */
final class CachedReads {

    /** How an engine's output is identified in keys. */
    private record Identity(String engine, String version) {
    }

    private final KernelCache cache;
    private final int hashThreads;
    private final io.github.cudastackbudget.core.cache.HashMemo hashes;
    private final Set<LibraryScan> hits = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private final Map<KernelEngine, Optional<Identity>> identities = new IdentityHashMap<>();

    /** @param cache the cache, or null for none */
    CachedReads(KernelCache cache) {
        this.cache = cache;
        this.hashThreads = Runtime.getRuntime().availableProcessors();
        this.hashes = new io.github.cudastackbudget.core.cache.HashMemo(cache == null ? null : cache.directory());
    }

    /** Reads a file with the engine, or serves it from the cache. */
    LibraryScan readFile(KernelEngine engine, DeviceCodeProbe probe) throws EngineException {
        Optional<Identity> identity = identity(engine);
        if (identity.isEmpty()) {
            return engine.read(probe);
        }
        long start = System.nanoTime();
        Path file = probe.file();
        BasicFileAttributes before;
        CacheKey key;
        try {
            before = Files.readAttributes(file, BasicFileAttributes.class);
            key = new CacheKey(identity.get().engine(), identity.get().version(), String.valueOf(file.getFileName()),
                    before.size(), hashes.of(file, hashThreads).value());
        } catch (IOException e) {
            // the engine's own read says what is wrong with the file
            return engine.read(probe);
        }
        Optional<LibraryScan> cached = cache.load(key, file, start);
        if (cached.isPresent()) {
            hits.add(cached.get());
            return cached.get();
        }
        LibraryScan scan = engine.read(probe);
        if (storable(engine, scan) && unchanged(file, before)) {
            cache.store(key, scan);
        }
        return scan;
    }

    /** Reads a JAR entry in place with the native reader, or serves it from the cache; empty without device code. */
    Optional<LibraryScan> readEntry(JarEntryLibrary entry, NativeEngine engine) throws EngineException {
        if (cache == null) {
            return JarEntryReads.read(entry, engine);
        }
        long start = System.nanoTime();
        Optional<ByteBuffer> content = JarEntryReads.deviceCode(entry, engine);
        if (content.isEmpty()) {
            return Optional.empty();
        }
        Identity identity = identity(engine).orElseThrow();
        CacheKey key = new CacheKey(identity.engine(), identity.version(), entry.label(), content.get().remaining(),
                ContentHash.of(content.get(), hashThreads));
        Optional<LibraryScan> cached = cache.load(key, entry.jar(), start).map(scan -> scan.withUsedBy(entry.usedBy()));
        if (cached.isPresent()) {
            hits.add(cached.get());
            return cached;
        }
        LibraryScan scan = JarEntryReads.read(entry, content.get(), engine);
        cache.store(key, scan);
        return Optional.of(scan);
    }

    /** Marks a scan (as the stage returns it) as served from the cache, for the progress line. */
    LibraryScan markIfHit(LibraryScan original, LibraryScan returned) {
        if (hits.remove(original)) {
            hits.add(returned);
        }
        return returned;
    }

    /** Whether this scan was served from the cache. */
    boolean hit(LibraryScan scan) {
        return hits.contains(scan);
    }

    /** The cache's INFO line, when a cache was asked. */
    Optional<String> summary() {
        return cache == null || cache.hits() + cache.misses() == 0 ? Optional.empty() : Optional.of(cache.summary());
    }

    private synchronized Optional<Identity> identity(KernelEngine engine) {
        if (cache == null) {
            return Optional.empty();
        }
        return identities.computeIfAbsent(engine, CachedReads::identityOf);
    }

    private static Optional<Identity> identityOf(KernelEngine engine) {
        if (engine instanceof NativeEngine || engine instanceof AutoEngine) {
            return Optional.of(new Identity(NativeEngine.ID, "reader " + NativeEngine.READER_VERSION + ", plugin "
                    + KernelCache.pluginVersion()));
        }
        if (engine instanceof CuobjdumpEngine cuobjdump) {
            try {
                Path executable = cuobjdump.executable();
                return Optional.of(new Identity(CuobjdumpEngine.ID, cuobjdump.version() + "; executable "
                        + ContentHash.of(executable, 1)));
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** What the native reader read (auto's fallback to cuobjdump sees no PTX entries) or another cached engine. */
    private static boolean storable(KernelEngine engine, LibraryScan scan) {
        return !(engine instanceof AutoEngine) || scan.ptxEntriesKnown();
    }

    private static boolean unchanged(Path file, BasicFileAttributes before) {
        try {
            BasicFileAttributes after = Files.readAttributes(file, BasicFileAttributes.class);
            return after.size() == before.size() && after.lastModifiedTime().equals(before.lastModifiedTime());
        } catch (IOException e) {
            return false;
        }
    }
}
