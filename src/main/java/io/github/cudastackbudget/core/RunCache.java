package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.cache.AtomicFiles;
import io.github.cudastackbudget.core.cache.ContentHash;
import io.github.cudastackbudget.core.cache.KernelCache;
import io.github.cudastackbudget.core.check.CheckRequest;
import io.github.cudastackbudget.core.check.StackBudgetCheck;
import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.report.ReportFormat;
import io.github.cudastackbudget.core.text.Printable;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The check-result cache (issue 11): a re-check whose inputs are all unchanged writes the earlier check's reports
 * again instead of reading, judging and rendering. It lives in the kernel cache's directory, under
 * {@value #SUBDIRECTORY}, and is on and off with it ({@code useCache}).
 *
 * <p>The key is the SHA-256 of a text that names everything the reports and the log lines depend on: the plugin's
 * version and the native reader's, the front end, every option (devices as resolved, budgets, formats, paths, output
 * directory), what the first stage finds (every file probed, each input's probe and owner, the JAR entries), the size
 * and {@link ContentHash} of every input file with device code and of every JAR searched, the contents of the
 * suppressions and baseline files, the demangling tools' bytes, and the date where suppressions or rules are
 * configured (expiry). A changed byte of any of them is another key, so an entry is never served for changed bytes.
 * Only checks that depend on nothing else are stored: the native reader alone (no cuobjdump, whose output depends on
 * the tool), no launched mode, no JIT frames (ptxas).
 *
 * <p>An entry holds the report files' bytes, the warnings of the run, the front end's lines (the text report, the
 * violations, the summary), the step summary's Markdown and what the front ends judge by (no kernels, a growth over
 * the baseline). It is written atomically (a temporary file moved over its name), so builds and {@code -T} modules
 * that share the directory see a whole entry or none; it ends with a CRC-32C of its bytes and repeats the key's text,
 * so a corrupt or foreign entry is ignored with a warning and rewritten by that run.
 */
final class RunCache {

    /** The folder under the kernel cache's directory. */
    static final String SUBDIRECTORY = "results";

    /** The entries' file name suffix. */
    static final String SUFFIX = ".run";

    /** The entry format; part of the key, so an entry of another format is never looked up. */
    private static final String FORMAT = "cuda-stack-budget check result 2";

    private static final byte[] MAGIC = (FORMAT + "\n").getBytes(StandardCharsets.US_ASCII);

    /** Entries larger than this are not stored (a check of many large libraries; its reports are rewritten). */
    static final long MAX_ENTRY_BYTES = 1L << 30;

    /**
     * A stored check.
     *
     * @param noKernels        the check found no SASS record
     * @param grewOverBaseline a baseline check failed
     * @param warnings         the warnings the run logged, in order
     * @param reportLines      the front end's text report
     * @param violations       one line per exceeded budget
     * @param summary          the closing summary
     * @param stepSummary      the Markdown appended to {@code $GITHUB_STEP_SUMMARY}, or null
     * @param reports          the report files, in the order written
     */
    record Entry(boolean noKernels, boolean grewOverBaseline, List<String> warnings, List<String> reportLines,
            List<String> violations, List<String> summary, String stepSummary, List<Report> reports) {
        Entry {
            warnings = List.copyOf(warnings);
            reportLines = List.copyOf(reportLines);
            violations = List.copyOf(violations);
            summary = List.copyOf(summary);
            reports = List.copyOf(reports);
        }
    }

    /**
     * One report file: its format, bytes (a view into the entry's bytes) and their {@link ContentHash}, by which a
     * re-check knows that the file in the output directory holds them already.
     */
    record Report(ReportFormat format, ByteBuffer bytes, String hash) {
        /** A report whose hash is computed now. */
        Report(ReportFormat format, ByteBuffer bytes) {
            this(format, bytes, ContentHash.of(bytes, Math.max(1, Runtime.getRuntime().availableProcessors())));
        }
    }

