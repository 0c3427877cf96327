package io.github.cudastackbudget.core.demangle;

import io.github.cudastackbudget.core.exec.Executables;
import io.github.cudastackbudget.core.exec.ToolRun;
import io.github.cudastackbudget.core.text.Printable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Demangles kernel names in batches with the tools found on the PATH, in the origin tool's order: {@code llvm-cxxfilt}
 * (GNU c++filt gives up on very long names), then {@code c++filt}, then {@code cu++filt}; a name no tool changes keeps
 * its mangled form. Demangled names are optional data: a tool that cannot be run, fails, hangs past the timeout,
 * prints an error or the wrong number of lines is reported in one warning line and the names stay mangled (or go to the
 * next tool); its output is never kept beyond one line per name. Alpaka kernels ({@code alpaka::detail::gpuKernel<INNER, ...>}) are shortened to {@code INNER}.
 */
public final class Demangler {

    private static final List<String> TOOLS = List.of("llvm-cxxfilt", "c++filt", "cu++filt");

    private final List<Path> tools;
    private final Duration timeout;

    public Demangler(List<Path> tools, Duration timeout) {
        this.tools = List.copyOf(tools);
        this.timeout = timeout;
    }

    /** A demangler over the tools found on {@code PATH} (and the CUDA toolkit's bin for cu++filt). */
    public static Demangler fromEnvironment(Map<String, String> environment) {
        return fromEnvironment(environment, DEFAULT_TIMEOUT);
    }

    /** The same, each tool run stopped after {@code timeout} (the check's configured tool timeout). */
    public static Demangler fromEnvironment(Map<String, String> environment, Duration timeout) {
        List<Path> found = new ArrayList<>();
        for (String tool : TOOLS) {
            Executables.find(tool, environment, Executables.cudaDirectories(environment)).ifPresent(found::add);
        }
        return new Demangler(found, timeout);
    }

    /** The limit of one tool run where no timeout is configured. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    /** A demangled name longer than this (characters) is not kept: the mangled name stays. */
    static final int MAX_NAME = 64 * 1024;

    public List<Path> tools() {
        return tools;
    }

    /**
     * Readable names for mangled ones.
     *
     * @return mangled -> display name (demangled, Alpaka-shortened), for every input name
     */
    public Map<String, String> displayNames(Collection<String> mangledNames) {
        return displayNames(mangledNames, warning -> { });
    }

    /**
     * Readable names for mangled ones, each tool that could not demangle reported to {@code warnings} in one line.
     *
     * @return mangled -> display name (demangled, Alpaka-shortened), for every input name
     */
    public Map<String, String> displayNames(Collection<String> mangledNames, Consumer<String> warnings) {
        List<String> names = sortedDistinct(mangledNames);
        Map<String, String> demangled = new LinkedHashMap<>();
        List<String> pending = names.stream().filter(name -> name.startsWith("_Z")).toList();
        for (Path tool : tools) {
            if (pending.isEmpty()) {
                break;
            }
            List<String> output = run(tool, pending, warnings);
            boolean[] usable = usable(output, pending);
            List<String> stillMangled = new ArrayList<>();
            for (int i = 0; i < pending.size(); i++) {
                if (usable[i]) {
                    demangled.put(pending.get(i), output.get(i));
                } else {
                    stillMangled.add(pending.get(i));
                }
            }
            pending = stillMangled;
        }
        Map<String, String> display = new LinkedHashMap<>();
        for (String name : names) {
            display.put(name, shortenAlpaka(demangled.getOrDefault(name, name)));
        }
        return display;
    }

    /**
     * The names in their natural order, each once: sorted on every core where there are many (issue 11: a sorted set
     * of libtorch_cuda.so's 60,000 names compared their long shared prefixes on one thread, while the check waited
     * for the names), the same order a {@link TreeSet} gives.
     */
    static List<String> sortedDistinct(Collection<String> names) {
        String[] sorted = names.toArray(new String[0]);
        java.util.Arrays.parallelSort(sorted);
        List<String> distinct = new ArrayList<>(sorted.length);
        for (String name : sorted) {
            if (distinct.isEmpty() || !distinct.get(distinct.size() - 1).equals(name)) {
                distinct.add(name);
            }
        }
        return distinct;
    }

    /**
     * Per name, whether the tool's line for it is a demangled name to show: not blank, not the name itself, at most
     * {@link #MAX_NAME} characters, no control character ({@link Character#isISOControl}). One call over all lines
     * (issue 11: a call per name ran its character loop before the JIT compiled it, 96 ms of a cold check of 7,728
     * names; a stream per name had cost 3% before that).
     */
    private static boolean[] usable(List<String> output, List<String> names) {
        boolean[] usable = new boolean[names.size()];
        if (output == null) {
            return usable;
        }
        lines:
        for (int i = 0; i < usable.length; i++) {
            String line = output.get(i);
            if (line == null || line.isBlank() || line.length() > MAX_NAME || line.equals(names.get(i))) {
                continue;
            }
            // as ISO-8859-1 bytes: every ISO control is a char up to 0x9F and keeps its value, every char above 0xFF
            // becomes '?' (a Latin-1 string's bytes are copied whole; a loop over bytes runs several times faster
            // than one over charAt before the JIT compiles it)
            byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
            for (byte b : bytes) {
                int ch = b & 0xFF;
                if (ch < 0x20 || ch >= 0x7F && ch <= 0x9F) {
                    continue lines;
                }
            }
            usable[i] = true;
        }
        return usable;
    }

