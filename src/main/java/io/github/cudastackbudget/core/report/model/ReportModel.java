package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.gate.GateCheck;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What every output shows (JSON, text, the standalone page, the site page): built once from a check's result
 * ({@link #of}), or read from the {@code cuda-stack-budget.json} a check wrote ({@link #read}, the report goal's input;
 * schema version 2, or 1 from earlier versions). Both give the same model for the same check. Immutable.
 *
 * @param schemaVersion       the JSON's schema version: {@link #SCHEMA_VERSION} for a model built from a check, the
 *                            file's (1 or 2) for one read from JSON
 * @param engine              the engine's description
 * @param deviceOrigin        where the devices came from ("configured", "default set; ...", ...)
 * @param filesProbed         candidate files looked at
 * @param libraries           every library read, in scan order
 * @param devices             per-device verdicts, in configuration order
 * @param kernels             every record read (all arches), ordered by library, name, arch
 * @param violations          every budget exceeded, device by device
 * @param warnings            one line each
 * @param launched            the launch log the check read (launched mode), else null
 * @param filesWithDeviceCode the files (and JAR entries) that held device code; the JSON (schema 1 or 2) does not store it, so a
 *                            report read from JSON counts the distinct files its libraries came from
 * @param unreadable          device code that could not be read and was left out (JSON {@code unreadable}, written
 *                            only when there is some), in input order
 * @param checks              the gate's checks beyond the per-device budgets (rules, suppressions, baseline; see
 *                            {@link GateCheck}), in the order the stages made them
 * @param baseline            the comparison with a baseline (issue 12; JSON {@code baseline}), or null without one
 * @param suppressed          the kernels suppressions took out of the verdicts (JSON {@code suppressed}, written only
 *                            when there are some), device by device, largest frame first
 */
