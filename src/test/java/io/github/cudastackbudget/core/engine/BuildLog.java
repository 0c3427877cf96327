package io.github.cudastackbudget.core.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code nvcc -Xptxas -v} and {@code -Xnvlink -v} printed for one build: per function and per compiled module
 * (one ptxas or nvlink run for one target). The test oracle of the native-reader matrix
 * (cuda-binary-format.md 4.8 maps these figures to cuobjdump's).
 *
 * <p>Parsing is strict: every line that starts with {@code ptxas} or {@code nvlink} must have a known shape, and any
 * other non-empty line is an error, so a changed log format fails the matrix test instead of yielding zeros.
 *
 * @param file      the log file
 * @param functions every function described, in log order
 * @param modules   every module (one per ptxas / nvlink run and target), in log order
 */
record BuildLog(Path file, List<LoggedFunction> functions, List<LoggedModule> modules) {

    /** Which tool described a function or module. */
    enum Tool {
        PTXAS, NVLINK
    }

    /**
     * One function of one target.
     *
     * @param tool              ptxas or nvlink
     * @param arch              the target as the tool printed it ({@code sm_90a}, {@code sm_100f})
     * @param name              the (mangled) function name
     * @param entry             a kernel ({@code Compiling entry function}, and every function nvlink lists)
     * @param registers         {@code Used N registers} / {@code used N registers}; absent for device functions
     * @param stackFrame        {@code N bytes stack frame} (ptxas only)
     * @param stack             ptxas {@code N bytes cumulative stack size} (0 when not printed) or nvlink {@code N stack}
     * @param smem              {@code N bytes smem} (0 when not printed): without the 1 KiB reserved on sm_90 and newer
     * @param cmem              {@code N bytes cmem[bank]} per bank (ptxas prints them below sm_90 only)
     * @param lmem              nvlink {@code N bytes lmem}; absent for ptxas
     * @param stackUndetermined the tool warned "Stack size for entry function ... cannot be statically determined"
     */
    record LoggedFunction(Tool tool, String arch, String name, boolean entry, OptionalInt registers,
            OptionalLong stackFrame, long stack, long smem, Map<Integer, Long> cmem, OptionalLong lmem,
            boolean stackUndetermined) {

        LoggedFunction {
            Objects.requireNonNull(arch, "arch");
            Objects.requireNonNull(name, "name");
            cmem = Map.copyOf(cmem);
        }
    }

    /**
     * One ptxas or nvlink run for one target.
     *
     * @param tool ptxas or nvlink
     * @param arch the target
     * @param gmem {@code N bytes gmem}: the module's {@code __device__} globals
     * @param cmem module-level {@code N bytes cmem[bank]} (ptxas below sm_90 only)
     */
    record LoggedModule(Tool tool, String arch, long gmem, Map<Integer, Long> cmem) {
    }

    private static final String ARCH = "(sm_\\d+[af]?)";
    private static final Pattern TARGET_SUFFIX = Pattern.compile("^(.*?) \\(target: " + ARCH + "\\)$");
    private static final Pattern PREFIX = Pattern.compile("^(ptxas|nvlink) (info|warning) *: (.*)$");
    private static final Pattern UNDETERMINED = Pattern.compile(
            "Stack size for entry function '([^']+)' cannot be statically determined");
    private static final Pattern GMEM = Pattern.compile("(\\d+) bytes gmem((?:, \\d+ bytes cmem\\[\\d+\\])*)");
    private static final Pattern COMPILING_ENTRY = Pattern.compile("Compiling entry function '([^']+)' for '" + ARCH + "'");
    private static final Pattern PTXAS_PROPERTIES = Pattern.compile("Function properties for ([^\\s']+)");
    private static final Pattern NVLINK_PROPERTIES = Pattern.compile("Function properties for '([^']+)':");
    private static final Pattern FRAME = Pattern.compile(
            "^\\s+(\\d+) bytes stack frame, \\d+ bytes spill stores, \\d+ bytes spill loads$");
    private static final Pattern COMPILE_TIME = Pattern.compile("Compile time = [\\d.]+ ms");
    private static final Pattern USED = Pattern.compile("(Used|used) (\\d+) registers(, .*)?");
    private static final Pattern CMEM = Pattern.compile("(\\d+) bytes cmem\\[(\\d+)\\]");

    /** Reads a log of {@code nvcc ... -Xptxas -v} and/or {@code -Xnvlink -v}. */
    static BuildLog read(Path file) {
        try {
            return parse(file, Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read build log " + file, e);
        }
    }

    /**
     * Parses the lines of a log.
     *
     * <p>Within one ptxas run the warnings (stderr) precede the info lines (stdout, flushed at exit), and every run
     * starts with its {@code N bytes gmem} line: a ptxas warning belongs to the next module. Device functions
     * ({@code Function properties} without {@code Compiling entry function}) take the target of the entries of their
     * module. nvlink lines name their target with {@code (target: sm_XX)} when nvcc links for several.
     */
    static BuildLog parse(Path file, List<String> lines) {
        Parser parser = new Parser(file);
        for (int i = 0; i < lines.size(); i++) {
            parser.line(i + 1, lines.get(i));
        }
        return parser.finish();
    }

    /** The functions of one target, in log order. */
    List<LoggedFunction> functionsOf(String arch) {
        return functions.stream().filter(function -> function.arch().equals(arch)).toList();
    }

    /** Every target the log describes, in order of appearance. */
    Set<String> arches() {
        Set<String> arches = new LinkedHashSet<>();
        modules.forEach(module -> arches.add(module.arch()));
        return arches;
    }

    /** A log line that does not have one of the known shapes. */
    static final class UnknownLineException extends IllegalArgumentException {
        UnknownLineException(Path file, int number, String line, String why) {
            super(file + ":" + number + ": " + why + ": '" + line + "'");
        }
    }

    private static final class Parser {
        private final Path file;
        private final List<LoggedFunction> functions = new ArrayList<>();
        private final List<LoggedModule> modules = new ArrayList<>();

        // ptxas: the module being read, its pending warnings and the function being described
        private final Set<String> pendingUndetermined = new LinkedHashSet<>();
        private Module module;
        private Builder current;

        // nvlink: warnings per target, the function whose figures come next
        private final Set<String> nvlinkUndetermined = new LinkedHashSet<>();
        private String nvlinkFunction;

        Parser(Path file) {
            this.file = file;
        }

        void line(int number, String raw) {
            String line = raw.stripTrailing();
            if (line.isEmpty()) {
                return;
            }
            Matcher frame = FRAME.matcher(line);
            if (frame.matches()) {
                if (current == null) {
                    throw new UnknownLineException(file, number, line, "stack frame line outside a function");
                }
                current.stackFrame = OptionalLong.of(Long.parseLong(frame.group(1)));
                return;
            }
            Matcher prefix = PREFIX.matcher(line);
            if (!prefix.matches()) {
                throw new UnknownLineException(file, number, line, "not a ptxas or nvlink line");
            }
            if (prefix.group(1).equals("ptxas")) {
                ptxas(number, line, prefix.group(2).equals("warning"), prefix.group(3));
            } else {
                nvlink(number, line, prefix.group(2).equals("warning"), prefix.group(3));
            }
        }

        private void ptxas(int number, String line, boolean warning, String text) {
            Matcher m;
            if (warning) {
                if (!(m = UNDETERMINED.matcher(text)).matches()) {
                    throw new UnknownLineException(file, number, line, "unknown ptxas warning");
                }
                pendingUndetermined.add(m.group(1));
            } else if ((m = GMEM.matcher(text)).matches()) {
                endModule();
                module = new Module(Long.parseLong(m.group(1)), cmem(m.group(2)), Set.copyOf(pendingUndetermined));
                pendingUndetermined.clear();
            } else if ((m = COMPILING_ENTRY.matcher(text)).matches()) {
                requireModule(number, line);
                if (module.arch != null && !module.arch.equals(m.group(2))) {
                    throw new UnknownLineException(file, number, line, "second target in one ptxas run");
                }
                module.arch = m.group(2);
                current = new Builder(m.group(1), true);
                module.functions.add(current);
            } else if ((m = PTXAS_PROPERTIES.matcher(text)).matches()) {
                requireModule(number, line);
                if (current == null || !current.name.equals(m.group(1)) || current.described) {
                    current = new Builder(m.group(1), false);
                    module.functions.add(current);
                }
                current.described = true;
            } else if ((m = USED.matcher(text)).matches()) {
                if (current == null || !current.entry) {
                    throw new UnknownLineException(file, number, line, "register count outside an entry function");
                }
                current.registers = OptionalInt.of(Integer.parseInt(m.group(2)));
                for (String part : parts(m.group(3))) {
                    Matcher cmem = CMEM.matcher(part);
                    if (part.matches("used \\d+ barriers")) {
                        continue;
                    } else if (part.matches("\\d+ bytes cumulative stack size")) {
                        current.stack = leadingNumber(part);
                    } else if (part.matches("\\d+ bytes smem")) {
                        current.smem = leadingNumber(part);
                    } else if (cmem.matches()) {
                        current.cmem.put(Integer.valueOf(cmem.group(2)), Long.valueOf(cmem.group(1)));
                    } else {
                        throw new UnknownLineException(file, number, line, "unknown figure '" + part + "'");
                    }
                }
            } else if (!COMPILE_TIME.matcher(text).matches()) {
                throw new UnknownLineException(file, number, line, "unknown ptxas line");
            }
        }

        private void nvlink(int number, String line, boolean warning, String textWithTarget) {
            Matcher target = TARGET_SUFFIX.matcher(textWithTarget);
            String text = target.matches() ? target.group(1) : textWithTarget;
            String arch = target.matches() ? target.group(2) : null;
            Matcher m;
            if (warning) {
                if (!(m = UNDETERMINED.matcher(text)).matches()) {
                    throw new UnknownLineException(file, number, line, "unknown nvlink warning");
                }
                nvlinkUndetermined.add(key(arch, m.group(1)));
                return;
            }
            if (arch == null) {
                throw new UnknownLineException(file, number, line,
                        "nvlink line without '(target: sm_XX)': link for two targets or more so that each line names its own");
            }
            if ((m = GMEM.matcher(text)).matches()) {
                modules.add(new LoggedModule(Tool.NVLINK, arch, Long.parseLong(m.group(1)), cmem(m.group(2))));
            } else if ((m = NVLINK_PROPERTIES.matcher(text)).matches()) {
                nvlinkFunction = m.group(1);
            } else if ((m = USED.matcher(text)).matches()) {
                if (nvlinkFunction == null) {
                    throw new UnknownLineException(file, number, line, "figures before 'Function properties'");
                }
                long stack = -1;
                long smem = -1;
                long lmem = -1;
                Map<Integer, Long> cmem = new TreeMap<>();
                for (String part : parts(m.group(3))) {
                    Matcher bank = CMEM.matcher(part);
                    if (part.matches("used \\d+ barriers")) {
                        continue;
                    } else if (part.matches("\\d+ stack")) {
                        stack = leadingNumber(part);
                    } else if (part.matches("\\d+ bytes smem")) {
                        smem = leadingNumber(part);
                    } else if (part.matches("\\d+ bytes lmem")) {
                        lmem = leadingNumber(part);
                    } else if (bank.matches()) {
                        cmem.put(Integer.valueOf(bank.group(2)), Long.valueOf(bank.group(1)));
                    } else {
                        throw new UnknownLineException(file, number, line, "unknown figure '" + part + "'");
                    }
                }
                if (stack < 0 || smem < 0 || lmem < 0) {
                    throw new UnknownLineException(file, number, line, "stack, smem or lmem missing");
                }
                functions.add(new LoggedFunction(Tool.NVLINK, arch, nvlinkFunction, true,
                        OptionalInt.of(Integer.parseInt(m.group(2))), OptionalLong.empty(), stack, smem, cmem,
                        OptionalLong.of(lmem), nvlinkUndetermined.contains(key(arch, nvlinkFunction))));
                nvlinkFunction = null;
            } else {
                throw new UnknownLineException(file, number, line, "unknown nvlink line");
            }
        }

        private void requireModule(int number, String line) {
            if (module == null) {
                throw new UnknownLineException(file, number, line, "function before the module's 'bytes gmem' line");
            }
        }

        private void endModule() {
            if (module == null) {
                return;
            }
            if (module.arch == null) {
                throw new IllegalArgumentException(file + ": a ptxas run without an entry function names no target");
            }
            for (String name : module.undetermined) {
                if (module.functions.stream().noneMatch(function -> function.entry && function.name.equals(name))) {
                    throw new IllegalArgumentException(file + ": ptxas warned about entry " + name
                            + " but the next ptxas run (" + module.arch + ") has no such entry");
                }
            }
            modules.add(new LoggedModule(Tool.PTXAS, module.arch, module.gmem, module.cmem));
            for (Builder function : module.functions) {
                if (function.entry && function.registers.isEmpty()) {
                    throw new IllegalArgumentException(file + ": entry " + function.name + " for " + module.arch
                            + " has no 'Used N registers' line");
                }
                functions.add(new LoggedFunction(Tool.PTXAS, module.arch, function.name, function.entry,
                        function.registers, function.stackFrame, function.stack, function.smem, function.cmem,
                        OptionalLong.empty(), module.undetermined.contains(function.name)));
            }
            module = null;
            current = null;
        }

        BuildLog finish() {
            endModule();
            if (!pendingUndetermined.isEmpty()) {
                throw new IllegalArgumentException(file + ": ptxas warnings without a module: " + pendingUndetermined);
            }
            if (nvlinkFunction != null) {
                throw new IllegalArgumentException(file + ": no figures for nvlink function " + nvlinkFunction);
            }
            for (String undetermined : nvlinkUndetermined) {
                if (functions.stream().noneMatch(f -> f.tool() == Tool.NVLINK && key(f.arch(), f.name()).equals(undetermined))) {
                    throw new IllegalArgumentException(file + ": nvlink warned about " + undetermined
                            + " but listed no such function");
                }
            }
            return new BuildLog(file, functions, modules);
        }

        private static String key(String arch, String name) {
            return (arch == null ? "?" : arch) + "/" + name;
        }

        private static List<String> parts(String tail) {
            if (tail == null || tail.isEmpty()) {
                return List.of();
            }
            return List.of(tail.substring(2).split(", "));
        }

        private static long leadingNumber(String part) {
            return Long.parseLong(part.substring(0, part.indexOf(' ')));
        }

        private static Map<Integer, Long> cmem(String list) {
            Map<Integer, Long> banks = new TreeMap<>();
            Matcher bank = CMEM.matcher(list == null ? "" : list);
            while (bank.find()) {
                banks.put(Integer.valueOf(bank.group(2)), Long.valueOf(bank.group(1)));
            }
            return banks;
        }
    }

    private static final class Module {
        final long gmem;
        final Map<Integer, Long> cmem;
        final Set<String> undetermined;
        final List<Builder> functions = new ArrayList<>();
        String arch;

        Module(long gmem, Map<Integer, Long> cmem, Set<String> undetermined) {
            this.gmem = gmem;
            this.cmem = cmem;
            this.undetermined = undetermined;
        }
    }

    private static final class Builder {
        final String name;
        final boolean entry;
        boolean described;
        OptionalInt registers = OptionalInt.empty();
        OptionalLong stackFrame = OptionalLong.empty();
        long stack;
        long smem;
        final Map<Integer, Long> cmem = new TreeMap<>();

        Builder(String name, boolean entry) {
            this.name = name;
            this.entry = entry;
        }
    }
}
