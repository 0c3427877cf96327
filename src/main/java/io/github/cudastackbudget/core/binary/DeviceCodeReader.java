package io.github.cudastackbudget.core.binary;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.GpuArch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Reads every device-code image of one file without NVIDIA tools (docs/cuda-binary-format.md section 1):
 *
 * <ol>
 *   <li>host ELF: the contents of every {@code .nv_fatbin} section in section order, or, only when there is none,
 *       every {@code __nv_relfatbin} section; a bare cubin ({@code e_machine} 190): its own figures; a file starting
 *       with the fatbin magic: the whole file; an {@code ar} archive: the same for every member;</li>
 *   <li>each fatbin container and entry is walked in order ({@link FatbinWalker}), sequentially: headers are small;</li>
 *   <li>entries are then decompressed and parsed in parallel on at most {@code parallelism} threads of a pool shared
 *       by every read of this reader (also when several files are read at once), so at most that many decompressed
 *       entries are in memory at once, each at most {@code maxEntryBytes}, and together no more than a share of the
 *       heap ({@link DecodeMemory}: a large entry waits for room); results keep file order.</li>
 * </ol>
 *
 * <p>Files are read with positional reads, nothing mapped ({@link ByteRegion#read}): the walk reads the headers a few
 * kilobytes at a time, each payload is read to the heap before it is decoded, so the process holds the entries in
 * flight and not the file (issue 11: a mapping made most of libtorch_cuda.so's fatbin resident under
 * {@code -Xmx512m}). A file that changes or shrinks while it is read is a {@link BinaryFormatException}; so is a fault
 * of a mapped buffer handed in (a JAR entry), never an {@link InternalError}. A failed read returns only after every decode task it started has ended. Any unknown layout fails the whole read with a {@link BinaryFormatException} naming the
 * file, the offset and what was unexpected: no entry is ever skipped and no figure silently becomes 0.
 */
public final class DeviceCodeReader {

    private final int parallelism;
    private final EntryDecompressor decompressor;
    private final long maxFileBytes;
    /** Shared by every read of this reader, also concurrent ones; idle threads end after a few seconds. */
    private final ThreadPoolExecutor pool;
    /** The heap the decodes in flight may hold together (null with one thread: one entry at a time anyway). */
    private final DecodeMemory memory;
    /** The largest array a decode thread keeps from one entry to the next. */
    private final int keep;

    /**
     * @param parallelism   entries decoded at once by this reader, whatever the number of files read concurrently
     *                      (1 = in the calling thread)
     * @param maxEntryBytes the largest decompressed entry accepted
     */
    public DeviceCodeReader(int parallelism, long maxEntryBytes) {
        this(parallelism, maxEntryBytes, EntryDecompressor.DEFAULT_MAX_FILE_BYTES);
    }

    /**
     * @param parallelism   entries decoded at once by this reader (1 = in the calling thread)
     * @param maxEntryBytes the largest decompressed entry accepted
     * @param maxFileBytes  the most decompressed bytes accepted from all entries of one file
     */
    public DeviceCodeReader(int parallelism, long maxEntryBytes, long maxFileBytes) {
        this(parallelism, maxEntryBytes, maxFileBytes, DecodeMemory.ofHeap().capacity());
    }

    /** As above, with the heap the decodes in flight may hold together (tests make it tiny). */
    DeviceCodeReader(int parallelism, long maxEntryBytes, long maxFileBytes, long decodeMemoryBytes) {
        this.maxFileBytes = maxFileBytes;
        this.parallelism = Math.max(1, parallelism);
        this.decompressor = new EntryDecompressor(maxEntryBytes);
        this.keep = EntryDecompressor.Scratch.keepFor(this.parallelism, Runtime.getRuntime().maxMemory());
        if (this.parallelism > 1) {
            pool = new ThreadPoolExecutor(this.parallelism, this.parallelism, 5, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), runnable -> {
                        Thread thread = new Thread(runnable, "cuda-stack-budget-native");
                        thread.setDaemon(true);
                        return thread;
                    });
            pool.allowCoreThreadTimeOut(true);
            memory = new DecodeMemory(decodeMemoryBytes);
        } else {
            pool = null;
            memory = null;
        }
    }

    /** A reader using every processor and the default entry cap. */
    public static DeviceCodeReader withDefaults() {
        return new DeviceCodeReader(Runtime.getRuntime().availableProcessors(),
                EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
    }

    /**
     * Reads a file; its label is its file name, messages name it as given.
     *
     * @throws IOException           when the file cannot be opened
     * @throws BinaryFormatException when its content is not understood
     */
    public DeviceCodeListing read(Path file) throws IOException, BinaryFormatException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            Path name = file.getFileName();
            return read(file.toString(), name == null ? file.toString() : name.toString(),
                    ByteRegion.read(file.toString(), channel));
        }
    }

    /**
     * The error for a fault while reading a mapped file: the JVM turns the signal of a read past the end of a file
     * that shrank (or changed) after it was mapped into an {@link InternalError}.
     */
    static BinaryFormatException changedWhileRead(String source, long offset, InternalError e) {
        return new BinaryFormatException(source, offset, "the file changed or shrank while it was read (a fault in the "
                + "memory-mapped bytes); read it again once nothing writes it", e);
    }

    /**
     * Reads in-memory (or mapped) content, e.g. a library inside a JAR file.
     *
     * @param label   the library label and the name in messages ({@code app.jar!/lib/libx.so})
     * @param content the bytes from position to limit
     */
    public DeviceCodeListing read(String label, ByteBuffer content) throws BinaryFormatException {
        return read(label, label, ByteRegion.of(label, content));
    }

    /**
     * Reads a region.
     *
     * @param source the file as named in messages and in {@code member} lines
     * @param label  the library label; archive members get {@code label(member)}
     */
    public DeviceCodeListing read(String source, String label, ByteRegion region) throws BinaryFormatException {
        try {
            return readRegion(source, label, region);
        } catch (InternalError e) {
            throw changedWhileRead(source, -1, e);
        }
    }

    /**
     * What the driver compiles when no SASS fits: the text of each PTX entry of a file that {@code wanted} asks for,
     * in file order, one at a time (each decompressed alone, so memory holds one module): for the JIT frames that ptxas
     * computes.
     */
    public interface PtxVisitor {
        /**
         * @param label       the library label of the entry (the file's, or {@code label(member)})
         * @param target      the PTX target ({@code compute_80} as {@code sm_80} with its variant)
         * @param entryOffset the entry header's offset in the file
         * @param text        the PTX text, trailing NUL padding removed
         */
        void module(String label, GpuArch target, long entryOffset, ByteBuffer text) throws BinaryFormatException;
    }

    /** Visits the PTX entries of a file that {@code wanted} (library label, target) accepts. */
    public void ptxModules(Path file, java.util.function.BiPredicate<String, GpuArch> wanted, PtxVisitor visitor)
            throws IOException, BinaryFormatException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            Path name = file.getFileName();
            ptxModules(file.toString(), name == null ? file.toString() : name.toString(),
                    ByteRegion.read(file.toString(), channel), wanted, visitor);
        }
    }

    /** Visits the PTX entries of a region (a file, a JAR entry's bytes) that {@code wanted} accepts. */
    public void ptxModules(String source, String label, ByteRegion region,
            java.util.function.BiPredicate<String, GpuArch> wanted, PtxVisitor visitor) throws BinaryFormatException {
        try {
            Blocks blocks = blocks(source, region);
            EntryDecompressor.FileBudget budget = new EntryDecompressor.FileBudget(maxFileBytes);
            for (int i = 0; i < blocks.tasks.size(); i++) {
                String member = blocks.members.get(i);
                String blockLabel = member == null ? label : label + "(" + member + ")";
                for (Task task : blocks.tasks.get(i)) {
                    if (task.entry() == null || !task.entry().header().isPtx()) {
                        continue;
                    }
                    FatbinEntry header = task.entry().header();
                    GpuArch target = entryArch(header, task.source());
                    if (!wanted.test(blockLabel, target)) {
                        continue;
                    }
                    ByteBuffer payload = decompressor.payload(task.entry(), task.source(), budget);
                    ByteBuffer copy = ByteBuffer.allocate(payload.remaining()).put(payload.duplicate()).flip();
                    int end = copy.limit();
                    while (end > 0 && copy.get(end - 1) == 0) {
                        end--;
                    }
                    copy.limit(end);
                    visitor.module(blockLabel, target, header.fileOffset(), copy);
                }
            }
        } catch (InternalError e) {
            throw changedWhileRead(source, -1, e);
        }
    }

    /** The images to decode per block (the file, or each archive member) and the members' names (null outside). */
    private record Blocks(BinaryKind kind, List<List<Task>> tasks, List<String> members) {
    }

    private Blocks blocks(String source, ByteRegion region) throws BinaryFormatException {
        List<List<Task>> blocks = new ArrayList<>();
        List<String> members = new ArrayList<>();
        BinaryKind kind = DeviceCodeDetector.kind(region);
        switch (kind) {
            case AR_ARCHIVE -> {
                for (ArArchive.Member member : ArArchive.members(region)) {
                    ByteRegion body = region.sub(member.offset(), member.size(), source + "(" + member.name() + ")");
                    List<Task> tasks = new ArrayList<>();
                    BinaryKind memberKind = DeviceCodeDetector.kind(body);
                    if (memberKind != BinaryKind.UNKNOWN && memberKind != BinaryKind.AR_ARCHIVE) {
                        collect(body, tasks, true);
                    }
                    members.add(member.name());
                    blocks.add(tasks);
                }
            }
            case FATBIN, HOST_ELF, CUBIN, PE_IMAGE -> {
                blocks.add(collect(region, new ArrayList<>(), false));
                members.add(null);
            }
            default -> throw new BinaryFormatException(source, region.fileOffset(0), DeviceCodeDetector.NOT_RECOGNISED);
        }
        return new Blocks(kind, blocks, members);
    }

    private DeviceCodeListing readRegion(String source, String label, ByteRegion region) throws BinaryFormatException {
        long walk = ReadProfile.start();
        long wall = ReadProfile.wallStart();
        Blocks found = blocks(source, region);
        ReadProfile.add(ReadProfile.Part.WALK, walk);
        ReadProfile.walk(wall);
        BinaryKind kind = found.kind();
        List<List<Task>> blocks = found.tasks();
        List<String> members = found.members();
        List<List<DeviceImage>> images = run(blocks, new EntryDecompressor.FileBudget(maxFileBytes));
        List<DeviceCodeListing.Block> result = new ArrayList<>(blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            String member = members.get(i);
            result.add(new DeviceCodeListing.Block(member, member == null ? label : label + "(" + member + ")",
                    images.get(i)));
        }
        ReadProfile.read(wall);
        java.util.Set<String> hosts = new java.util.TreeSet<>();
        blocks.forEach(tasks -> tasks.forEach(task -> {
            if (task.entry() != null) {
                hosts.add(task.entry().header().host());
            }
        }));
        return new DeviceCodeListing(source, label, kind, result, Platforms.of(kind, Platforms.cpu(region), hosts));
    }

    /** One image to decode: a fatbin entry, or a bare cubin when {@code entry} is null. */
    private record Task(String source, FatbinWalker.Entry entry, ElfFile cubin) {
    }

    /**
     * Finds the images of one file or member.
     *
     * @param lenient true inside archives: an ELF member without device code sections yields no images
     */
    private List<Task> collect(ByteRegion region, List<Task> tasks, boolean lenient) throws BinaryFormatException {
        String source = region.source();
        if (FatbinWalker.isFatbin(region)) {
            for (FatbinWalker.Entry entry : FatbinWalker.entries(region)) {
                tasks.add(new Task(source, entry, null));
            }
            return tasks;
        }
        if (PeFile.isPe(region)) {
            collectPe(PeFile.read(region), source, tasks);
            return tasks;
        }
        ElfFile elf = ElfFile.read(region);
        if (CubinReader.isCubin(elf)) {
            tasks.add(new Task(source, null, elf));
            return tasks;
        }
        List<ElfFile.Section> fatbins = DeviceCodeSections.of(elf).toRead();
        if (fatbins.isEmpty() && elf.sections().isEmpty()) {
            long magic = DeviceCodeDetector.fatbinMagicOffset(region);
            if (magic >= 0) {
                throw new BinaryFormatException(source, region.fileOffset(magic), "fatbin magic 0xBA55ED50 in an ELF "
                        + "file without a section header table (e_shoff 0): its device code cannot be found");
            }
        }
        if (fatbins.isEmpty() && !lenient) {
            throw new BinaryFormatException(source, -1, "no .nv_fatbin or __nv_relfatbin section: the file holds "
                    + "no CUDA device code");
        }
        for (ElfFile.Section section : fatbins) {
            if (section.type() == ElfFile.SHT_NOBITS) {
                throw new BinaryFormatException(source, elf.fileOffset(section), "section " + section.name()
                        + " has no bytes in the file (NOBITS)");
            }
            if (!region.contains(section.offset(), section.size())) {
                throw new BinaryFormatException(source, elf.fileOffset(section), "section " + section.name() + " ("
                        + Long.toUnsignedString(section.size()) + " bytes at 0x" + Long.toHexString(section.offset())
                        + ") reaches beyond the end of the " + region.size() + "-byte file (truncated?)");
            }
            ByteRegion contents = region.sub(section.offset(), section.size(), source);
            for (FatbinWalker.Entry entry : FatbinWalker.entries(contents)) {
                tasks.add(new Task(source, entry, null));
            }
        }
        return tasks;
    }

    /** A PE image: the entries of every {@code .nv_fatb} section in section order. */
    private static void collectPe(PeFile pe, String source, List<Task> tasks) throws BinaryFormatException {
        List<PeFile.Section> fatbins = pe.fatbinSections();
        if (fatbins.isEmpty()) {
            throw new BinaryFormatException(source, -1, "no " + PeFile.NV_FATBIN + " section: the PE image holds no "
                    + "CUDA device code");
        }
        for (PeFile.Section section : fatbins) {
            for (FatbinWalker.Entry entry : FatbinWalker.entries(pe.contents(section, source))) {
                tasks.add(new Task(source, entry, null));
            }
        }
    }

    private List<List<DeviceImage>> run(List<List<Task>> blocks, EntryDecompressor.FileBudget budget)
            throws BinaryFormatException {
        int total = blocks.stream().mapToInt(List::size).sum();
        List<List<DeviceImage>> results = new ArrayList<>(blocks.size());
        if (total <= 1 || pool == null) {
            try (EntryDecompressor.Scratch scratch = new EntryDecompressor.Scratch(keep)) {
                for (List<Task> tasks : blocks) {
                    List<DeviceImage> images = new ArrayList<>(tasks.size());
                    for (Task task : tasks) {
                        images.add(decode(task, budget, scratch));
                    }
                    results.add(images);
                }
                return results;
            }
        }
        // every task of this read counts down when it ends or is skipped: a failed read waits for all of them, so that
        // no decode outlives the read (and the mapping) that started it
        java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(total);
        java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        // one scratch per running decode, handed on to the next: at most one per thread, dropped with this read
        java.util.concurrent.ConcurrentLinkedQueue<EntryDecompressor.Scratch> scratches =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<List<Future<DeviceImage>>> futures = new ArrayList<>(blocks.size());
        int submitted = 0;
        try {
            for (List<Task> tasks : blocks) {
                List<Future<DeviceImage>> block = new ArrayList<>(tasks.size());
                for (Task task : tasks) {
                    block.add(pool.submit(() -> {
                        try {
                            if (failed.get()) {
                                return null;
                            }
                            EntryDecompressor.Scratch scratch = scratches.poll();
                            if (scratch == null) {
                                scratch = new EntryDecompressor.Scratch(keep);
                            }
                            try {
                                return decode(task, budget, scratch);
                            } finally {
                                scratches.offer(scratch);
                            }
                        } catch (BinaryFormatException | RuntimeException | Error e) {
                            failed.set(true);
                            throw e;
                        } finally {
                            ended.countDown();
                        }
                    }));
                    submitted++;
                }
                futures.add(block);
            }
            for (List<Future<DeviceImage>> block : futures) {
                List<DeviceImage> images = new ArrayList<>(block.size());
                for (Future<DeviceImage> future : block) {
                    images.add(future.get());
                }
                results.add(images);
            }
            return results;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof BinaryFormatException format) {
                throw format;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BinaryFormatException("(interrupted)", -1, "interrupted while reading device code");
        } finally {
            failed.set(true); // tasks not yet started are skipped
            for (int i = submitted; i < total; i++) {
                ended.countDown(); // never submitted (submit itself failed)
            }
            awaitUninterruptibly(ended);
            // every task has ended and handed its scratch back: free their Zstandard contexts
            scratches.forEach(EntryDecompressor.Scratch::close);
        }
    }

    private static void awaitUninterruptibly(java.util.concurrent.CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private DeviceImage decode(Task task, EntryDecompressor.FileBudget budget, EntryDecompressor.Scratch scratch)
            throws BinaryFormatException {
        long reserved = 0;
        boolean holding = false;
        long begin = ReadProfile.start();
        long wall = ReadProfile.wallStart();
        try {
            if (memory != null && task.entry != null) {
                reserved = memory.acquire(DecodeMemory.estimate(task.entry.header()));
                holding = true;
            }
            ReadProfile.add(ReadProfile.Part.WAIT, begin);
            return decodeMapped(task, budget, scratch);
        } catch (InternalError e) {
            throw changedWhileRead(task.source, task.entry == null ? -1 : task.entry.header().fileOffset(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BinaryFormatException(task.source, -1, "interrupted while reading device code");
        } finally {
            if (holding) {
                memory.release(reserved);
            }
            ReadProfile.add(ReadProfile.Part.TASK, begin);
            ReadProfile.task(wall, task.entry == null ? 0 : task.entry.header().uncompressedSize());
        }
    }

    private DeviceImage decodeMapped(Task task, EntryDecompressor.FileBudget budget, EntryDecompressor.Scratch scratch)
            throws BinaryFormatException {
        if (task.entry == null) {
            return new DeviceImage(null, CubinReader.arch(task.cubin), CubinReader.read(task.cubin), List.of());
        }
        FatbinEntry header = task.entry.header();
        GpuArch arch = entryArch(header, task.source);
        // on the heap, also when stored uncompressed: nothing below reads the file, which may change while it is read
        // the scratch's arrays: nothing below keeps the payload (names and figures are copied out of it)
        ByteBuffer payload = decompressor.payload(task.entry, task.source, budget, scratch);
        ReadProfile.entry(header.isPtx(), header.compression(), task.entry.storedSize(), payload.remaining());
        long parse = ReadProfile.start();
        if (header.isPtx()) {
            List<String> names = PtxEntryNames.scan(payload);
            ReadProfile.add(ReadProfile.Part.PTX, parse);
            return new DeviceImage(header, arch, null, names);
        }
        String cubinSource = task.source + " (" + header.archLabel() + " cubin of the fatbin entry at 0x"
                + Long.toHexString(header.fileOffset()) + (header.compression() == FatbinEntry.Compression.NONE ? ""
                        : ", offsets in the decompressed cubin") + ")";
        ByteRegion cubin = header.compression() == FatbinEntry.Compression.NONE
                ? ByteRegion.of(cubinSource, payload, header.fileOffset() + header.headerSize())
                : ByteRegion.of(cubinSource, payload, 0);
        if (!ElfFile.isElf(cubin)) {
            throw new BinaryFormatException(task.source, header.fileOffset() + header.headerSize(),
                    "the cubin of this fatbin entry (kind 2) does not start with the ELF magic");
        }
        ElfFile elf = ElfFile.read(cubin);
        CubinResources resources = CubinReader.read(elf);
        ReadProfile.add(ReadProfile.Part.CUBIN, parse);
        return new DeviceImage(header, arch, resources, List.of());
    }

    private static GpuArch entryArch(FatbinEntry header, String source) throws BinaryFormatException {
        boolean a = (header.flags() & FatbinEntry.FLAG_ARCH_SPECIFIC) != 0;
        boolean f = (header.flags() & FatbinEntry.FLAG_FAMILY) != 0;
        if (a && f) {
            throw new BinaryFormatException(source, header.fileOffset() + 0x28, "fatbin entry flags 0x"
                    + Long.toHexString(header.flags()) + " mark the entry both arch-specific (a) and family-specific (f)");
        }
        return CubinReader.archOf(header.arch(), a ? ArchVariant.ARCH_SPECIFIC : f ? ArchVariant.FAMILY
                : ArchVariant.BASE, source, header.fileOffset() + 0x1C);
    }
}
