package io.github.cudastackbudget.dev;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.CompatibilityRules;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.EntryDecompressor;
import io.github.cudastackbudget.core.engine.Ptxas;
import io.github.cudastackbudget.core.engine.PtxasOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The plugin's half of the JIT-frame validation (issue 13, {@code dev/gpu/jit-validate.sh}): the PTX entries of real
 * files that a device of capability CC could JIT-compile, taken out by the plugin's reader
 * ({@code DeviceCodeReader.ptxModules}) and compiled by the plugin's {@code Ptxas} for {@code sm_CC} (with the PTX's
 * {@code a} variant), on THREADS threads. Writes {@code OUTDIR/ptx/mN.ptx} (for the driver's half,
 * {@code jit-local-size}) and {@code OUTDIR/plugin-frames.tsv} ({@code module, name, frame, unknown}) plus
 * {@code OUTDIR/modules.tsv} ({@code module, file, label, target, bytes, millis}).
 *
 * <p>{@code JitFrameCompare CC THREADS MAX_MODULE_BYTES MAX_MODULES_PER_FILE BUDGET_SECONDS OUTDIR FILE...}
 */
public final class JitFrameCompare {

    private JitFrameCompare() {
    }

    private record Module(String id, String file, String label, String target, Path ptx, long bytes) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 7) {
            System.err.println("usage: JitFrameCompare CC THREADS MAX_MODULE_BYTES MAX_MODULES_PER_FILE BUDGET_SECONDS "
                    + "OUTDIR FILE...");
            System.exit(2);
        }
        ComputeCapability device = ComputeCapability.parse(args[0]);
        int threads = Integer.parseInt(args[1]);
        long maxBytes = Long.parseLong(args[2]);
        int maxPerFile = Integer.parseInt(args[3]);
        long deadline = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000_000L;
        Path out = Path.of(args[5]);
        Files.createDirectories(out.resolve("ptx"));
        Ptxas ptxas = Ptxas.of(Ptxas.locate(null, System.getenv()).orElseThrow(() -> new IOException("no ptxas")),
                Duration.ofSeconds(30));
        System.out.println("ptxas " + ptxas.version() + " at " + ptxas.executable());
        List<Module> modules = new ArrayList<>();
        DeviceCodeReader reader = new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        for (int f = 6; f < args.length; f++) {
            Path file = Path.of(args[f]);
            int[] taken = {0};
            try {
                reader.ptxModules(file, (label, target) -> taken[0] < maxPerFile
                        && CompatibilityRules.ptxCompilesFor(target, device),
                        (label, target, offset, text) -> {
                            if (taken[0] >= maxPerFile || text.remaining() > maxBytes) {
                                return;
                            }
                            taken[0]++;
                            String id = "m" + modules.size();
                            Path ptx = out.resolve("ptx").resolve(id + ".ptx");
                            write(ptx, text);
                            String sm = "sm_" + device.number() + (target.variant() == ArchVariant.BASE ? ""
                                    : target.variant().suffix());
                            modules.add(new Module(id, file.toString(), label, sm, ptx, text.remaining()));
                        });
            } catch (Exception e) {
                System.out.println("skipped " + file + ": " + e.getMessage());
            }
        }
        System.out.println(modules.size() + " PTX module(s), " + modules.stream().mapToLong(Module::bytes).sum()
                + " bytes");
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<String[]>> results = new ArrayList<>();
        for (Module module : modules) {
            results.add(pool.submit(() -> {
                if (System.nanoTime() > deadline) {
                    return null;
                }
                long start = System.nanoTime();
                Path cubin = module.ptx().resolveSibling(module.id() + ".cubin");
                Ptxas.Result result = ptxas.compile(module.ptx(), module.target(), cubin, Duration.ofSeconds(300));
                Files.deleteIfExists(cubin);
                long millis = (System.nanoTime() - start) / 1_000_000;
                StringBuilder frames = new StringBuilder();
                for (PtxasOutput.Function function : result.functions()) {
                    frames.append(module.id()).append('\t').append(function.name()).append('\t')
                            .append(function.frame()).append('\t').append(function.stackUnknown() ? 1 : 0).append('\n');
                }
                return new String[] {frames.toString(), module.id() + '\t' + module.file() + '\t' + module.label()
                        + '\t' + module.target() + '\t' + module.bytes() + '\t' + millis + '\t'
                        + (result.failure() == null ? "ok" : result.failure().replace('\t', ' ')) + '\n'};
            }));
        }
        try (PrintWriter frames = new PrintWriter(Files.newBufferedWriter(out.resolve("plugin-frames.tsv"),
                StandardCharsets.UTF_8)); PrintWriter list = new PrintWriter(Files.newBufferedWriter(
                        out.resolve("modules.tsv"), StandardCharsets.UTF_8))) {
            int compiled = 0;
            for (int i = 0; i < results.size(); i++) {
                String[] result = results.get(i).get();
                if (result == null) {
                    Files.deleteIfExists(modules.get(i).ptx()); // past the budget: not compared
                    continue;
                }
                compiled++;
                frames.print(result[0]);
                list.print(result[1]);
            }
            System.out.println(compiled + " module(s) compiled within the budget");
        }
        pool.shutdown();
    }

    private static void write(Path file, ByteBuffer text) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = text.duplicate();
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

}