    /** Names per demangler process when there are many: below twice this, one process reads them all. */
    static final int NAMES_PER_PROCESS = 4096;

    /**
     * The tool's output lines for the names, or null where it is not usable (and one warning). Many names are cut into
     * slices read by several processes at once (issue 11: one process took 0.4 s of libtorch_cuda.so's cold check, on
     * its critical path); the lines are joined in order, so the result does not depend on the split, and a problem of
     * any slice (the first in order) is a problem of the tool for every name.
     */
    private List<String> run(Path tool, List<String> names, Consumer<String> warnings) {
        int slices = Math.min(Math.min(8, Runtime.getRuntime().availableProcessors()),
                names.size() / NAMES_PER_PROCESS);
        Output output = slices < 2 ? runOnce(tool, names) : runSliced(tool, names, slices);
        if (output.problem() != null) {
            warnings.accept("demangler " + tool + " " + output.problem() + "; " + names.size()
                    + " kernel name(s) stay mangled"
                    + (tool.equals(tools.get(tools.size() - 1)) ? "" : " unless the next demangler reads them"));
            return null;
        }
        return output.lines();
    }

    /** What one run of a tool gave: its lines, or the problem that makes them unusable. */
    private record Output(List<String> lines, String problem) {
    }

    private Output runSliced(Path tool, List<String> names, int slices) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(slices,
                runnable -> {
                    Thread thread = new Thread(runnable, "cuda-stack-budget-demangler");
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            List<java.util.concurrent.CompletableFuture<Output>> parts = new ArrayList<>(slices);
            for (int slice = 0; slice < slices; slice++) {
                List<String> part = names.subList((int) ((long) names.size() * slice / slices),
                        (int) ((long) names.size() * (slice + 1) / slices));
                parts.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> runOnce(tool, part), pool));
            }
            List<String> lines = new ArrayList<>(names.size());
            for (java.util.concurrent.CompletableFuture<Output> part : parts) {
                Output output = part.join();
                if (output.problem() != null) {
                    return output;
                }
                lines.addAll(output.lines());
            }
            return new Output(lines, null);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One line per name in, one line per name out; anything else means the tool is not usable (the problem).
     * Lines beyond one per name are counted, not kept (a tool that floods its output costs no memory).
     */
    private Output runOnce(Path tool, List<String> names) {
        byte[] input = (String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(names.size());
        long[] extra = {0};
        ToolRun run = ToolRun.run(tool, List.of(), input, timeout, line -> {
            if (lines.size() < names.size()) {
                lines.add(line);
            } else {
                extra[0]++;
            }
        });
        String problem = null;
        if (run.failure() != null) {
            problem = "could not be run (" + Printable.of(String.valueOf(run.failure().getMessage()), 160) + ")";
        } else if (run.timedOut()) {
            problem = "did not finish within " + timeout.toSeconds() + " s and was stopped";
        } else if (run.refused() != null) {
            problem = run.refused() + " and was stopped";
        } else if (run.exitCode() != 0) {
            problem = "failed (exit " + run.exitCode() + ")" + stderr(run);
        } else if (!run.stderr().isBlank()) {
            problem = "exited 0 but printed an error" + stderr(run);
        } else if (extra[0] > 0 || lines.size() != names.size()) {
            problem = "printed " + (lines.size() + extra[0]) + " line(s) for " + names.size() + " name(s)";
        }
        return new Output(problem == null ? lines : null, problem);
    }

    private static String stderr(ToolRun run) {
        String first = run.stderrFirstLine();
        return first.isEmpty() ? "" : ": " + Printable.of(first.substring(2), 160);
    }

    /**
     * {@code alpaka::detail::gpuKernel<INNER, Acc, ...>(...)} becomes {@code INNER}; other names are returned unchanged.
     */
    public static String shortenAlpaka(String name) {
        String marker = "gpuKernel<";
        int start = name.indexOf(marker);
        if (start < 0) {
            return name;
        }
        start += marker.length();
        int depth = 1;
        int index = start;
        while (index < name.length()) {
            char c = name.charAt(index);
            if (c == '<' || c == '(') {
                depth++;
            } else if (c == '>' || c == ')') {
                depth--;
                if (depth == 0) {
                    break;
                }
            } else if (c == ',' && depth == 1) {
                break;
            }
            index++;
        }
        return name.substring(start, index).strip();
    }
}
