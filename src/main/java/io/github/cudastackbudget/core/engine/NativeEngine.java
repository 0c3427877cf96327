package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.BinaryKind;
import io.github.cudastackbudget.core.binary.CubinResources;
import io.github.cudastackbudget.core.binary.DeviceCodeListing;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.DeviceImage;
import io.github.cudastackbudget.core.binary.EntryDecompressor;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads kernels without NVIDIA tools: the pure-Java reader of {@code io.github.cudastackbudget.core.binary} walks the
 * fatbin containers of host ELF files, archives, bare fatbins and cubins, decompresses entries (zstd-jni, lz4-java) and
 * reads each cubin's {@code .nv.info} attributes and sections. It produces exactly the records, library labels and
 * SASS/PTX targets {@link CuobjdumpEngine} produces for the same file (same order), plus the kernel names of every
 * PTX entry ({@link LibraryScan#ptxEntriesKnown()} is true).
 */
public final class NativeEngine implements KernelEngine {

    /** The engine id. */
    public static final String ID = "native";

    /**
     * The version of what this reader produces, part of the kernel cache's key ({@code core.cache}): bump it when the
     * reader's output changes (records, library labels, SASS/PTX targets, PTX entry names, platform), so that no
     * entry written by an older reader is served.
     */
    public static final int READER_VERSION = 1;

    private final DeviceCodeReader reader;
    private final int parallelism;
    private final Frontend frontend;

    /**
     * An engine decoding up to {@code parallelism} fatbin entries of one file at once.
     *
     * @param frontend how its messages name the options
     */
    public NativeEngine(int parallelism, Frontend frontend) {
        this.parallelism = Math.max(1, parallelism);
        this.frontend = Objects.requireNonNull(frontend, "frontend");
        this.reader = new DeviceCodeReader(this.parallelism, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
    }

    /** An engine whose messages name the options by their parameter ids ({@link Frontend#PARAMETERS}). */
    public NativeEngine(int parallelism) {
        this(parallelism, Frontend.PARAMETERS);
    }

    /**
     * The threads that decode fatbin entries by default: every processor the JVM may use (its affinity and container
     * limits), whatever the number of files read at once ({@code parallelism}, at most 8 by default, as many
     * cuobjdump processes at once would each hold gigabytes). Issue 11: decoding is CPU-bound (libzstd and the
     * parsers), and eight threads on a 16-core machine left half of it idle; the heap the decodes hold is bounded
     * apart ({@code DecodeMemory}).
     */
    public static int decodeThreads() {
        return Math.max(1, Math.min(64, Runtime.getRuntime().availableProcessors()));
    }

    /** An engine using every processor, naming options by their parameter ids. */
    public NativeEngine() {
        this(Runtime.getRuntime().availableProcessors());
    }

    /** How this engine's messages name the options. */
    public Frontend frontend() {
        return frontend;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "native reader (zstd-jni, lz4-java, " + parallelism + " entries at once)";
    }

    @Override
    public LibraryScan read(DeviceCodeProbe probe) throws EngineException {
        return read(probe.file());
    }

    /**
     * Reads one file; library labels are its file name or {@code name.a(member.o)}.
     *
     * @throws EngineException one line naming the file, the offset and what was unexpected
     */
    public LibraryScan read(Path file) throws EngineException {
        long start = System.nanoTime();
        DeviceCodeListing listing;
        try {
            listing = reader.read(file);
        } catch (BinaryFormatException e) {
            throw new EngineException(e.getMessage() + "; the native reader does not know this layout, so the "
                    + "figures cannot be trusted (" + frontend.howToSet(Option.ENGINE, CuobjdumpEngine.ID) + " reads it with "
                    + "NVIDIA's tool)", e);
        } catch (IOException e) {
            throw new EngineException(file + ": cannot read: " + e.getMessage(), e);
        }
        return toScan(file, listing, start);
    }

    /**
     * Reads content held in memory or mapped by the caller, e.g. a library inside a JAR file, without extracting it.
     *
     * @param label        the library label, e.g. {@code app.jar!/lib/libx.so}; archive members become
     *                     {@code app.jar!/lib/libfoo.a(member.o)}
     * @param reportedPath the path the scan reports (e.g. the JAR file)
     * @param content      the bytes from position to limit (not modified)
     */
    public LibraryScan read(String label, Path reportedPath, ByteBuffer content) throws EngineException {
        long start = System.nanoTime();
        try {
            return toScan(reportedPath, reader.read(label, content), start);
        } catch (BinaryFormatException e) {
            throw new EngineException(e.getMessage() + "; the native reader does not know this layout, so the "
                    + "figures cannot be trusted", e);
        }
    }

    /**
     * A listing of the native reader as a scan, in the order and with the labels of cuobjdump's output (for tools that
     * also print the listing, e.g. the device comparison).
     *
     * @param startNanos {@link System#nanoTime()} when the read began
     */
    public static LibraryScan toScan(Path path, DeviceCodeListing listing, long startNanos) throws EngineException {
        Set<String> libraries = new LinkedHashSet<>();
        List<KernelRecord> records = new ArrayList<>();
        Map<String, SortedSet<GpuArch>> sass = new TreeMap<>();
        Map<String, SortedSet<GpuArch>> ptx = new TreeMap<>();
        Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries = new TreeMap<>();
        // one String per distinct name: each cubin's string table gives its own copy, and the stages after the read
        // compare and hash names many times (equal instances compare at once; a hash is computed once per instance)
        Map<String, String> names = new java.util.HashMap<>();
        for (DeviceCodeListing.Block block : listing.blocks()) {
            String library = block.label();
            for (DeviceImage image : block.images()) {
                libraries.add(library);
                GpuArch arch = image.arch();
                if (image.isPtx()) {
                    ptx.computeIfAbsent(library, key -> new TreeSet<>()).add(arch);
                    SortedSet<String> entries = ptxEntries.computeIfAbsent(library, key -> new TreeMap<>())
                            .computeIfAbsent(arch, key -> new TreeSet<>());
                    for (String name : image.ptxEntries()) {
                        entries.add(pooled(names, name));
                    }
                    continue;
                }
                sass.computeIfAbsent(library, key -> new TreeSet<>()).add(arch);
                for (CubinResources.Function function : image.resources().functions()) {
                    records.add(new KernelRecord(library, arch, pooled(names, function.name()), function.registers(),
                            function.stack(), function.stackUnknown(), function.shared(), function.local()));
                }
            }
        }
        if (libraries.isEmpty()) {
            throw new EngineException(listing.source() + ": the native reader found no fatbin entry although the "
                    + "file is a " + noun(listing.kind()) + " with device code sections; the figures cannot be trusted");
        }
        long elapsed = (System.nanoTime() - startNanos) / 1_000_000;
        return new LibraryScan(path, new ArrayList<>(libraries), records, sass, ptx, "", elapsed, ptxEntries, true,
                null, listing.platform());
    }

    private static String pooled(Map<String, String> pool, String name) {
        String first = pool.putIfAbsent(name, name);
        return first == null ? name : first;
    }

    private static String noun(BinaryKind kind) {
        return switch (kind) {
            case HOST_ELF -> "host elf";
            case AR_ARCHIVE -> "archive";
            default -> kind.name().toLowerCase(Locale.ROOT);
        };
    }
}
