package io.github.cudastackbudget.cli;

import io.github.cudastackbudget.core.report.model.InvalidReportException;
import io.github.cudastackbudget.core.report.model.ReportModel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The malformed-input corpus ({@code src/test/resources/malformed/<area>/}) and how one case runs: the whole check
 * through the command line ({@link Main#run}), or the report goal's reader for a JSON report.
 *
 * <p>Each area has a {@code cases.tsv}: one case per line, {@code file<TAB>arguments<TAB>expected line[<TAB>exit]}
 * ({@code #} starts a comment). The arguments are the command line with placeholders: {@code @CASE@} the case file,
 * {@code @DIR@} the area directory, {@code @TEST_CUDA@} the nvcc-built test binaries, {@code @CONTENT@} the case
 * file's text (its last line break dropped), {@code @REPLAY@} a cuobjdump stand-in that prints the case file for
 * {@code --dump-resource-usage} and the real cuobjdump 13.0 {@code --version} text; {@code --no-detect --devices
 * h200-141gb --output <temp>} come first. The argument list {@code report-json} reads the case file as a report's JSON
 * instead. The expected line is one whole line of what the run prints (stdout and stderr), {@code @CASE@},
 * {@code @DIR@} and {@code @TEST_CUDA@} replaced; the exit status defaults to 2.
 *
 * <p>{@link #main} runs one case in a fresh JVM (for {@code dev/malformed-corpus.sh}, under {@code -Xmx256m}).
 */
public final class MalformedCorpus {

    public static final Path ROOT = Path.of("src", "test", "resources", "malformed");
    private static final Path TEST_CUDA = Path.of("target", "test-cuda");
    /** A Java stack frame line, or the catch-all message of an unexpected failure. */
    static final Pattern STACK_TRACE = Pattern.compile("^\\s+at [\\w.$/<>]+\\(.*\\)$|failed unexpectedly|Exception in thread");

    /** One case of the corpus. */
    public record Case(String area, String file, String arguments, String expected, int exit) {
        public Path path() {
            return ROOT.resolve(area).resolve(file).toAbsolutePath().normalize();
        }

        public Path dir() {
            return ROOT.resolve(area).toAbsolutePath().normalize();
        }

        public String expectedLine() {
            return expected.replace("@CASE@", path().toString()).replace("@DIR@", dir().toString())
                    .replace("@TEST_CUDA@", TEST_CUDA.toAbsolutePath().normalize().toString());
        }

        @Override
        public String toString() {
            return area + "/" + file;
        }
    }

    /** What one run printed and returned. */
    public record Outcome(int exit, List<String> lines) {
    }

    private MalformedCorpus() {
    }

    /** Every case of every area, in area and file order. */
    public static List<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        try (Stream<Path> areas = Files.list(ROOT)) {
            for (Path area : areas.filter(Files::isDirectory).sorted().toList()) {
                Path table = area.resolve("cases.tsv");
                if (!Files.isRegularFile(table)) {
                    throw new IllegalStateException(table + " is missing");
                }
                int lineNumber = 0;
                for (String line : Files.readAllLines(table, StandardCharsets.UTF_8)) {
                    lineNumber++;
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    String[] columns = line.split("\t", -1);
                    if (columns.length < 3 || columns.length > 4) {
                        throw new IllegalStateException(table + ":" + lineNumber + ": expected 3 or 4 tab-separated columns");
                    }
                    int exit = columns.length == 4 ? Integer.parseInt(columns[3].trim()) : 2;
                    cases.add(new Case(area.getFileName().toString(), columns[0], columns[1], columns[2], exit));
                }
            }
        }
        return cases;
    }

    /** Runs one case in this JVM and returns what it printed. */
    public static synchronized Outcome run(Case c, Path work) throws IOException {
        if (c.arguments().equals("report-json")) {
            try {
                ReportModel.read(c.path());
                return new Outcome(0, List.of("read without error"));
            } catch (InvalidReportException e) {
                return new Outcome(2, List.of(e.getMessage().split("\n", -1)));
            }
        }
        String[] args = arguments(c, work);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        PrintStream out = System.out;
        PrintStream err = System.err;
        int exit;
        System.setOut(capture);
        System.setErr(capture);
        try {
            exit = Main.run(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new Outcome(exit, List.of(bytes.toString(StandardCharsets.UTF_8).split("\n", -1)));
    }

    /** The command line of a case, placeholders replaced, the fixed options first. */
    static String[] arguments(Case c, Path work) throws IOException {
        Files.createDirectories(work);
        List<String> args = new ArrayList<>(List.of("--no-detect", "--devices", "h200-141gb", "--output",
                work.resolve("out").toString()));
        String content = null;
        if (c.arguments().contains("@CONTENT@")) {
            content = Files.readString(c.path(), StandardCharsets.ISO_8859_1);
            if (content.endsWith("\n")) {
                content = content.substring(0, content.length() - 1);
            }
        }
        String replay = c.arguments().contains("@REPLAY@") ? replay(c.path(), work).toString() : null;
        for (String argument : c.arguments().trim().split(" +")) {
            String value = argument.replace("@CASE@", c.path().toString()).replace("@DIR@", c.dir().toString())
                    .replace("@TEST_CUDA@", TEST_CUDA.toAbsolutePath().normalize().toString());
            if (replay != null) {
                value = value.replace("@REPLAY@", replay);
            }
            if (content != null) {
                value = value.replace("@CONTENT@", content);
            }
            args.add(value);
        }
        return args.toArray(String[]::new);
    }

    /** A cuobjdump stand-in that prints the case file (malformed tool output) and the real --version text. */
    private static Path replay(Path caseFile, Path work) throws IOException {
        Path script = work.resolve("cuobjdump");
        String text = "#!/bin/sh\n"
                + "# Stand-in for cuobjdump: prints a malformed-corpus case as its output (hostile tool output)\n"
                + "case \"$1\" in\n"
                + "  --version) cat <<'VERSION'\n"
                + String.join("\n", io.github.cudastackbudget.core.engine.RecordedCuobjdump.VERSION_TEXT.split("\n"))
                + "\nVERSION\n    ;;\n"
                + "  --dump-resource-usage) exec cat '" + caseFile.toString().replace("'", "'\\''") + "' ;;\n"
                + "  *) echo \"unexpected: $*\" >&2; exit 2 ;;\n"
                + "esac\n";
        Files.writeString(script, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    /**
     * Runs one case ({@code area/file}) and prints {@code PASS} or {@code FAIL} with what differed; exit 0 on pass.
     * Usage: {@code java -cp ... io.github.cudastackbudget.cli.MalformedCorpus AREA/FILE [AREA/FILE ...]}
     */
    public static void main(String[] names) throws IOException {
        List<Case> all = cases();
        List<String> wanted = Arrays.asList(names);
        boolean allPassed = true;
        Path work = Files.createTempDirectory("malformed");
        for (Case c : all) {
            if (!wanted.isEmpty() && !wanted.contains(c.toString())) {
                continue;
            }
            String verdict = verdict(c, run(c, work.resolve(c.area()).resolve(c.file())));
            allPassed &= verdict.equals("PASS");
            System.out.println(verdict + "\t" + c);
        }
        System.exit(allPassed ? 0 : 1);
    }

    /** PASS, or FAIL with the reason. */
    public static String verdict(Case c, Outcome outcome) {
        for (String line : outcome.lines()) {
            if (STACK_TRACE.matcher(line).find()) {
                return "FAIL (a stack trace or an unexpected failure: " + line + ")";
            }
        }
        if (outcome.exit() != c.exit()) {
            return "FAIL (exit " + outcome.exit() + ", expected " + c.exit() + "; printed " + outcome.lines() + ")";
        }
        if (!outcome.lines().contains(c.expectedLine())) {
            return "FAIL (no line equal to the expected one; printed " + outcome.lines() + ")";
        }
        return "PASS";
    }
}
