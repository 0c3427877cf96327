package io.github.cudastackbudget.core.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what {@code ptxas -v} prints on standard error for one PTX module, line by line (ptxas 12.x and 13.x):
 *
 * <pre>
 * ptxas info    : Compiling entry function '_Z11frameKernelILi2550EEvPii' for 'sm_120'
 * ptxas info    : Function properties for _Z11frameKernelILi2550EEvPii
 *     10200 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 * ptxas info    : Used 38 registers, used 0 barriers, 10200 bytes cumulative stack size
 * </pre>
 *
 * <p>A log of several targets (nvcc {@code -Xptxas -v}) holds each kernel once per target. Only entry functions (kernels: a {@code Compiling entry function} line) are kept; the properties of device
 * functions ptxas prints in between belong to no kernel. A kernel's frame is the larger of its {@code bytes stack
 * frame} and its {@code bytes cumulative stack size} (the whole call tree, the figure the driver reserves for; ptxas
 * copies callees into a whole-program kernel, so both are usually equal). A {@code Stack size for entry function
 * 'X' cannot be statically determined} warning marks the kernel's stack unknown. An entry without a frame line is
 * refused: no figure silently becomes 0.
 */
public final class PtxasOutput {

    private static final Pattern ENTRY = Pattern.compile("ptxas info\\s*: Compiling entry function '([^']+)' for '([^']+)'");
    private static final Pattern PROPERTIES = Pattern.compile("ptxas info\\s*: Function properties for (\\S+)");
    private static final Pattern FRAME = Pattern.compile("\\s*(\\d+) bytes stack frame, (\\d+) bytes spill stores, "
            + "(\\d+) bytes spill loads.*");
    private static final Pattern USED = Pattern.compile("ptxas info\\s*: Used (\\d+) registers.*");
    private static final Pattern CUMULATIVE = Pattern.compile(".*\\b(\\d+) bytes cumulative stack size.*");
    private static final Pattern UNKNOWN = Pattern.compile(
            "ptxas warning\\s*: Stack size for entry function '([^']+)' cannot be statically determined.*");

    /**
     * One kernel as ptxas compiled it.
     *
     * @param name         the mangled name
     * @param target       the target ptxas compiled for ({@code sm_120})
     * @param frame        the kernel's frame: max(stack frame, cumulative stack size), bytes per thread
     * @param stackUnknown ptxas warned that the stack size cannot be statically determined (recursion)
     * @param registers    registers per thread ({@code Used N registers}), or -1 when not printed
     * @param spillStores  spill stores in bytes
     */
    public record Function(String name, String target, long frame, boolean stackUnknown, int registers,
            long spillStores) {
    }

    private final Map<String, Builder> entries = new LinkedHashMap<>();
    private final List<String> errors = new ArrayList<>();
    private final List<String> unknown = new ArrayList<>();
    private String properties;
    private Builder current;

    private static final class Builder {
        final String name;
        final String target;
        long frame = -1;
        long cumulative;
        long spillStores;
        int registers = -1;

        Builder(String name, String target) {
            this.name = name;
            this.target = target;
        }
    }

    /** Takes one line of ptxas's output. */
    public void accept(String line) {
        Matcher match = ENTRY.matcher(line);
        if (match.matches()) {
            String name = match.group(1);
            String target = match.group(2);
            current = entries.computeIfAbsent(target + ' ' + name, key -> new Builder(name, target));
            properties = null;
            return;
        }
        match = PROPERTIES.matcher(line);
        if (match.matches()) {
            properties = match.group(1);
            return;
        }
        match = FRAME.matcher(line);
        if (match.matches()) {
            Builder entry = properties == null || current == null ? null
                    : entries.get(current.target + ' ' + properties);
            if (entry != null) {
                entry.frame = Math.max(entry.frame, Long.parseLong(match.group(1)));
                entry.spillStores = Long.parseLong(match.group(2));
            }
            properties = null;
            return;
        }
        match = USED.matcher(line);
        if (match.matches()) {
            if (current != null) {
                current.registers = Integer.parseInt(match.group(1));
                Matcher cumulative = CUMULATIVE.matcher(line);
                if (cumulative.matches()) {
                    current.cumulative = Math.max(current.cumulative, Long.parseLong(cumulative.group(1)));
                }
            }
            return;
        }
        match = UNKNOWN.matcher(line);
        if (match.matches()) {
            unknown.add(match.group(1));
            return;
        }
        String trimmed = line.strip();
        if (trimmed.startsWith("ptxas fatal") || trimmed.startsWith("ptxas error") || trimmed.contains(", line ")
                && trimmed.contains("error")) {
            errors.add(trimmed);
        }
    }

    /** The error lines ptxas printed ({@code ptxas fatal : ...}), in order. */
    public List<String> errors() {
        return Collections.unmodifiableList(errors);
    }

    /**
     * The kernels, in ptxas's order.
     *
     * @throws IllegalStateException naming the first kernel ptxas printed no frame line for
     */
    public List<Function> functions() {
        List<Function> result = new ArrayList<>(entries.size());
        for (Builder entry : entries.values()) {
            if (entry.frame < 0) {
                throw new IllegalStateException("ptxas printed no 'bytes stack frame' line for entry function '"
                        + entry.name + "'");
            }
            result.add(new Function(entry.name, entry.target, Math.max(entry.frame, entry.cumulative),
                    unknown.contains(entry.name), entry.registers, entry.spillStores));
            // one log may hold several targets (nvcc -Xptxas -v): a name is one kernel per target
        }
        return result;
    }

    /** Parses a whole recorded log. */
    public static List<Function> parse(List<String> lines) {
        PtxasOutput output = new PtxasOutput();
        lines.forEach(output::accept);
        return output.functions();
    }
}
