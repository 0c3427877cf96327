package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.KernelEngine;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.text.Frontend;
import java.util.List;

/**
 * The engines of one check: the configured engine for files, created on first use (a project without CUDA needs no
 * toolkit), and the native reader for JAR entries (cuobjdump needs a file on disk; entries are read in place).
 */
final class Engines {

    private final EngineProvider provider;
    private final Frontend frontend;
    private final CachedReads reads;
    private KernelEngine files;
    private NativeEngine jarEntries;

    Engines(EngineProvider provider, Frontend frontend) {
        this(provider, frontend, new CachedReads(null));
    }

    /**
     * @param reads the reads through the kernel cache (or without one); the JAR entries' native reader decodes on
     *              every processor ({@link NativeEngine#decodeThreads})
     */
    Engines(EngineProvider provider, Frontend frontend, CachedReads reads) {
        this.provider = provider;
        this.frontend = frontend;
        this.reads = reads;
    }

    /** The engines' reads, through the kernel cache where the check has one. */
    CachedReads reads() {
        return reads;
    }

    /** The engine for files, created now if needed. */
    KernelEngine files() throws EngineException {
        if (files == null) {
            files = provider.get();
        }
        return files;
    }

    /** The native reader for JAR entries, created now if needed. */
    NativeEngine jarEntries() {
        if (jarEntries == null) {
            jarEntries = new NativeEngine(NativeEngine.decodeThreads(), frontend);
        }
        return jarEntries;
    }

    /** What the file engine reported along the way (e.g. a fallback); empty when it was never created. */
    List<String> warnings() {
        return files == null ? List.of() : files.warnings();
    }

    /** The engines that read something, as the reports name them. */
    String description() {
        if (files != null) {
            return files.description() + (jarEntries != null ? "; JAR entries: " + jarEntries.description() : "");
        }
        return jarEntries != null ? jarEntries.description() : CheckResult.NO_ENGINE;
    }
}
