package io.github.cudastackbudget.core.launch;

import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import io.github.cudastackbudget.core.text.Printable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads kernel launch logs ({@link LaunchLog} describes the format) and library logs ({@link LibraryLog}).
 *
 * <p>Strict but helpful: a malformed data line is skipped with a warning naming the file and line number; an empty log,
 * a log without a status line, or a status other than {@code ok} gives a warning (the check then keeps the static
 * figure as the headline); a log that is missing, unreadable, of an unknown kind or of a newer format version is an
 * error.
 */
public final class LaunchLogReader {

    /** The first line of this plugin's kernel launch log. */
    public static final String LAUNCH_HEADER_PREFIX = "# cuda-stack-budget launch log ";
    /** The first line of this plugin's library log. */
    public static final String LIBRARY_HEADER_PREFIX = "# cuda-stack-budget library log ";
    /** The newest format version this reader understands (it reads every older one too). */
    public static final int VERSION = 2;
    /** What format 2 writes for a driver figure the driver did not give. */
    public static final String UNKNOWN = "unknown";
    /** The largest per-thread frame or static shared memory a driver figure may have (a 32-bit number). */
    static final long MAX_DRIVER_BYTES = 0xFFFF_FFFFL;
    /** The largest register count a driver figure may have. */
    static final long MAX_REGISTERS = 65_535;
    private static final Pattern DRIVER_ARCH = Pattern.compile("sm_\\d{2,3}");

    /** Malformed lines reported one by one; the rest are counted in one more warning. */
    static final int WARNED_LINES = 5;

    /** The largest dynamic shared memory a launch can ask for: the driver takes it as a 32-bit number. */
    static final long MAX_DYNAMIC_SHARED = 0xFFFF_FFFFL;
    private static final Pattern DIGITS = Pattern.compile("\\d{1,18}");

    private LaunchLogReader() {
    }

    /**
     * Reads a kernel launch log.
     *
     * @param file     the log
     * @param frontend spells the option in messages (the launch log's own, and how to check statically without it)
     * @throws LaunchLogException the file is missing or unreadable, or not a launch log this version can read
     */
    public static LaunchLog readLaunchLog(Path file, Frontend frontend) throws LaunchLogException {
        String parameter = frontend.name(Option.LAUNCH_LOG);
        String kind = "launch log";
        List<String> warnings = new ArrayList<>();
        List<String> statuses = new ArrayList<>();
        Map<String, LaunchedKernel> kernels = new TreeMap<>();
        Malformed malformed = new Malformed(file, warnings);
        LaunchLog.Format format = null;
        boolean content = false;
        int data = 0;
        try (BoundedLineReader reader = open(file, parameter, kind,
                "run the tests (or the job) under the prepare-agent goal's injection library first, so that it writes "
                        + "the log (a build that skips the tests: " + frontend.howToSet(Option.LAUNCH_LOG, "")
                        + " checks statically)")) {
            int number = 0;
            for (String line = reader.next(); line != null; line = reader.next()) {
                number++;
                if (format == null) {
                    format = LaunchLog.Format.SEED;
                    if (line.startsWith("#")) {
                        int version = checkHeader(file, line, LAUNCH_HEADER_PREFIX, kind, parameter);
                        format = version == 1 ? LaunchLog.Format.AGENT_V1 : LaunchLog.Format.AGENT_V2;
                    }
                }
                if (reader.tooLong()) {
                    content = true;
                    malformed.add(number, "longer than " + BoundedLineReader.MAX_LINE + " characters");
                    continue;
                }
                if (line.isBlank()) {
                    continue;
                }
                content = true;
                if (line.startsWith("#")) {
                    if (format == LaunchLog.Format.SEED) {
                        malformed.add(number, "a '#' line after data lines of the origin tool's format (no header)");
                    } else if (line.startsWith(LAUNCH_HEADER_PREFIX)) {
                        checkHeader(file, line, LAUNCH_HEADER_PREFIX, kind, parameter);
                    } else {
                        String status = status(line);
                        if (status != null) {
                            statuses.add(status.isEmpty() ? "(blank status)" : clean(status, 200));
                        }
                    }
                    continue;
                }
                if (data(line, number, format == LaunchLog.Format.AGENT_V2, kernels, malformed)) {
                    data++;
                }
            }
        } catch (IOException e) {
            throw unreadable(file, parameter, kind, e);
        }
        if (!content) {
            warnings.add("launch log " + file + " is empty: the run recorded nothing (did the process end through a "
                    + "signal or crash before the injection library could write it, or run without it?); the headline "
                    + "stays the static figure");
            return new LaunchLog(file, LaunchLog.Format.EMPTY, List.of(), List.of(), 0, warnings);
        }
        malformed.summarize();
        if (format == LaunchLog.Format.AGENT_V1 || format == LaunchLog.Format.AGENT_V2) {
            if (statuses.isEmpty()) {
                warnings.add("launch log " + file + " has no '# status:' line, so it may be cut short (was the "
                        + "process killed while the injection library wrote it?); the headline stays the static figure");
            }
            for (String status : statuses) {
                if (!LaunchLog.STATUS_OK.equals(status)) {
                    warnings.add("launch log " + file + " says the run was not recorded completely (status: " + status
                            + "); the headline stays the static figure");
                }
            }
        }
        return new LaunchLog(file, format, statuses, List.copyOf(kernels.values()), data, warnings);
    }

