package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.text.Printable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Streaming parser of {@code cuobjdump --dump-resource-usage} output (cuobjdump 13.0 text format). Feed it one line
 * at a time with {@link #accept(String)}; memory grows with the number of records, not with the text.
 *
 * <p>A usage line counts only with both an arch (or the default arch of a bare cubin) and a function in context, as
 * in the origin tool. {@code member ARCHIVE:MEMBER:} lines switch the library label to {@code archive(member)}.
 * PTX sections ({@code Fatbin ptx code:}) contribute their arch to the PTX list and never records. A usage line
 * whose fields cannot be read fails with the line number, never a silent zero.
 */
public final class ResourceUsageParser {

    private static final Pattern ARCH = Pattern.compile("^arch = (\\S+)\\s*$");
    private static final Pattern FUNCTION = Pattern.compile("^\\s*Function (.+):\\s*$");
    private static final Pattern MEMBER = Pattern.compile("^member (.+):([^:]+):\\s*$");
    private static final Pattern USAGE = Pattern.compile(
            "^\\s*REG:(-?\\d+) STACK:(-?\\d+|UNKNOWN) SHARED:(-?\\d+) LOCAL:(-?\\d+)(?:\\s.*)?$");
    /** The largest register count a CUDA function can have (255 on every arch; some headroom). */
    static final long MAX_REGISTERS = 65_535;
    /** The largest STACK, SHARED or LOCAL figure: the cubin stores them as 32-bit numbers. */
    static final long MAX_BYTES = 0xFFFF_FFFFL;

    private enum Section { NONE, ELF, PTX }

    private final String fileLabel;
    private final GpuArch defaultArch;
    private final List<KernelRecord> records = new ArrayList<>();
    private final Set<String> libraries = new LinkedHashSet<>();
    private final Map<String, SortedSet<GpuArch>> sassArches = new TreeMap<>();
    private final Map<String, SortedSet<GpuArch>> ptxArches = new TreeMap<>();
    private final Map<String, String> names = new HashMap<>();

    private String library;
    private Section section = Section.NONE;
    private GpuArch arch;
    private String function;
    private long functionLine;
    private long lineNumber;
    private int sections;

    /**
     * @param fileLabel   the library label for records outside any {@code member} block (the file name)
     * @param defaultArch the arch to use when the output has no {@code arch =} line (a bare cubin); may be null
     */
    public ResourceUsageParser(String fileLabel, GpuArch defaultArch) {
        this.fileLabel = fileLabel;
        this.defaultArch = defaultArch;
        this.library = fileLabel;
        this.arch = defaultArch;
        if (defaultArch != null) {
            libraries.add(fileLabel);
            sassArches.computeIfAbsent(fileLabel, key -> new TreeSet<>()).add(defaultArch);
        }
    }

    /** Parses a whole text (tests, recorded outputs). */
    public static ResourceUsageParser parse(String fileLabel, GpuArch defaultArch, Reader text) throws IOException {
        ResourceUsageParser parser = new ResourceUsageParser(fileLabel, defaultArch);
        BufferedReader reader = text instanceof BufferedReader buffered ? buffered : new BufferedReader(text, 1 << 16);
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            parser.accept(line);
        }
        parser.finish();
        return parser;
    }

    /**
     * Takes one line of output.
     *
     * @throws MalformedOutputException when a usage line cannot be read
     */
    public void accept(String line) {
        lineNumber++;
        if (line.isEmpty()) {
            return;
        }
        char first = line.charAt(0);
        if (first == 'F' && line.startsWith("Fatbin ")) {
            pendingFunction("a 'Fatbin' line");
            section = line.startsWith("Fatbin ptx") ? Section.PTX : Section.ELF;
            sections++;
            arch = null;
            function = null;
            return;
        }
        if (first == 'a' && (line.startsWith("arch = ") || line.startsWith("arch "))) {
            acceptArch(line);
            return;
        }
        if (first == 'm' && line.startsWith("member ")) {
            Matcher member = MEMBER.matcher(line);
            if (member.matches()) {
                pendingFunction("a 'member' line");
                library = baseName(member.group(1)) + "(" + member.group(2) + ")";
                section = Section.NONE;
                arch = null;
                function = null;
            }
            return;
        }
        String trimmed = line.stripLeading();
        if (trimmed.startsWith("Function ")) {
            Matcher match = FUNCTION.matcher(line);
            if (!match.matches()) {
                // a dropped Function line would drop its kernel silently
                throw new MalformedOutputException("line " + lineNumber + ": unreadable Function line '"
                        + shown(line) + "' (expected 'Function NAME:')");
            }
            pendingFunction("the next 'Function' line");
            function = intern(match.group(1));
            functionLine = lineNumber;
            return;
        }
        if (trimmed.startsWith("REG:")) {
            acceptUsage(line);
        } else if (trimmed.equals("Resource usage:") && section == Section.NONE) {
            sections++; // a bare cubin: no "Fatbin" header
        }
    }

    private void acceptArch(String line) {
        Matcher match = ARCH.matcher(line);
        if (!match.matches()) {
            throw new MalformedOutputException("line " + lineNumber + ": unreadable arch line '" + shown(line)
                    + "' (expected 'arch = sm_NN')");
        }
        pendingFunction("an 'arch' line");
        try {
            arch = GpuArch.parse(match.group(1));
        } catch (InvalidValueException e) {
            throw new MalformedOutputException("line " + lineNumber + ": unknown CUDA arch '" + shown(match.group(1))
                    + "' in the arch line (expected 'arch = sm_NN')");
        }
        function = null;
        libraries.add(library);
        Map<String, SortedSet<GpuArch>> target = section == Section.PTX ? ptxArches : sassArches;
        target.computeIfAbsent(library, key -> new TreeSet<>()).add(arch);
    }

    private void acceptUsage(String line) {
        Matcher match = USAGE.matcher(line);
        if (!match.matches()) {
            throw new MalformedOutputException("line " + lineNumber + ": unreadable resource usage '"
                    + shown(line.strip()) + "' (expected REG:n STACK:n|UNKNOWN SHARED:n LOCAL:n)");
        }
        if (section == Section.PTX) {
            return;
        }
        if (function == null) {
            throw new MalformedOutputException("line " + lineNumber + ": a resource usage line with no 'Function "
                    + "NAME:' line before it");
        }
        if (arch == null) {
            throw new MalformedOutputException("line " + lineNumber + ": the resource usage of " + shown(function)
                    + " follows no 'arch = sm_NN' line");
        }
        boolean unknown = "UNKNOWN".equals(match.group(2));
        int registers = (int) number(match.group(1), "REG", MAX_REGISTERS);
        long stack = unknown ? 0 : number(match.group(2), "STACK", MAX_BYTES);
        records.add(new KernelRecord(library, arch, function, registers, stack, unknown,
                number(match.group(3), "SHARED", MAX_BYTES), number(match.group(4), "LOCAL", MAX_BYTES)));
        libraries.add(library);
        function = null;
    }

    /**
     * A figure of a usage line, range-checked: digits with an optional minus sign (by the pattern), never parsed
     * beyond 19 digits (a line of a million digits is refused by its length, not by arithmetic).
     */
    private long number(String digits, String field, long max) {
        if (digits.startsWith("-")) {
            throw new MalformedOutputException("line " + lineNumber + ": " + field + " " + shown(digits)
                    + " is negative");
        }
        String significant = digits.replaceFirst("^0+(?=\\d)", "");
        long value = significant.length() > 18 ? Long.MAX_VALUE : Long.parseLong(significant);
        if (value > max) {
            throw new MalformedOutputException("line " + lineNumber + ": " + field + " " + shown(digits)
                    + " is out of range (at most " + max + ")");
        }
        return value;
    }

    /**
     * Ends the output: a {@code Function} line still waiting for its resource usage line is an error (its kernel
     * would be dropped silently).
     *
     * @throws MalformedOutputException when the last function has no resource usage line
     */
    public void finish() {
        pendingFunction("the end of the output");
    }

    /** A Function line with no resource usage line before {@code what}: that kernel would be dropped silently. */
    private void pendingFunction(String what) {
        if (function != null && section != Section.PTX) {
            throw new MalformedOutputException("line " + functionLine + ": Function " + shown(function)
                    + " has no resource usage line (REG:n STACK:n SHARED:n LOCAL:n) before " + what);
        }
    }

    /** At most 80 characters of a line, quoted on one line ({@link Printable}). */
    static String shown(String line) {
        return Printable.of(line, 80);
    }

    private String intern(String name) {
        return names.computeIfAbsent(name, key -> key);
    }

    private static String baseName(String path) {
        int slash = path.lastIndexOf('/');
        return slash >= 0 ? path.substring(slash + 1) : path;
    }

    public List<KernelRecord> records() {
        return records;
    }

    public List<String> libraries() {
        return new ArrayList<>(libraries);
    }

    public Map<String, SortedSet<GpuArch>> sassArches() {
        return sassArches;
    }

    public Map<String, SortedSet<GpuArch>> ptxArches() {
        return ptxArches;
    }

    /** How many embedded images (fatbin entries, or the bare cubin) the output described. */
    public int sections() {
        return sections;
    }

    public long lines() {
        return lineNumber;
    }

    public String fileLabel() {
        return fileLabel;
    }

    public GpuArch defaultArch() {
        return defaultArch;
    }

    /** Output that does not follow the cuobjdump 13.0 format. */
    public static final class MalformedOutputException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public MalformedOutputException(String message) {
            super(message);
        }
    }
}