    /**
     * The key of one check.
     *
     * @param text   what it names (stored in the entry and compared on read)
     * @param files      input files
     * @param bytes      the bytes read to hash them
     * @param remembered the bytes of those whose hash was remembered ({@link io.github.cudastackbudget.core.cache.HashMemo}:
     *                   unchanged since hashed)
     * @param millis     time to compute it
     */
    record Key(String text, int files, long bytes, long remembered, long millis) {
        String fileName() {
            return HexFormat.of().formatHex(ContentHash.sha256().digest(text.getBytes(StandardCharsets.UTF_8)))
                    + SUFFIX;
        }
    }

    private final Path directory;
    /** The hashes of unchanged inputs (under the same cache directory). */
    private final io.github.cudastackbudget.core.cache.HashMemo hashes;
    private final CheckListener listener;

    private RunCache(Path cacheDirectory, CheckListener listener) {
        this.directory = cacheDirectory.resolve(SUBDIRECTORY);
        this.hashes = new io.github.cudastackbudget.core.cache.HashMemo(cacheDirectory);
        this.listener = listener;
    }

    /**
     * The cache for this check, or null where a result must not be reused: the cache is off, or the result depends on
     * an external tool or a recorded run (cuobjdump, launched mode, JIT frames).
     */
    static RunCache of(CheckOptions options, CheckListener listener) {
        Path cache = options.effectiveCacheDirectory();
        if (cache == null || options.launchLog() != null
                || !("native".equals(options.engine()) || "auto".equals(options.engine()))
                || !(options.jitFrames() == null || options.jitFrames().isBlank()
                        || "off".equals(options.jitFrames().strip().toLowerCase(Locale.ROOT)))) {
            return null;
        }
        return new RunCache(cache, listener);
    }

    Path directory() {
        return directory;
    }

