package io.github.cudastackbudget.core.demangle;

import io.github.cudastackbudget.core.exec.Executables;
import io.github.cudastackbudget.core.exec.ToolRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Demangles kernel names in batches with the tools found on the PATH, in the origin tool's order: {@code llvm-cxxfilt}
 * (GNU c++filt gives up on very long names), then {@code c++filt}, then {@code cu++filt}; a name no tool changes keeps
 * its mangled form. Alpaka kernels ({@code alpaka::detail::gpuKernel<INNER, ...>}) are shortened to {@code INNER}.
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
        List<Path> found = new ArrayList<>();
        for (String tool : TOOLS) {
            Executables.find(tool, environment, Executables.cudaDirectories(environment)).ifPresent(found::add);
        }
        return new Demangler(found, Duration.ofSeconds(120));
    }

    public List<Path> tools() {
        return tools;
    }

    /**
     * Readable names for mangled ones.
     *
     * @return mangled -> display name (demangled, Alpaka-shortened), for every input name
     */
    public Map<String, String> displayNames(Collection<String> mangledNames) {
        List<String> names = new ArrayList<>(new TreeSet<>(mangledNames));
        Map<String, String> demangled = new LinkedHashMap<>();
        List<String> pending = names.stream().filter(name -> name.startsWith("_Z")).toList();
        for (Path tool : tools) {
            if (pending.isEmpty()) {
                break;
            }
            List<String> output = run(tool, pending);
            List<String> stillMangled = new ArrayList<>();
            for (int i = 0; i < pending.size(); i++) {
                String result = output == null ? null : output.get(i);
                if (result == null || result.isBlank() || result.equals(pending.get(i))) {
                    stillMangled.add(pending.get(i));
                } else {
                    demangled.put(pending.get(i), result);
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

    /** One line per name in, one line per name out; anything else means the tool is not usable (null). */
    private List<String> run(Path tool, List<String> names) {
        byte[] input = (String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(names.size());
        ToolRun run = ToolRun.run(tool, List.of(), input, timeout, lines::add);
        if (run.failure() != null || run.timedOut() || run.exitCode() != 0) {
            return null;
        }
        return lines.size() == names.size() ? lines : null;
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
