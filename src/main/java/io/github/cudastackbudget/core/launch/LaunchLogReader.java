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
    /** The format version this reader understands. */
    public static final int VERSION = 1;

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
                    format = line.startsWith("#") ? LaunchLog.Format.AGENT_V1 : LaunchLog.Format.SEED;
                    if (format == LaunchLog.Format.AGENT_V1) {
                        checkHeader(file, line, LAUNCH_HEADER_PREFIX, kind, parameter);
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
                if (data(line, number, kernels, malformed)) {
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
        if (format == LaunchLog.Format.AGENT_V1) {
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
    private static boolean data(String line, int number, Map<String, LaunchedKernel> kernels, Malformed malformed) {
        String[] fields = line.split("\t", 4);
        if (fields.length < 2 || fields.length > 3) {
            malformed.add(number, "expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES, found "
                    + (fields.length > 3 ? "more than 3" : Integer.toString(fields.length)) + " tab-separated field"
                    + (fields.length == 1 ? "" : "s"));
            return false;
        }
        String name = fields[0];
        if (name.isEmpty() || name.chars().anyMatch(c -> Character.isWhitespace(c) || c == '(' || c == ')'
                || Character.isISOControl(c))) {
            malformed.add(number, "the kernel name '" + abbreviate(name) + "' is empty or not a mangled name (it "
                    + "holds white space, parentheses or control characters)");
            return false;
        }
        Long dynamic = null;
        if (fields.length == 3) {
            String value = fields[2].strip();
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
                malformed.add(number, "the dynamic shared memory '" + abbreviate(fields[2]) + "' is not a byte count");
                return false;
            }
            dynamic = Long.parseLong(value);
            if (dynamic > MAX_DYNAMIC_SHARED) {
                malformed.add(number, "the dynamic shared memory " + value + " is more than any device has (at most "
                        + MAX_DYNAMIC_SHARED + ")");
                return false;
            }
        }
        LaunchedKernel kernel = new LaunchedKernel(name, new java.util.TreeSet<>(List.of(fields[1])), dynamic);
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

    private static void checkHeader(Path file, String line, String prefix, String kind, String parameter)
            throws LaunchLogException {
        if (!line.startsWith(prefix)) {
            throw new LaunchLogException(parameter + " " + file + " is not a cuda-stack-budget " + kind + ": it starts "
                    + "with '" + abbreviate(line) + "' instead of '" + prefix + VERSION + "'; point " + parameter
                    + " at the file the injection library wrote");
        }
        String version = line.substring(prefix.length()).strip();
        if (!version.equals(Integer.toString(VERSION))) {
            throw new LaunchLogException(parameter + " " + file + " is a " + kind + " of format version '"
                    + abbreviate(version)
                    + "', but this plugin version reads version " + VERSION + ": use the plugin version whose "
                    + "prepare-agent goal wrote it");
        }
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
