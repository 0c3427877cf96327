package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.ByteRegion;
import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.EntryDecompressor;
import io.github.cudastackbudget.core.binary.PtxEntryNames;
import io.github.cudastackbudget.core.budget.JitFrameLookup;
import io.github.cudastackbudget.core.cache.JitFrameCache;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.engine.Ptxas;
import io.github.cudastackbudget.core.engine.PtxasOutput;
import io.github.cudastackbudget.core.model.FrameOrigin;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.KernelRecord.FunctionKey;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import io.github.cudastackbudget.core.selection.ImageSelector;
import io.github.cudastackbudget.core.selection.KernelIndex;
import io.github.cudastackbudget.core.text.Option;
import io.github.cudastackbudget.core.text.Printable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Stage 3b: the frames of the functions a configured device would JIT-compile from PTX (no embedded SASS runs
 * there), computed at build time with ptxas ({@link JitOptions}).
 *
 * <ol>
 *   <li>for each device and function, the PTX image the driver would compile ({@link ImageSelector}, NVIDIA's rules
 *       in {@code core.arch.CompatibilityRules}), and the ptxas target: the device's {@code sm_XX}, with the PTX's
 *       {@code a}/{@code f} variant;</li>
 *   <li>the PTX entries of those targets are read again from the libraries (the native reader, one module in memory
 *       at a time); only the modules that declare a needed kernel ({@code .entry}) are kept;</li>
 *   <li>each (module, target) is looked up in the JIT frame cache (PTX bytes, target, ptxas version), else compiled
 *       by {@code ptxas -arch=sm_XX -v} on a pool of {@code threads}, with the timeout, one progress line each;</li>
 *   <li>a function's frame is the largest over the modules that declare it.</li>
 * </ol>
 *
 * With {@link JitOptions.Mode#OFF}, or without ptxas, nothing is compiled and one line says how to turn it on. A
 * module ptxas cannot compile is a warning; its functions stay "frame unknown".
 */
final class JitFrames implements JitFrameLookup {

    /** The frames: (library, PTX target, ptxas target) -> name -> record. */
    private final Map<Job, Map<String, KernelRecord>> frames;

    private JitFrames(Map<Job, Map<String, KernelRecord>> frames) {
        this.frames = frames;
    }

    static final JitFrames NONE = new JitFrames(Map.of());

    /** One library's PTX of one target, compiled for one ptxas target. */
    private record Job(String library, GpuArch ptx, String target) {
    }

    @Override
    public Optional<KernelRecord> frame(FunctionKey function, GpuArch ptx, ComputeCapability device) {
        Map<String, KernelRecord> byName = frames.get(new Job(function.library(), ptx, target(ptx, device)));
        return byName == null ? Optional.empty() : Optional.ofNullable(byName.get(function.name()));
    }

    /** The ptxas target for PTX {@code ptx} on a device: {@code sm_120}, {@code sm_90a}, {@code sm_120f}. */
    static String target(GpuArch ptx, ComputeCapability device) {
        return "sm_" + device.number() + ptx.variant().suffix();
    }

    /** How many functions have a computed frame (all jobs). */
    int count() {
        return frames.values().stream().mapToInt(Map::size).sum();
    }

    /**
     * What the devices would JIT-compile: per (library, PTX, target) the names (where {@code jobs} asks for them), the
     * functions, and the devices as the messages name them.
     */
    private record Needed(Map<Job, Set<String>> jobs, Set<FunctionKey> functions, Set<String> devices) {
    }

    private static Needed needed(CheckRequest request, KernelIndex index, boolean jobs) {
        Map<Job, Set<String>> needed = new TreeMap<>(Comparator.comparing(Job::library)
                .thenComparing(Job::ptx).thenComparing(Job::target));
        Set<String> devices = new LinkedHashSet<>();
        Set<FunctionKey> functions = new java.util.HashSet<>();
        for (DeviceTarget device : request.devices()) {
            ComputeCapability capability = device.device().capability();
            for (var entry : index.imagesByFunction().entrySet()) {
                FunctionChoice choice = ImageSelector.choose(entry.getKey(), entry.getValue(),
                        index.ptxTargets(entry.getKey()), capability);
                if (choice.outcome() == FunctionChoice.Outcome.JIT) {
                    if (jobs) {
                        needed.computeIfAbsent(new Job(entry.getKey().library(), choice.jitFrom(),
                                target(choice.jitFrom(), capability)), key -> new TreeSet<>())
                                .add(entry.getKey().name());
                    }
                    functions.add(entry.getKey());
                    devices.add(device.device().name() + " (" + capability.smName() + ")");
                }
            }
        }
        return new Needed(needed, functions, devices);
    }

    /**
     * With {@code jitFrames} off: the one line that says which functions the devices would JIT-compile (and how to have
     * their frames computed), or null when none would; what {@link #compute} logs in that mode, without logging it, so
     * that it can be found while the devices are judged (issue 11: 0.1 s of a cold check on one thread).
     */
    static String offHint(CheckRequest request, KernelIndex index) {
        Needed needed = needed(request, index, false);
        return needed.functions().isEmpty() ? null : hint(request, needed.functions().size(), needed.devices());
    }

    private static String hint(CheckRequest request, int functions, Set<String> devices) {
        return functions + " function(s) would be JIT-compiled from PTX on " + String.join(", ", devices)
                + ": their frames are unknown at build time; " + request.frontend().howToSet(Option.JIT_FRAMES, "ptxas")
                + " computes them with ptxas";
    }

    /**
     * Computes the frames the devices need.
     *
     * @param scans  every library read
     * @param index  their index
     * @param inputs where the JAR entries' bytes are
     */
    static JitFrames compute(CheckRequest request, Inputs inputs, List<LibraryScan> scans, KernelIndex index,
            CheckProgress listener, CheckWarnings warnings) {
        JitOptions options = request.jit();
        Needed jit = needed(request, index, true);
        Map<Job, Set<String>> needed = jit.jobs();
        if (needed.isEmpty()) {
            return NONE;
        }
        String hint = hint(request, jit.functions().size(), jit.devices());
        if (options.mode() == JitOptions.Mode.OFF) {
            listener.info(hint);
            return NONE;
        }
        Ptxas ptxas;
        try {
            Optional<Path> found = Ptxas.locate(options.ptxas(), options.environment());
            if (found.isEmpty()) {
                listener.warn("ptxas not found on the PATH, in $CUDA_HOME/bin, $CUDA_PATH/bin or /usr/local/cuda/bin: "
                        + "JIT frames are not computed; " + request.frontend().howToSet(Option.PTXAS, "/path/to/ptxas")
                        + " names it");
                listener.info(hint);
                return NONE;
            }
            ptxas = Ptxas.of(found.get(), options.timeout());
        } catch (Ptxas.Unavailable e) {
            listener.warn(e.getMessage() + ": JIT frames are not computed; " + request.frontend().howToSet(Option.PTXAS,
                    "/path/to/ptxas") + " names another");
            listener.info(hint);
            return NONE;
        }
        if (options.driverCudaVersion() != null && !sameRelease(options.driverCudaVersion(), ptxas.release())) {
            warnings.warn("JIT frames are computed by " + ptxas.description() + " (CUDA " + ptxas.release()
                    + "), but the target driver is declared as CUDA " + options.driverCudaVersion() + " ("
                    + request.frontend().name(Option.DRIVER_CUDA_VERSION) + "): that driver's JIT compiler may give "
                    + "other frames; " + request.frontend().howToSet(Option.PTXAS, "/path/to/cuda-"
                    + options.driverCudaVersion() + "/bin/ptxas") + " uses the matching ptxas");
        }
        try {
            return new Compilation(request, inputs, ptxas, listener, warnings).run(scans, needed);
        } catch (IOException e) {
            warnings.warn("JIT frames are not computed: " + Printable.of(String.valueOf(e.getMessage()), 300));
            return NONE;
        }
    }

    /** The major.minor of two versions are equal ({@code 13.0} and {@code 13.0.2}). */
    static boolean sameRelease(String declared, String release) {
        String[] a = declared.split("\\.");
        String[] b = release.split("\\.");
        return a[0].equals(b[0]) && (a.length < 2 ? "0" : a[1]).equals(b.length < 2 ? "0" : b[1]);
    }

    /** One check's compilation: modules found, served from the cache or compiled on the pool. */
    private static final class Compilation {
        private final CheckRequest request;
        private final Inputs inputs;
        private final Ptxas ptxas;
        private final CheckProgress listener;
        private final CheckWarnings warnings;
        private final JitFrameCache cache;
        private final Map<Job, Map<String, KernelRecord>> frames = new ConcurrentHashMap<>();

        Compilation(CheckRequest request, Inputs inputs, Ptxas ptxas, CheckProgress listener, CheckWarnings warnings) {
            this.request = request;
            this.inputs = inputs;
            this.ptxas = ptxas;
            this.listener = listener;
            this.warnings = warnings;
            this.cache = request.cacheDirectory() == null ? null : new JitFrameCache(request.cacheDirectory(),
                    listener::warn, "set another " + request.frontend().name(Option.CACHE_DIRECTORY) + " or "
                            + request.frontend().howToSet(Option.USE_CACHE, "false"));
        }

        /** One module to compile for one target. */
        private record Task(Job job, String label, long entryOffset, Path file, long bytes, Set<String> names,
                JitFrameCache.Key key) {
        }

        JitFrames run(List<LibraryScan> scans, Map<Job, Set<String>> needed) throws IOException {
            long start = System.nanoTime();
            Path work = Files.createTempDirectory("cuda-stack-budget-jit");
            try {
                List<Task> tasks = new ArrayList<>();
                int[] cached = {0};
                int[] modules = {0};
                DeviceCodeReader reader = new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
                for (LibraryScan scan : scans) {
                    Map<String, Map<GpuArch, List<Job>>> jobs = new HashMap<>();
                    needed.keySet().stream().filter(job -> scan.libraries().contains(job.library()))
                            .forEach(job -> jobs.computeIfAbsent(job.library(), k -> new HashMap<>())
                                    .computeIfAbsent(job.ptx(), k -> new ArrayList<>()).add(job));
                    if (jobs.isEmpty()) {
                        continue;
                    }
                    DeviceCodeReader.PtxVisitor visitor = (label, target, offset, text) -> {
                        List<Job> forModule = jobs.getOrDefault(label, Map.of()).getOrDefault(target, List.of());
                        Set<String> declared = new TreeSet<>(PtxEntryNames.scan(text.duplicate()));
                        Path file = null;
                        for (Job job : forModule) {
                            Set<String> names = new TreeSet<>(declared);
                            names.retainAll(needed.get(job));
                            if (names.isEmpty()) {
                                continue;
                            }
                            JitFrameCache.Key key = JitFrameCache.Key.of(text, job.target(), ptxas.version());
                            Optional<List<JitFrameCache.Frame>> hit = cache == null ? Optional.empty() : cache.load(key);
                            if (hit.isPresent()) {
                                record(job, hit.get(), names);
                                cached[0]++;
                                continue;
                            }
                            if (file == null) {
                                file = work.resolve("module-" + (modules[0]++) + ".ptx");
                                write(file, text);
                            }
                            tasks.add(new Task(job, label, offset, file, text.remaining(), names, key));
                        }
                    };
                    try {
                        if (scan.jarEntry() == null) {
                            reader.ptxModules(scan.path(), (label, target) -> jobs.containsKey(label)
                                    && jobs.get(label).containsKey(target), visitor);
                        } else {
                            JarEntryLibrary entry = inputs.jarEntries().stream()
                                    .filter(e -> e.label().equals(scan.jarEntry().label())).findFirst().orElse(null);
                            if (entry == null) {
                                warnings.warn("JIT frames of " + scan.displayName() + " are not computed: its JAR "
                                        + "entry is no longer among the inputs");
                                continue;
                            }
                            String label = entry.label();
                            reader.ptxModules(label, label, ByteRegion.of(label, entry.read()), (l, target) ->
                                    jobs.containsKey(l) && jobs.get(l).containsKey(target), visitor);
                        }
                    } catch (BinaryFormatException | IOException | UncheckedIOException e) {
                        warnings.warn("JIT frames of " + scan.displayName() + " are not computed: its PTX cannot be "
                                + "read (" + Printable.of(String.valueOf(e.getMessage()), 300) + ")");
                    }
                }
                compileAll(tasks, cached[0]);
                long seconds = (System.nanoTime() - start) / 1_000_000_000L;
                int computed = frames.values().stream().mapToInt(Map::size).sum();
                listener.info("JIT frames: " + computed + " function frame(s) from " + (tasks.size() + cached[0])
                        + " PTX compilation(s) with " + ptxas.description() + " (" + cached[0] + " from the cache) in "
                        + seconds + " s");
                return new JitFrames(Map.copyOf(frames));
            } finally {
                deleteTree(work);
            }
        }

        private void compileAll(List<Task> tasks, int cached) throws IOException {
            if (tasks.isEmpty()) {
                return;
            }
            int threads = Math.min(request.jit().threads(), tasks.size());
            long bytes = tasks.stream().mapToLong(Task::bytes).sum();
            SortedSet<String> targets = tasks.stream().map(task -> task.job().target())
                    .collect(Collectors.toCollection(TreeSet::new));
            listener.info("JIT frames: compiling " + tasks.size() + " PTX module(s) (" + (bytes + 1023) / 1024
                    + " KiB) for " + String.join(", ", targets) + " with " + ptxas.description() + " on " + threads
                    + " thread(s)" + (cached > 0 ? ", " + cached + " served from the cache" : "") + ", timeout "
                    + request.jit().timeout().toSeconds() + " s each");
            ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
                Thread thread = new Thread(runnable, "cuda-stack-budget-ptxas");
                thread.setDaemon(true);
                return thread;
            });
            AtomicInteger done = new AtomicInteger();
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (Task task : tasks) {
                    futures.add(pool.submit(() -> compile(task, done, tasks.size())));
                }
                for (Future<?> future : futures) {
                    try {
                        future.get();
                    } catch (ExecutionException e) {
                        throw new IOException("ptxas run failed: " + e.getCause(), e.getCause());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while ptxas compiled the JIT frames", e);
            } finally {
                pool.shutdownNow();
            }
        }

        private void compile(Task task, AtomicInteger done, int total) {
            long start = System.nanoTime();
            Path output = task.file().resolveSibling(task.file().getFileName() + "." + task.job().target() + ".cubin");
            Ptxas.Result result = ptxas.compile(task.file(), task.job().target(), output, request.jit().timeout());
            try {
                Files.deleteIfExists(output);
            } catch (IOException e) {
                // in the work directory, deleted at the end
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            String module = task.label() + " " + task.job().ptx().ptxLabel() + " module at 0x"
                    + Long.toHexString(task.entryOffset());
            if (result.failure() != null) {
                listener.info("  [" + done.incrementAndGet() + "/" + total + "] " + module + " -> "
                        + task.job().target() + ": failed, " + millis + " ms");
                warnings.warn("JIT frames of " + module + " for " + task.job().target() + " are not computed: "
                        + result.failure());
                return;
            }
            List<JitFrameCache.Frame> frames = result.functions().stream().map(f -> new JitFrameCache.Frame(f.name(),
                    f.frame(), f.stackUnknown(), f.registers())).toList();
            if (cache != null) {
                cache.store(task.key(), frames);
            }
            record(task.job(), frames, task.names());
            listener.info("  [" + done.incrementAndGet() + "/" + total + "] " + module + " -> " + task.job().target()
                    + ": " + result.functions().size() + " kernel(s), largest frame "
                    + result.functions().stream().mapToLong(PtxasOutput.Function::frame).max().orElse(0) + " B, "
                    + millis + " ms");
        }

        /** Keeps the frames of the needed names; a name declared by several modules keeps its largest frame. */
        private void record(Job job, List<JitFrameCache.Frame> compiled, Set<String> names) {
            GpuArch arch = new GpuArch(GpuArch.parse(job.target()).capability(), job.ptx().variant());
            FrameOrigin origin = FrameOrigin.jitPtxas(job.ptx(), ptxas.version());
            Map<String, KernelRecord> byName = frames.computeIfAbsent(job, key -> new ConcurrentHashMap<>());
            for (JitFrameCache.Frame frame : compiled) {
                if (!names.contains(frame.name())) {
                    continue;
                }
                KernelRecord record = new KernelRecord(job.library(), arch, frame.name(), Math.max(0,
                        frame.registers()), frame.frame(), frame.stackUnknown(), 0, 0, origin);
                byName.merge(frame.name(), record, (a, b) -> a.stackForRanking() >= b.stackForRanking() ? a : b);
            }
        }

        private static void write(Path file, ByteBuffer text) {
            try (WritableByteChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ByteBuffer bytes = text.duplicate();
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static void deleteTree(Path directory) {
            try (var paths = Files.walk(directory)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                    try {
                        Files.deleteIfExists(path);
                    } catch (IOException e) {
                        // a temporary file left behind
                    }
                });
            } catch (IOException e) {
                // a temporary directory left behind
            }
        }
    }

    private static final class UncheckedIOException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UncheckedIOException(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