    /** One data line of a launch log, merged into {@code kernels}; false (and a warning) when it is malformed. */
    private static boolean data(String line, int number, boolean driverColumns, Map<String, LaunchedKernel> kernels,
            Malformed malformed) {
        if (driverColumns) {
            String[] fields = line.split("\t", 8);
            if (fields.length != 7) {
                malformed.add(number, "expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES<TAB>LOCAL"
                        + "<TAB>REGISTERS<TAB>SHARED<TAB>ARCH (format 2), found "
                        + (fields.length > 7 ? "more than 7" : Integer.toString(fields.length)) + " tab-separated field"
                        + (fields.length == 1 ? "" : "s"));
                return false;
            }
            DriverFrame frame = driverFrame(fields, number, malformed);
            if (frame == null) {
                return false;
            }
            return row(fields[0], fields[1], fields[2], frame, number, kernels, malformed);
        }
        String[] fields = line.split("\t", 4);
        if (fields.length < 2 || fields.length > 3) {
            malformed.add(number, "expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES, found "
                    + (fields.length > 3 ? "more than 3" : Integer.toString(fields.length)) + " tab-separated field"
                    + (fields.length == 1 ? "" : "s"));
            return false;
        }
        return row(fields[0], fields[1], fields.length == 3 ? fields[2] : null, null, number, kernels, malformed);
    }

    /** The driver's figures of a format-2 line (columns 4 to 7), or null (and a warning) when one is malformed. */
    private static DriverFrame driverFrame(String[] fields, int number, Malformed malformed) {
        Long local = driverFigure(fields[3], "frame (local size)", MAX_DRIVER_BYTES, number, malformed);
        Long registers = driverFigure(fields[4], "register count", MAX_REGISTERS, number, malformed);
        Long shared = driverFigure(fields[5], "static shared memory", MAX_DRIVER_BYTES, number, malformed);
        if (local == null || registers == null || shared == null) {
            return null;
        }
        String archText = fields[6].strip();
        io.github.cudastackbudget.core.arch.GpuArch arch = null;
        if (!archText.equals(UNKNOWN)) {
            if (!DRIVER_ARCH.matcher(archText).matches()) {
                malformed.add(number, "the driver's arch '" + abbreviate(fields[6]) + "' is not sm_NN or " + UNKNOWN);
                return null;
            }
            try {
                arch = io.github.cudastackbudget.core.arch.GpuArch.parse(archText);
            } catch (RuntimeException e) {
                malformed.add(number, "the driver's arch '" + abbreviate(fields[6]) + "' is not sm_NN or " + UNKNOWN);
                return null;
            }
        }
        return new DriverFrame(local < 0 ? null : local, registers < 0 ? null : Integer.valueOf(registers.intValue()),
                shared < 0 ? null : shared, arch);
    }