    /**
     * The key of the check: the options and the resolved request, then what the first stage finds, hashed; null when
     * the inputs hold no device code (the check is then cheaper than a lookup).
     */
    Key key(CheckOptions options, CheckRequest request, Set<ReportFormat> formats, boolean stepSummary)
            throws CheckException, IOException {
        long start = System.nanoTime();
        StackBudgetCheck.InputFingerprint inputs;
        try {
            inputs = StackBudgetCheck.fingerprint(request);
        } catch (io.github.cudastackbudget.core.check.CheckProblem e) {
            throw new CheckException(e.getMessage(), e.getCause() != null ? e.getCause() : e);
        }
        if (inputs.empty()) {
            return null; // nothing to read, nothing a stored result would save (a project without CUDA code)
        }
        StringBuilder text = new StringBuilder(FORMAT + "\n");
        text.append("plugin=").append(KernelCache.pluginVersion()).append('\n');
        text.append("reader=").append(NativeEngine.READER_VERSION).append('\n');
        text.append("frontend=").append(options.frontend().getClass().getName()).append('\n');
        text.append("engine=").append(options.engine()).append("\nparallelism=").append(request.parallelism())
                .append('\n');
        text.append("usedBy=").append(options.usedBy()).append('\n');
        text.append("devices=");
        describe(text, request.devices());
        text.append("\norigin=");
        describe(text, request.deviceOrigin());
        text.append('\n');
        text.append("maxReservation=");
        describe(text, request.defaultMaxReservation());
        text.append("\nmaxStack=")
                .append(request.maxStackPerThread()).append('\n');
        text.append("failOnUnreadable=").append(request.failOnUnreadable()).append("\nplatforms=");
        describe(text, request.platforms());
        text.append('\n');
        text.append("output=").append(options.outputDirectory().toAbsolutePath().normalize()).append('\t');
        describe(text, options.output());
        text.append("\nformats=").append(formats).append("\ntop=").append(options.top())
                .append("\nverbose=").append(options.verbose()).append("\nstepSummary=").append(stepSummary)
                .append('\n');
        text.append("fileSets=");
        describe(text, options.fileSets());
        text.append("\nfiles=").append(options.libraryFiles()).append("\njarScan=");
        describe(text, options.jarScan());
        text.append('\n');
        text.append("gate=").append(options.gate().suppressions()).append('\t')
                .append(options.gate().failOnUnusedSuppressions()).append('\t');
        describe(text, options.gate().rules());
        text.append('\n');
        if (options.gate().suppressions() != null || !options.gate().rules().isEmpty()) {
            // suppressions expire and rules may name dates: the day decides
            text.append("date=").append(LocalDate.now(options.gate().clock())).append('\n');
        }
        text.append("baseline=");
        describe(text, options.baseline());
        text.append('\n');
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        for (Path file : new Path[] {options.gate().suppressions(), options.baseline().baseline()}) {
            if (file != null) {
                text.append("read=").append(file).append('\t').append(contentOf(file, threads)).append('\n');
            }
        }
        for (Path tool : request.demangler().tools()) {
            // remembered like the inputs: a hit reads none of the demanglers' bytes while they are unchanged
            text.append("demangler=").append(tool).append('\t').append(contentOf(tool, 1)).append('\n');
        }
        text.append(inputs.text());
        long bytes = 0;
        long remembered = 0;
        for (Path file : inputs.files()) {
            long size = Files.size(file);
            io.github.cudastackbudget.core.cache.HashMemo.Hash hash = hashes.of(file, threads);
            if (hash.remembered()) {
                remembered += size;
            } else {
                bytes += size;
            }
            text.append("content=").append(file.toAbsolutePath().normalize()).append('\t').append(size).append('\t')
                    .append(hash.value()).append('\n');
        }
        return new Key(text.toString(), inputs.files().size(), bytes, remembered,
                (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * A value for the key's text: a record as its type's name and every component by name (in declaration order,
     * recursively), a collection or map element by element, anything else as {@code String.valueOf}. Complete as a
     * record's own {@code toString} (every component, a component added later included), without it (issue 11: the
     * generated {@code toString} of the resolved devices links its method handles afresh in every build, about 2 ms
     * of a cached re-check's 23 ms).
     */
    static void describe(StringBuilder text, Object value) {
        if (value instanceof Record record) {
            text.append(record.getClass().getName()).append('[');
            java.lang.reflect.RecordComponent[] components = record.getClass().getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                text.append(i == 0 ? "" : ", ").append(components[i].getName()).append('=');
                java.lang.reflect.Method accessor = components[i].getAccessor();
                try {
                    accessor.setAccessible(true);
                    describe(text, accessor.invoke(record));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // cannot happen for a record's own accessor; the record's own text then, never a silent gap
                    text.append(record);
                }
            }
            text.append(']');
        } else if (value instanceof java.util.Collection<?> values) {
            text.append('[');
            boolean first = true;
            for (Object element : values) {
                text.append(first ? "" : ", ");
                describe(text, element);
                first = false;
            }
            text.append(']');
        } else if (value instanceof java.util.Map<?, ?> map) {
            text.append('{');
            boolean first = true;
            for (java.util.Map.Entry<?, ?> entry : map.entrySet()) {
                text.append(first ? "" : ", ");
                describe(text, entry.getKey());
                text.append('=');
                describe(text, entry.getValue());
                first = false;
            }
            text.append('}');
        } else {
            text.append(value);
        }
    }

    private String contentOf(Path file, int threads) throws IOException {
        try {
            return Files.size(file) + " " + hashes.of(file, threads).value();
        } catch (NoSuchFileException e) {
            return "absent";
        }
    }

    /**
     * Whether {@code file} holds the report's bytes already: a regular file (not a link) of their size whose hash is
     * remembered as theirs ({@link io.github.cudastackbudget.core.cache.HashMemo}: unchanged since, a look at the
     * file's status), else whose bytes, read and compared, are theirs (then remembered where that is safe: reading and
     * comparing costs about what writing does, so only the first re-check after a write pays it). Any doubt is a no:
     * the file is written.
     */
    boolean holds(Path file, Report report) {
        try {
            java.nio.file.attribute.BasicFileAttributes attributes = Files.readAttributes(file,
                    java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            ByteBuffer expected = report.bytes().duplicate();
            if (!attributes.isRegularFile() || attributes.size() != expected.remaining()) {
                return false;
            }
            io.github.cudastackbudget.core.cache.HashMemo.Snapshot before = hashes.snapshot(file);
            String remembered = hashes.remembered(before);
            if (remembered != null) {
                return remembered.equals(report.hash());
            }
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                    java.nio.file.StandardOpenOption.READ)) {
                ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(1 << 20, Math.max(1, expected.remaining())));
                long position = 0;
                while (expected.hasRemaining()) {
                    chunk.clear().limit(Math.min(chunk.capacity(), expected.remaining()));
                    while (chunk.hasRemaining()) {
                        if (channel.read(chunk, position + chunk.position()) < 0) {
                            return false;
                        }
                    }
                    chunk.flip();
                    ByteBuffer part = expected.slice(expected.position(), chunk.remaining());
                    if (!part.equals(chunk)) {
                        return false;
                    }
                    position += chunk.remaining();
                    expected.position(expected.position() + chunk.remaining());
                }
                if (channel.size() != position) {
                    return false;
                }
            }
            hashes.remember(before, report.hash());
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The entry of this key; empty when there is none, or (with a warning) when it is unreadable or corrupt.
     *
     * <p>The entry is mapped, not read onto the heap (issue 11: reading a 20 MB entry and copying its reports out
     * again were most of a re-check): its checksum is computed over the mapping and its reports are slices of it,
     * written to the output directory straight from the page cache. Entries are only ever replaced by a move (a new
     * file), never rewritten in place, so a mapping stays whole; a file cut short under it by something else is an
     * {@link InternalError} of the access, taken as a corrupt entry. On Windows, where a mapped file cannot be
     * replaced until the mapping is collected (and a corrupt entry is rewritten at once), the entry is read instead.
     */
    java.util.Optional<Entry> load(Key key) {
        Path file = directory.resolve(key.fileName());
        ByteBuffer bytes;
        try {
            if (!Files.isRegularFile(file)) {
                return java.util.Optional.empty();
            }
            bytes = MAP ? map(file) : ByteBuffer.wrap(Files.readAllBytes(file));
        } catch (IOException | OutOfMemoryError e) {
            warnCorrupt(file, e.getClass().getSimpleName() + ": " + e.getMessage());
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(decode(bytes, key.text()));
        } catch (IOException | RuntimeException e) {
            warnCorrupt(file, e.getMessage());
            return java.util.Optional.empty();
        } catch (InternalError e) {
            warnCorrupt(file, "it changed while it was read");
            return java.util.Optional.empty();
        }
    }

    /** Whether entries are mapped (everywhere but Windows, see {@link #load}). */
    private static final boolean MAP = !System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
            .startsWith("windows");

    private static ByteBuffer map(Path file) throws IOException {
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ)) {
            long size = channel.size();
            if (size > MAX_ENTRY_BYTES + (64L << 20)) {
                throw new IOException("it is " + size + " bytes, more than an entry may hold");
            }
            try {
                // the mapping outlives the channel
                return channel.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, size);
            } catch (IOException | UnsupportedOperationException e) {
                // a file system that cannot map files (some network and FUSE mounts): the entry is read instead, so
                // that the cache still serves there (a file cut short meanwhile fails the checksum)
                return readWhole(channel, size);
            }
        }
    }

    /** The file's first {@code size} bytes, or fewer where it ends before, on the heap. */
    static ByteBuffer readWhole(java.nio.channels.FileChannel channel, long size) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate((int) size);
        while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) >= 0) {
            // until full or at the end
        }
        return bytes.flip();
    }

    private void warnCorrupt(Path file, String why) {
        listener.warn("Check-result cache entry " + file + " is unreadable or corrupt (" + Printable.of(String.valueOf(
                why), 200) + "): ignored; this check runs in full and rewrites it");
    }

    /** Stores the entry; a directory that cannot be written is one warning, and the check goes on. */
    void store(Key key, Entry entry) {
        byte[] bytes;
        try {
            bytes = encode(entry, key.text());
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        if (bytes == null) {
            return;
        }
        String failure = AtomicFiles.write(directory, key.fileName(), bytes);
        if (failure != null) {
            listener.warn("Check-result cache " + directory + " cannot be written (" + failure
                    + "): results are not stored");
        }
    }

    static byte[] encode(Entry entry, String keyText) throws IOException {
        long total = 0;
        for (Report report : entry.reports()) {
            total += report.bytes().remaining();
        }
        if (total > MAX_ENTRY_BYTES) {
            return null;
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream((int) total + 65536);
        DataOutputStream out = new DataOutputStream(buffer);
        out.write(MAGIC);
        string(out, keyText);
        out.writeBoolean(entry.noKernels());
        out.writeBoolean(entry.grewOverBaseline());
        for (List<String> lines : List.of(entry.warnings(), entry.reportLines(), entry.violations(), entry.summary())) {
            out.writeInt(lines.size());
            for (String line : lines) {
                string(out, line);
            }
        }
        out.writeBoolean(entry.stepSummary() != null);
        if (entry.stepSummary() != null) {
            string(out, entry.stepSummary());
        }
        out.writeInt(entry.reports().size());
        for (Report report : entry.reports()) {
            string(out, report.format().name());
            string(out, report.hash());
            ByteBuffer bytes = report.bytes().duplicate();
            out.writeInt(bytes.remaining());
            if (bytes.hasArray()) {
                out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            } else {
                byte[] copy = new byte[bytes.remaining()];
                bytes.get(copy);
                out.write(copy);
            }
        }
        out.flush();
        CRC32C crc = new CRC32C();
        byte[] body = buffer.toByteArray();
        crc.update(body, 0, body.length);
        byte[] result = java.util.Arrays.copyOf(body, body.length + Long.BYTES);
        ByteBuffer.wrap(result, body.length, Long.BYTES).putLong(crc.getValue());
        return result;
    }

    static Entry decode(ByteBuffer entry, String keyText) throws IOException {
        ByteBuffer bytes = entry.slice().order(java.nio.ByteOrder.BIG_ENDIAN); // indexes from its position
        int size = bytes.remaining();
        if (size < MAGIC.length + Long.BYTES || !bytes.slice(0, MAGIC.length).equals(ByteBuffer.wrap(MAGIC))) {
            throw new IOException("not a check-result entry of this plugin version");
        }
        int body = size - Long.BYTES;
        CRC32C crc = new CRC32C();
        crc.update(bytes.slice(0, body));
        if (crc.getValue() != bytes.getLong(body)) {
            throw new IOException("its checksum does not match its bytes");
        }
        Reader in = new Reader(bytes.slice(0, body), MAGIC.length);
        if (!keyText.equals(in.string())) {
            throw new IOException("it was stored for another check");
        }
        boolean noKernels = in.bool();
        boolean grew = in.bool();
        List<List<String>> lists = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int count = in.count();
            List<String> lines = new ArrayList<>(Math.min(count, 1 << 16));
            for (int j = 0; j < count; j++) {
                lines.add(in.string());
            }
            lists.add(lines);
        }
        String stepSummary = in.bool() ? in.string() : null;
        int count = in.count();
        List<Report> reports = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ReportFormat format;
            try {
                format = ReportFormat.valueOf(in.string());
            } catch (IllegalArgumentException e) {
                throw new IOException("it names an unknown report format");
            }
            String hash = in.string();
            int length = in.count();
            reports.add(new Report(format, in.slice(length), hash));
        }
        if (in.position() != body) {
            throw new IOException("it has " + (body - in.position()) + " bytes after its last report");
        }
        return new Entry(noKernels, grew, lists.get(0), lists.get(1), lists.get(2), lists.get(3), stepSummary,
                reports);
    }

    private static void string(DataOutputStream out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /** Bounds-checked reads over the entry's bytes (its body: all but the checksum). */
    private static final class Reader {
        private final ByteBuffer bytes;

        Reader(ByteBuffer body, int start) {
            this.bytes = body;
            bytes.position(start);
        }

        int position() {
            return bytes.position();
        }

        boolean bool() throws IOException {
            need(1);
            return bytes.get() != 0;
        }

        int count() throws IOException {
            need(Integer.BYTES);
            int value = bytes.getInt();
            if (value < 0 || value > bytes.remaining()) {
                throw new IOException("a length of " + value + " past its end");
            }
            return value;
        }

        String string() throws IOException {
            byte[] value = new byte[count()];
            bytes.get(value);
            return new String(value, StandardCharsets.UTF_8);
        }

        ByteBuffer slice(int length) {
            ByteBuffer slice = bytes.slice(bytes.position(), length);
            bytes.position(bytes.position() + length);
            return slice;
        }

        private void need(int count) throws IOException {
            if (bytes.remaining() < count) {
                throw new EOFException("it ends early");
            }
        }
    }
}