public record ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
        List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
        List<ViolationReport> violations, List<String> warnings, LaunchedRunReport launched,
        long filesWithDeviceCode, List<Unreadable> unreadable, List<GateCheck> checks, BaselineReport baseline,
        List<SuppressedRow> suppressed) {

    // gate (issue 12): suppressions
    /** A report in which nothing was suppressed. */
    public ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
            List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
            List<ViolationReport> violations, List<String> warnings, LaunchedRunReport launched,
            long filesWithDeviceCode, List<Unreadable> unreadable, List<GateCheck> checks, BaselineReport baseline) {
        this(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels, violations, warnings,
                launched, filesWithDeviceCode, unreadable, checks, baseline, List.of());
    }

    /** The same report listing these suppressed kernels. */
    public ReportModel withSuppressed(List<SuppressedRow> rows) {
        return new ReportModel(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels,
                violations, warnings, launched, filesWithDeviceCode, unreadable, checks, baseline, rows);
    }

    /** The suppressed kernels of one device. */
    public List<SuppressedRow> suppressedOn(String device) {
        return suppressed.stream().filter(row -> row.device().equals(device)).toList();
    }

    /** A report without a baseline comparison. */
    public ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
            List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
            List<ViolationReport> violations, List<String> warnings, LaunchedRunReport launched,
            long filesWithDeviceCode, List<Unreadable> unreadable, List<GateCheck> checks) {
        this(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels, violations, warnings,
                launched, filesWithDeviceCode, unreadable, checks, null);
    }

    /** A report without gate checks (rules, suppressions, baseline). */
    public ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
            List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
            List<ViolationReport> violations, List<String> warnings, LaunchedRunReport launched,
            long filesWithDeviceCode, List<Unreadable> unreadable) {
        this(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels, violations, warnings,
                launched, filesWithDeviceCode, unreadable, List.of());
    }

    /**
     * A file (or archive member, or JAR entry) with device code that could not be read.
     *
     * @param path    the file as named in messages
     * @param offset  the byte offset of the problem, or -1
     * @param problem what is wrong, one line
     */
    public record Unreadable(String path, long offset, String problem) {
    }

    /** A report in which every input was read. */
    public ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
            List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
            List<ViolationReport> violations, List<String> warnings, LaunchedRunReport launched,
            long filesWithDeviceCode) {
        this(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels, violations, warnings,
                launched, filesWithDeviceCode, List.of());
    }

    /** The schema version the JSON report is written in (the reader also reads version 1). */
    public static final int SCHEMA_VERSION = 2;

    public ReportModel {
        engine = engine == null ? "" : engine;
        deviceOrigin = deviceOrigin == null ? "" : deviceOrigin;
        libraries = List.copyOf(libraries);
        devices = List.copyOf(devices);
        kernels = List.copyOf(kernels);
        violations = List.copyOf(violations);
        warnings = List.copyOf(warnings);
        unreadable = unreadable == null ? List.of() : List.copyOf(unreadable);
        checks = checks == null ? List.of() : List.copyOf(checks);
        suppressed = suppressed == null ? List.of() : List.copyOf(suppressed);
    }

    /** Issue 12: the same report with the comparison with a baseline. */
    public ReportModel withBaseline(BaselineReport comparison) {
        return new ReportModel(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels,
                violations, warnings, launched, filesWithDeviceCode, unreadable, checks, comparison, suppressed);
    }

    /** The gate checks that failed: each fails the check as an exceeded budget does. */
    public List<GateCheck> failedChecks() {
        return checks.stream().filter(GateCheck::failed).toList();
    }

    /** A report whose file count is that of the files its libraries came from. */
    public ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
            List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
            List<ViolationReport> violations, List<String> warnings, LaunchedRunReport launched) {
        this(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels, violations, warnings,
                launched, filesOf(libraries));
    }

    /** A report without a launch log. */
    public ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
            List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
            List<ViolationReport> violations, List<String> warnings) {
        this(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels, violations, warnings, null);
    }

    /** The model of a check result, built directly (nothing is written or read back). */
    public static ReportModel of(CheckResult result) {
        return new ReportModelBuilder(result).model();
    }

    /**
     * Reads a JSON report.
     *
     * @throws InvalidReportException when the file is not a schema-1 or schema-2 report (the message names the file)
     * @throws IOException            when it cannot be read
     */
    public static ReportModel read(Path json) throws IOException {
        try (InputStream in = Files.newInputStream(json)) {
            return read(in, json.toString());
        } catch (NoSuchFileException e) {
            throw new InvalidReportException(json + ": the JSON report does not exist; run the check goal first", e);
        }
    }

    /** Reads a JSON report from a stream; {@code source} names it in error messages. */
    public static ReportModel read(InputStream in, String source) throws IOException {
        return ReportJsonReader.read(in, source);
    }

    /** True when the check read a launch log. */
    public boolean launchedMode() {
        return launched != null;
    }

    /** Number of kernel records (function images). */
    public int recordCount() {
        return kernels.size();
    }

    /** Number of distinct functions with a SASS image (library + mangled name). */
    public long functionCount() {
        long sorted = sortedDistinct(kernels);
        return sorted >= 0 ? sorted : kernels.stream().map(k -> new Function(k.library(), k.name())).distinct().count();
    }

    /**
     * Number of distinct functions, kernels that exist only as PTX included: each device lists every function once,
     * as an image it runs, a JIT or a cannot-run note.
     */
    public long allFunctionCount() {
        // issue 11: every writer asks (the text report twice); a model's records come sorted by library and name, so
        // the distinct functions are counted along them, and only the functions a device lists apart from its images
        // (a JIT or cannot-run note, a computed JIT frame) are looked up among them
        long sorted = sortedDistinct(kernels);
        Set<Function> extra = new HashSet<>();
        Set<Function> all = sorted >= 0 ? null : new HashSet<>(kernels.size() * 2);
        if (all != null) {
            for (KernelRow k : kernels) {
                all.add(new Function(k.library(), k.name()));
            }
        }
        for (DeviceReport device : devices) {
            // a function a device JIT-compiles whose frame was computed (ptxas) is a selected kernel, not a note; an
            // image it runs (static) is one of the records
            for (KernelRow k : device.selectedKernels()) {
                if (!KernelRow.STATIC.equals(k.frameSource())) {
                    addUnlisted(extra, all, k.library(), k.name());
                }
            }
            device.jit().forEach(n -> addUnlisted(extra, all, n.library(), n.name()));
            device.cannotRun().forEach(n -> addUnlisted(extra, all, n.library(), n.name()));
        }
        return (sorted >= 0 ? sorted : all.size()) + extra.size();
    }

    private record Function(String library, String name) {
    }

    private void addUnlisted(Set<Function> extra, Set<Function> all, String library, String name) {
        Function function = new Function(library, name);
        if (all != null ? !all.contains(function) : !sortedContains(kernels, library, name)) {
            extra.add(function);
        }
    }

    /** The distinct (library, name) pairs of rows sorted by library then name, or -1 when they are not so sorted. */
    private static long sortedDistinct(List<KernelRow> rows) {
        long count = 0;
        KernelRow previous = null;
        for (KernelRow row : rows) {
            int order = previous == null ? -1 : compare(previous.library(), previous.name(), row);
            if (order > 0) {
                return -1;
            }
            if (order < 0) {
                count++;
            }
            previous = row;
        }
        return count;
    }

    private static int compare(String library, String name, KernelRow row) {
        int byLibrary = library.compareTo(row.library());
        return byLibrary != 0 ? byLibrary : name.compareTo(row.name());
    }

    /** Whether rows sorted by library then name hold the function (binary search). */
    private static boolean sortedContains(List<KernelRow> rows, String library, String name) {
        int low = 0;
        int high = rows.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int order = compare(library, name, rows.get(middle));
            if (order == 0) {
                return true;
            }
            if (order < 0) {
                high = middle - 1;
            } else {
                low = middle + 1;
            }
        }
        return false;
    }

    /** True when no SASS record was found (the pages' "no CUDA kernels"). */
    public boolean noKernels() {
        return kernels.isEmpty();
    }

    /** True when no file held device code at all: no SASS record and no PTX kernel. */
    public boolean noDeviceCode() {
        return kernels.isEmpty() && allFunctionCount() == 0;
    }

    /** Every embedded SASS arch of every library, ascending by the label's numeric order. */
    public SortedSet<String> sassArches() {
        SortedSet<String> arches = new TreeSet<>(ReportModel::compareArches);
        libraries.forEach(library -> arches.addAll(library.sassArches()));
        return arches;
    }

    /** The arches of the kernel records (those with at least one function), in the arch order. */
    public List<String> recordArches() {
        return kernels.stream().map(KernelRow::arch).distinct().sorted(ReportModel::byArch)
                .toList();
    }

    /** The violations of one device. */
    public List<ViolationReport> violationsOf(String device) {
        return violations.stream().filter(v -> v.device().equals(device)).toList();
    }

    /** The device of this name, or null. */
    public DeviceReport device(String name) {
        return devices.stream().filter(device -> device.name().equals(name)).findFirst().orElse(null);
    }

    /** Orders {@code sm_89} before {@code sm_90} before {@code sm_90a} before {@code sm_100}. */
    static int compareArches(String a, String b) {
        int byNumber = compareNumbers(archNumber(a), archNumber(b));
        return byNumber != 0 ? byNumber : a.compareTo(b);
    }

    /** The label's digits without leading zeros ("" for none): compared by length, then by digit, never parsed. */
    private static String archNumber(String label) {
        // a loop, not replaceAll (issue 11: a regular expression compiled per comparison, in a cold run, cost tens of
        // milliseconds of each report that sorts arches)
        StringBuilder digits = new StringBuilder(4);
        for (int i = 0; i < label.length(); i++) {
            char c = label.charAt(i);
            if (c >= '0' && c <= '9' && (c != '0' || digits.length() > 0)) {
                digits.append(c);
            }
        }
        return digits.toString();
    }

    private static int compareNumbers(String a, String b) {
        return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }

    /** The arch order of two labels ({@code sm_90 < sm_90f < sm_90a}); labels that are no arch by their numbers. */
    private static int byArch(String a, String b) {
        try {
            return GpuArch.parse(a).compareTo(GpuArch.parse(b));
        } catch (InvalidValueException e) {
            return compareArches(a, b);
        }
    }

    /** Distinct files of the libraries: a file on disk, or a JAR entry of the JAR file. */
    private static long filesOf(List<LibraryReport> libraries) {
        return libraries.stream().map(library -> library.path() + "\u0000" + library.fileLabel()).distinct().count();
    }
}