    /** A driver figure: -1 for {@code unknown}, the number, or null (and a warning) when malformed. */
    private static Long driverFigure(String text, String what, long max, int number, Malformed malformed) {
        String value = text.strip();
        if (value.equals(UNKNOWN)) {
            return -1L;
        }
        if (value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            malformed.add(number, "the driver's " + what + " '" + abbreviate(text) + "' is not a byte count or "
                    + UNKNOWN);
            return null;
        }
        if (!DIGITS.matcher(value).matches() || Long.parseLong(value) > max) {
            malformed.add(number, "the driver's " + what + " " + abbreviate(value) + " is more than any device has (at "
                    + "most " + max + ")");
            return null;
        }
        return Long.parseLong(value);
    }

    /** One well-formed or malformed row (name, attribution, dynamic shared memory), merged into {@code kernels}. */
    private static boolean row(String name, String attribution, String dynamicText, DriverFrame frame, int number,
            Map<String, LaunchedKernel> kernels, Malformed malformed) {
        if (name.isEmpty() || name.chars().anyMatch(c -> Character.isWhitespace(c) || c == '(' || c == ')'
                || Character.isISOControl(c))) {
            malformed.add(number, "the kernel name '" + abbreviate(name) + "' is empty or not a mangled name (it "
                    + "holds white space, parentheses or control characters)");
            return false;
        }
        Long dynamic = null;
        if (dynamicText != null) {
            String value = dynamicText.strip();
            if (value.startsWith("-") && DIGITS.matcher(value.substring(1)).matches()) {
                malformed.add(number, "the dynamic shared memory " + value + " is negative");
                return false;
            }
            if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                if (!DIGITS.matcher(value).matches()) {
                    malformed.add(number, "the dynamic shared memory " + abbreviate(value) + " is more than any "
                            + "device has (at most " + MAX_DYNAMIC_SHARED + ")");
                    return false;
                }
            } else {
                malformed.add(number, "the dynamic shared memory '" + abbreviate(dynamicText) + "' is not a byte count");
                return false;
            }
            dynamic = Long.parseLong(value);
            if (dynamic > MAX_DYNAMIC_SHARED) {
                malformed.add(number, "the dynamic shared memory " + value + " is more than any device has (at most "
                        + MAX_DYNAMIC_SHARED + ")");
                return false;
            }
        }
        LaunchedKernel kernel = new LaunchedKernel(name, new java.util.TreeSet<>(List.of(attribution)), dynamic, frame);
        kernels.merge(name, kernel, LaunchedKernel::merge);
        return true;
    }

    /**
     * Reads a library log: one absolute path per line, after an optional header.
     *
     * @param file     the log
     * @param frontend spells the option in messages
     * @throws LaunchLogException the file is missing or unreadable, or not a library log this version can read
     */
    public static LibraryLog readLibraryLog(Path file, Frontend frontend) throws LaunchLogException {
        String parameter = frontend.name(Option.LIBRARY_LOG);
        String kind = "library log";
        List<String> warnings = new ArrayList<>();
        java.util.LinkedHashSet<Path> libraries = new java.util.LinkedHashSet<>();
        Malformed malformed = new Malformed(file, warnings);
        try (BoundedLineReader reader = open(file, parameter, kind,
                "the injection library writes it next to the launch log; point " + parameter + " at it or remove the "
                        + "setting")) {
            int number = 0;
            for (String line = reader.next(); line != null; line = reader.next()) {
                number++;
                if (number == 1 && line.startsWith("#")) {
                    checkHeader(file, line, LIBRARY_HEADER_PREFIX, kind, parameter);
                }
                if (reader.tooLong()) {
                    malformed.add(number, "longer than " + BoundedLineReader.MAX_LINE + " characters");
                    continue;
                }
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (!line.startsWith("/") || line.indexOf('\t') >= 0) {
                    malformed.add(number, "expected one absolute path per line, found '" + abbreviate(line) + "'");
                    continue;
                }
                if (line.indexOf('\0') >= 0) {
                    malformed.add(number, "the path holds a NUL byte");
                    continue;
                }
                try {
                    libraries.add(Path.of(line)); // as the loader named it: '..' may cross a symbolic link
                } catch (java.nio.file.InvalidPathException e) {
                    malformed.add(number, "'" + abbreviate(line) + "' is not a valid path (" + clean(e.getReason(), 80)
                            + ")");
                }
            }
        } catch (IOException e) {
            throw unreadable(file, parameter, kind, e);
        }
        malformed.summarize();
        return new LibraryLog(file, List.copyOf(libraries), warnings);
    }

    /** The header's format version (1 up to {@link #VERSION} for launch logs, 1 for library logs). */
    private static int checkHeader(Path file, String line, String prefix, String kind, String parameter)
            throws LaunchLogException {
        int newest = prefix.equals(LAUNCH_HEADER_PREFIX) ? VERSION : 1;
        if (!line.startsWith(prefix)) {
            throw new LaunchLogException(parameter + " " + file + " is not a cuda-stack-budget " + kind + ": it starts "
                    + "with '" + abbreviate(line) + "' instead of '" + prefix + newest + "'; point " + parameter
                    + " at the file the injection library wrote");
        }
        String version = line.substring(prefix.length()).strip();
        for (int known = 1; known <= newest; known++) {
            if (version.equals(Integer.toString(known))) {
                return known;
            }
        }
        throw new LaunchLogException(parameter + " " + file + " is a " + kind + " of format version '"
                + abbreviate(version) + "', but this plugin version reads version"
                + (newest == 1 ? " 1" : "s 1 to " + newest) + ": use the plugin version whose "
                + "prepare-agent goal wrote it");
    }

    private static BoundedLineReader open(Path file, String parameter, String kind, String remedy)
            throws LaunchLogException {
        if (!Files.exists(file)) {
            throw new LaunchLogException("the " + kind + " " + file + " (" + parameter + ") does not exist: " + remedy);
        }
        if (!Files.isRegularFile(file)) {
            throw new LaunchLogException("the " + kind + " " + file + " (" + parameter + ") is not a file: " + remedy);
        }
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try {
            return new BoundedLineReader(new InputStreamReader(Files.newInputStream(file), decoder));
        } catch (IOException e) {
            throw unreadable(file, parameter, kind, e);
        }
    }

    private static LaunchLogException unreadable(Path file, String parameter, String kind, IOException e) {
        return new LaunchLogException("the " + kind + " " + file + " (" + parameter + ") cannot be read: "
                + clean(String.valueOf(e.getMessage()), 200) + "; check its permissions", e);
    }

    /**
     * The value of a {@code # status:} line (white space around it stripped), or null for another comment line. A
     * linear scan: the regular expression it replaces took seconds on a long line of blanks.
     */
    static String status(String line) {
        int i = 1;
        int n = line.length();
        while (i < n && Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        if (!line.startsWith("status:", i)) {
            return null;
        }
        return line.substring(i + "status:".length()).strip();
    }

    /** At most 60 characters of a line, control characters shown as '?', so that a message stays one short line. */
    static String abbreviate(String line) {
        return clean(line, 60);
    }

    /** At most {@code max} characters, quoted on one line ({@link Printable}). */
    static String clean(String line, int max) {
        return Printable.of(line, max);
    }

    /** Collects malformed-line warnings: the first few one by one, the rest counted. */
    private static final class Malformed {
        private final Path file;
        private final List<String> warnings;
        private int count;

        Malformed(Path file, List<String> warnings) {
            this.file = file;
            this.warnings = warnings;
        }

        void add(int line, String problem) {
            count++;
            if (count <= WARNED_LINES) {
                warnings.add(file + ":" + line + ": malformed line skipped: " + problem);
            }
        }

        void summarize() {
            if (count > WARNED_LINES) {
                warnings.add(file + ": " + (count - WARNED_LINES) + " more malformed line(s) skipped (" + count
                        + " in all)");
            }
        }
    }
}
