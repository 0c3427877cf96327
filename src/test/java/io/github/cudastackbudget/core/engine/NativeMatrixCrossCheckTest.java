package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.model.KernelRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.engine.BuildLog.LoggedFunction;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every binary of the native-reader matrix ({@code target/native-matrix}, built by
 * {@code src/test/cuda/build-native-matrix.sh}) with {@link NativeEngine} and checks every figure against the
 * {@code -Xptxas -v} / {@code -Xnvlink -v} logs of the same build (cuda-binary-format.md 4.5, 4.7, 4.8), and against
 * the figures the kernels were designed to have ({@link MatrixDesign}), so that a wrong log and a wrong engine cannot
 * agree. Each figure is one dynamic test named {@code binary | arch | function | FIELD}.
 *
 * <p>The mapping checked:
 * <ul>
 *   <li>REG = {@code Used N registers} (ptxas) or nvlink's {@code used N registers} for kernels; device functions
 *       listed in relocatable or debug code carry the top byte of their {@code .text} section's {@code sh_info},
 *       which ptxas does not print: 0 from sm_90 on, the register count (non-zero) below;</li>
 *   <li>STACK = {@code N bytes cumulative stack size} (0 when absent) in whole-program code; nvlink's {@code N stack}
 *       after device linking; 0 for every function of an {@code -rdc} object (no MIN_STACK_SIZE in relocatable
 *       cubins) and for device functions; UNKNOWN exactly where ptxas or nvlink warned that the stack "cannot be
 *       statically determined";</li>
 *   <li>SHARED = {@code N bytes smem} + 1024 on sm_90 and newer (the system-reserved shared memory the cubin counts)
 *       for kernels with static shared memory, 0 for the others (no {@code .nv.shared.<f>} section); in relocatable
 *       objects the reservation is not yet added; after linking it is the objects' smem + 1024;</li>
 *   <li>LOCAL = 0 (nvlink {@code 0 bytes lmem});</li>
 *   <li>arch labels with their a/f variants exactly as built; bare cubins cannot record the f variant (4.1), so
 *       {@code matrix_sm_100f.cubin} reads as sm_100;</li>
 *   <li>function sets: the kernels the logs name (plus, where device functions are listed, the logged device
 *       functions and nvcc's own {@code __cuda_sm*} helpers, which ptxas does not describe);</li>
 *   <li>the six compression modes give identical records; the PTX-only library gives no SASS records and the PTX
 *       entry names; archives label their records {@code librdc.a(rdc_a.o)}.</li>
 * </ul>
 */
class NativeMatrixCrossCheckTest {

    private static final NativeEngine ENGINE = new NativeEngine(2);

    @TestFactory
    Stream<DynamicNode> everyFigureOfEveryBinaryMatchesTheBuildLogs() {
        return NativeMatrix.binaries().stream()
                .map(binary -> dynamicContainer(binary.path(), Stream.of(binary).flatMap(this::checks)));
    }

    @TestFactory
    Stream<DynamicNode> compressionModesGiveIdenticalRecords() {
        List<NativeMatrix.Binary> modes = NativeMatrix.COMPRESSION_MODES.stream()
                .flatMap(mode -> NativeMatrix.ofForm(mode).stream()).toList();
        assertEquals(NativeMatrix.COMPRESSION_MODES.size(), modes.size(), "one library per compression mode");
        NativeMatrix.Binary reference = modes.get(0);
        return modes.stream().skip(1).map(binary -> dynamicTest(binary.fileName() + " vs " + reference.fileName(), () -> {
            LibraryScan expected = read(reference);
            LibraryScan actual = read(binary);
            assertTrue(!expected.records().isEmpty(), reference + " has records");
            assertEquals(neutral(expected.records(), reference.fileName()), neutral(actual.records(), binary.fileName()),
                    binary + ": records differ from " + reference);
            assertEquals(expected.sassArchesOf(reference.fileName()), actual.sassArchesOf(binary.fileName()),
                    binary + ": SASS targets");
            assertEquals(expected.ptxArchesOf(reference.fileName()), actual.ptxArchesOf(binary.fileName()),
                    binary + ": PTX targets");
        }));
    }

    /**
     * Reproducer: {@code -G} entries carry the source path as given to nvcc, and their header grows with it
     * (0x40 + the path rounded up to 8). The native reader accepted only the header sizes seen so far (0x40 ... 0x70)
     * and failed on libmatrix_debug-longid.so (50-byte path, header 0x78), i.e. on any -G library built from a path
     * longer than about 40 bytes.
     */
    @TestFactory
    Stream<DynamicNode> debugBuildsReadTheSameWhateverTheSourcePathLength() {
        NativeMatrix.Binary reference = NativeMatrix.named("so/libmatrix_debug.so");
        NativeMatrix.Binary longId = NativeMatrix.named("so/libmatrix_debug-longid.so");
        return Stream.of(dynamicTest(longId.fileName() + " (entry header 0x78) vs " + reference.fileName(), () -> {
            LibraryScan expected = read(reference);
            LibraryScan actual = read(longId);
            assertTrue(!expected.records().isEmpty(), reference + " has records");
            assertEquals(neutral(expected.records(), reference.fileName()), neutral(actual.records(), longId.fileName()),
                    longId + ": records differ from " + reference);
        }));
    }

    @TestFactory
    Stream<DynamicNode> compressedAndUncompressedFatbinsGiveIdenticalRecords() {
        NativeMatrix.Binary plain = NativeMatrix.named("fatbin/matrix.fatbin");
        NativeMatrix.Binary compressed = NativeMatrix.named("fatbin/matrix_size.fatbin");
        return Stream.of(dynamicTest(compressed.fileName() + " vs " + plain.fileName(), () -> {
            LibraryScan expected = read(plain);
            assertTrue(!expected.records().isEmpty(), plain + " has records");
            assertEquals(neutral(expected.records(), plain.fileName()),
                    neutral(read(compressed).records(), compressed.fileName()), compressed + ": records differ");
        }));
    }

    /** The records as strings without the library label, in engine order. */
    private static List<String> neutral(List<KernelRecord> records, String label) {
        return records.stream().map(record -> {
            assertEquals(label, record.library(), "library label");
            return record.arch().sassLabel() + " " + record.name() + " REG:" + record.registers() + " STACK:"
                    + (record.stackUnknown() ? "UNKNOWN" : record.stack()) + " SHARED:" + record.shared() + " LOCAL:"
                    + record.local();
        }).toList();
    }

    // ------------------------------------------------------------------------------------------------ per binary

    private Stream<DynamicNode> checks(NativeMatrix.Binary binary) {
        LibraryScan scan = read(binary);
        List<DynamicNode> nodes = new ArrayList<>();
        switch (binary.form()) {
            case "cubin" -> {
                String arch = binary.sass().get(0);
                // a bare cubin does not record the f variant (cuda-binary-format.md 4.1)
                String label = arch.endsWith("f") ? arch.substring(0, arch.length() - 1) : arch;
                nodes.add(labels(binary, scan, List.of(binary.fileName())));
                nodes.add(sassTargets(binary, scan, binary.fileName(), List.of(label)));
                nodes.addAll(wholeProgram(binary, scan, binary.fileName(), Map.of(arch, label)));
            }
            case "rdc-object" -> {
                nodes.add(labels(binary, scan, List.of(binary.fileName())));
                nodes.add(sassTargets(binary, scan, binary.fileName(), binary.sass()));
                nodes.addAll(relocatable(binary, scan, binary.fileName(), binary.readLogs().get(0)));
            }
            case "rdc-archive" -> {
                List<String> members = List.of("librdc.a(rdc_a.o)", "librdc.a(rdc_b.o)");
                nodes.add(labels(binary, scan, members));
                List<BuildLog> logs = binary.readLogs();
                for (int i = 0; i < members.size(); i++) {
                    nodes.add(sassTargets(binary, scan, members.get(i), binary.sass()));
                    nodes.addAll(relocatable(binary, scan, members.get(i), logs.get(i)));
                }
            }
            case "rdc-linked" -> {
                nodes.add(labels(binary, scan, List.of(binary.fileName())));
                nodes.add(sassTargets(binary, scan, binary.fileName(), binary.sass()));
                nodes.addAll(linked(binary, scan));
            }
            case "so-ptx-only" -> {
                nodes.add(labels(binary, scan, List.of(binary.fileName())));
                nodes.add(check(binary, "-", "-", "SASS records", 0, scan.records().size(), "PTX-only: no SASS"));
                nodes.add(sassTargets(binary, scan, binary.fileName(), List.of()));
            }
            default -> { // so-<mode>, so-mixed, so-debug, fatbin: whole-program code with SASS targets as built
                Map<String, String> arches = new LinkedHashMap<>();
                binary.sass().forEach(arch -> arches.put(arch, arch));
                nodes.add(labels(binary, scan, List.of(binary.fileName())));
                nodes.add(sassTargets(binary, scan, binary.fileName(), binary.sass()));
                nodes.addAll(wholeProgram(binary, scan, binary.fileName(), arches));
            }
        }
        nodes.addAll(ptx(binary, scan));
        return nodes.stream();
    }

    private static LibraryScan read(NativeMatrix.Binary binary) {
        try {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(binary.file());
            assertTrue(probe.hasDeviceCode(), binary + ": the detector finds device code (" + probe.detail() + ")");
            return ENGINE.read(probe);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (EngineException e) {
            throw new AssertionError(binary + ": the native engine failed: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------------------------------------ whole program

    /** Kernels compiled in whole-program mode: ptxas entries, cumulative stack, smem (+1 KiB from sm_90). */
    private List<DynamicNode> wholeProgram(NativeMatrix.Binary binary, LibraryScan scan, String library,
            Map<String, String> builtToLabel) {
        BuildLog log = binary.readLogs().get(0);
        boolean debug = binary.form().equals("so-debug");
        List<DynamicNode> nodes = new ArrayList<>();
        assertEquals(builtToLabel.keySet(), log.arches(), binary + ": the log describes the targets as built");
        for (Map.Entry<String, String> target : builtToLabel.entrySet()) {
            String arch = target.getValue();
            Map<String, List<KernelRecord>> records = recordsOf(binary, scan, library, arch);
            List<LoggedFunction> logged = log.functionsOf(target.getKey());
            Set<String> expectedNames = names(logged, !debug);
            nodes.add(functionSet(binary, arch, expectedNames, records.keySet(), debug
                    ? "ptxas -G: entries and device functions (each in its own .text section)"
                    : "ptxas entries (callees are copied into the kernels)"));
            for (LoggedFunction function : logged) {
                KernelRecord record = single(binary, arch, records, function.name());
                if (!expectedNames.contains(function.name()) || record == null) {
                    continue;
                }
                if (function.entry()) {
                    nodes.addAll(entry(binary, arch, record, function.registers().orElseThrow(), "ptxas Used N registers",
                            function.stack(), "ptxas cumulative stack size", function.stackUndetermined(),
                            MatrixDesign.sharedWithReservation(arch, function.smem()), "ptxas smem (+ 1024 reserved from sm_90 when non-zero)"));
                    nodes.addAll(designed(binary, arch, record, debug, false));
                } else {
                    nodes.addAll(deviceFunction(binary, arch, record));
                }
            }
            nodes.addAll(helpers(binary, arch, records, expectedNames, debug));
            if (!debug) {
                nodes.add(divisionHelpers(binary, arch, records, 0,
                        "whole-program code copies the helper into the kernel's own .text"));
            }
        }
        return nodes;
    }

    // ------------------------------------------------------------------------------------------------ -rdc objects

    /** Relocatable cubins: entries and device functions, STACK 0, SHARED without the reservation. */
    private List<DynamicNode> relocatable(NativeMatrix.Binary binary, LibraryScan scan, String library, BuildLog log) {
        List<DynamicNode> nodes = new ArrayList<>();
        assertEquals(Set.copyOf(binary.sass()), log.arches(), binary + ": the log describes the targets as built");
        for (String arch : binary.sass()) {
            Map<String, List<KernelRecord>> records = recordsOf(binary, scan, library, arch);
            List<LoggedFunction> logged = log.functionsOf(arch);
            Set<String> expectedNames = names(logged, false);
            nodes.add(functionSet(library, arch, expectedNames, records.keySet(),
                    "ptxas -rdc: entries and device functions"));
            for (LoggedFunction function : logged) {
                KernelRecord record = single(binary, arch, records, function.name());
                if (record == null) {
                    continue;
                }
                if (function.entry()) {
                    nodes.addAll(entry(library, arch, record, function.registers().orElseThrow(),
                            "ptxas Used N registers", 0, "relocatable cubin: no MIN_STACK_SIZE", false,
                            function.smem(), "ptxas smem (reservation added only by nvlink)"));
                } else {
                    nodes.addAll(deviceFunction(library, arch, record));
                }
            }
            nodes.addAll(helpers(library, arch, records, expectedNames, true));
            nodes.add(divisionHelpers(library, arch, records, 1, "one 64-bit division kernel per object"));
        }
        return nodes;
    }

    // ------------------------------------------------------------------------------------------------ nvlink output

    /** The device-linked library: nvlink's registers and stacks, UNKNOWN where it warned; objects' smem + 1 KiB. */
    private List<DynamicNode> linked(NativeMatrix.Binary binary, LibraryScan scan) {
        List<BuildLog> logs = binary.readLogs();
        BuildLog nvlink = logs.get(0);
        List<DynamicNode> nodes = new ArrayList<>();
        assertEquals(Set.copyOf(binary.sass()), nvlink.arches(), binary + ": nvlink linked the targets as built");
        for (String arch : binary.sass()) {
            Map<String, List<KernelRecord>> records = recordsOf(binary, scan, binary.fileName(), arch);
            List<LoggedFunction> objectFunctions = logs.subList(1, logs.size()).stream()
                    .flatMap(log -> log.functionsOf(arch).stream()).toList();
            Set<String> expectedNames = new TreeSet<>(names(nvlink.functionsOf(arch), true));
            objectFunctions.stream().filter(function -> !function.entry()).forEach(f -> expectedNames.add(f.name()));
            nodes.add(functionSet(binary, arch, expectedNames, records.keySet(),
                    "nvlink kernels and the objects' device functions"));
            for (LoggedFunction kernel : nvlink.functionsOf(arch)) {
                KernelRecord record = single(binary, arch, records, kernel.name());
                if (record == null) {
                    continue;
                }
                LoggedFunction compiled = objectFunctions.stream().filter(f -> f.entry() && f.name().equals(kernel.name()))
                        .findFirst().orElseThrow(() -> new AssertionError(kernel.name() + " not in the objects' logs"));
                nodes.addAll(entry(binary, arch, record, kernel.registers().orElseThrow(), "nvlink used N registers",
                        kernel.stack(), "nvlink N stack", kernel.stackUndetermined(),
                        MatrixDesign.sharedWithReservation(arch, compiled.smem()), "object's ptxas smem (+ 1024 reserved from sm_90 when non-zero)"));
                nodes.add(check(binary, arch, kernel.name(), "LOCAL", kernel.lmem().orElseThrow(), record.local(),
                        "nvlink N bytes lmem"));
                nodes.addAll(designed(binary, arch, record, false, true));
            }
            for (LoggedFunction function : objectFunctions) {
                KernelRecord record = single(binary, arch, records, function.name());
                if (!function.entry() && record != null) {
                    nodes.addAll(deviceFunction(binary, arch, record));
                }
            }
            nodes.addAll(helpers(binary, arch, records, expectedNames, true));
            nodes.add(divisionHelpers(binary, arch, records, 2,
                    "each object's own copy, kept apart by nvlink (same name twice)"));
        }
        return nodes;
    }

    // ------------------------------------------------------------------------------------------------ PTX

    /** PTX targets as built and, for each, the kernels of the PTX text (the same as ptxas compiled for SASS). */
    private List<DynamicNode> ptx(NativeMatrix.Binary binary, LibraryScan scan) {
        List<DynamicNode> nodes = new ArrayList<>();
        for (String library : scan.libraries()) {
            List<String> actualTargets = scan.ptxArchesOf(library).stream().map(GpuArch::ptxLabel).toList();
            nodes.add(check(library, "-", "-", "PTX targets", binary.ptx(), actualTargets,
                    "nvcc -gencode code=compute_XX as built"));
        }
        if (binary.ptx().isEmpty()) {
            return nodes;
        }
        // only libraries of matrix.cu carry PTX; the PTX-only one has no ptxas log, its sm_90 cubin's log names the same
        assertTrue(scan.ptxEntriesKnown(), "the native engine sees PTX entry names");
        Set<String> logged = names((binary.logs().isEmpty() ? NativeMatrix.named("cubin/matrix_sm_90.cubin") : binary)
                .readLogs().get(0).functions(), true);
        for (String target : binary.ptx()) {
            Set<String> actual = new TreeSet<>(scan.ptxEntriesOf(binary.fileName(), GpuArch.parse(target)));
            nodes.add(check(binary, target, "-", "PTX entries", new TreeSet<>(logged), actual,
                    "the kernels ptxas compiled from the same source"));
            nodes.add(check(binary, target, "-", "PTX entries (designed)", new TreeSet<>(MatrixDesign.MATRIX_KERNELS),
                    actual, "the kernels of matrix.cu"));
        }
        return nodes;
    }

    // ------------------------------------------------------------------------------------------------ figures

    private List<DynamicNode> entry(Object binary, String arch, KernelRecord record, int registers, String regSource,
            long stack, String stackSource, boolean undetermined, long shared, String sharedSource) {
        String name = record.name();
        return List.of(
                check(binary, arch, name, "REG", registers, record.registers(), regSource),
                check(binary, arch, name, "STACK", undetermined ? "UNKNOWN" : stack, stackFigure(record),
                        undetermined ? "'Stack size ... cannot be statically determined'" : stackSource),
                check(binary, arch, name, "SHARED", shared, record.shared(), sharedSource),
                check(binary, arch, name, "LOCAL", 0L, record.local(), "CUDA 13 emits no .nv.local sections"));
    }

    /** A device function listed in its own section: no stack record, no shared memory, the sh_info register byte. */
    private List<DynamicNode> deviceFunction(Object binary, String arch, KernelRecord record) {
        String name = record.name();
        boolean sm90OrNewer = MatrixDesign.smNumber(arch) >= 90;
        return List.of(
                sm90OrNewer
                        ? check(binary, arch, name, "REG", 0, record.registers(), "device function: sh_info top byte is 0 from sm_90")
                        : condition(binary, arch, name, "REG", "> 0", record.registers(), record.registers() > 0,
                                "device function: sh_info top byte holds the register count below sm_90"),
                check(binary, arch, name, "STACK", 0L, stackFigure(record), "device functions have no MIN_STACK_SIZE"),
                check(binary, arch, name, "SHARED", 0L, record.shared(), "device function"),
                check(binary, arch, name, "LOCAL", 0L, record.local(), "CUDA 13 emits no .nv.local sections"));
    }

    /** nvcc's own helpers (__cuda_sm20_div_s64 ...): listed where device functions are, not described by ptxas. */
    private List<DynamicNode> helpers(Object binary, String arch, Map<String, List<KernelRecord>> records,
            Set<String> expected, boolean devicesListed) {
        List<DynamicNode> nodes = new ArrayList<>();
        records.forEach((name, copies) -> {
            if (!expected.contains(name) && devicesListed && isNvccHelper(name)) {
                copies.forEach(record -> nodes.addAll(deviceFunction(binary, arch, record)));
            }
        });
        return nodes;
    }

    /** How many functions named like nvcc's 64-bit division helper one image lists. */
    private DynamicNode divisionHelpers(Object binary, String arch, Map<String, List<KernelRecord>> records,
            int expected, String source) {
        return check(binary, arch, MatrixDesign.DIVISION_HELPER, "copies (designed)", expected,
                records.getOrDefault(MatrixDesign.DIVISION_HELPER, List.of()).size(), source);
    }

    /** The figures the sources were written to have, whatever the logs say. */
    private List<DynamicNode> designed(Object binary, String arch, KernelRecord record, boolean debug, boolean linked) {
        List<DynamicNode> nodes = new ArrayList<>();
        String name = record.name();
        Long minimum = (linked ? MatrixDesign.MIN_LINKED_STACK : MatrixDesign.MIN_STACK).get(name);
        if (minimum != null) {
            nodes.add(condition(binary, arch, name, "STACK (designed)", ">= " + minimum, stackFigure(record),
                    !record.stackUnknown() && record.stack() >= minimum, "volatile local arrays of the source"));
        }
        if (MatrixDesign.NO_STACK.contains(name)) {
            nodes.add(condition(binary, arch, name, "STACK (designed)", "0", stackFigure(record),
                    !record.stackUnknown() && record.stack() == 0, "no local memory, no call"));
        }
        Long shared = MatrixDesign.STATIC_SHARED.get(name);
        long expectedShared = MatrixDesign.sharedWithReservation(arch, shared == null ? 0 : shared);
        nodes.add(check(binary, arch, name, "SHARED (designed)", expectedShared, record.shared(),
                "static __shared__ arrays of the source (+ 1024 from sm_90 when non-zero)"));
        boolean unknown = name.equals("r_cross_recursive") || (debug && name.equals("m_recursive"));
        nodes.add(check(binary, arch, name, "STACK UNKNOWN (designed)", unknown, record.stackUnknown(),
                "cross-file recursion after nvlink, or recursion under -G"));
        return nodes;
    }

    // ------------------------------------------------------------------------------------------------ structure

    private DynamicNode labels(NativeMatrix.Binary binary, LibraryScan scan, List<String> expected) {
        return check(binary, "-", "-", "library labels", expected, scan.libraries(), "file name, archive(member)");
    }

    private DynamicNode sassTargets(NativeMatrix.Binary binary, LibraryScan scan, String library, List<String> expected) {
        List<String> actual = scan.sassArchesOf(library).stream().map(GpuArch::sassLabel).toList();
        return check(library, "-", "-", "SASS targets", new TreeSet<>(expected), new TreeSet<>(actual),
                "nvcc -gencode code=sm_XX as built");
    }

    private DynamicNode functionSet(Object binary, String arch, Set<String> expected, Set<String> actual, String source) {
        Set<String> actualWithoutHelpers = actual.stream().filter(name -> expected.contains(name) || !isNvccHelper(name))
                .collect(Collectors.toCollection(TreeSet::new));
        return check(binary, arch, "-", "functions", new TreeSet<>(expected), actualWithoutHelpers, source);
    }

    /** The records of one library and target by function name (nvcc's helpers may be listed several times). */
    private static Map<String, List<KernelRecord>> recordsOf(NativeMatrix.Binary binary, LibraryScan scan,
            String library, String arch) {
        Map<String, List<KernelRecord>> byName = new LinkedHashMap<>();
        for (KernelRecord record : scan.records()) {
            if (record.library().equals(library) && record.arch().sassLabel().equals(arch)) {
                byName.computeIfAbsent(record.name(), name -> new ArrayList<>()).add(record);
            }
        }
        return byName;
    }

    /** The only record of a function the logs name; null when absent (the function-set check reports it). */
    private static KernelRecord single(Object binary, String arch, Map<String, List<KernelRecord>> records, String name) {
        List<KernelRecord> copies = records.get(name);
        if (copies != null && copies.size() > 1) {
            throw new AssertionError(label(binary) + " " + arch + ": function " + name + " listed " + copies.size()
                    + " times");
        }
        return copies == null ? null : copies.get(0);
    }

    private static Set<String> names(List<LoggedFunction> functions, boolean entriesOnly) {
        return functions.stream().filter(function -> function.entry() || !entriesOnly).map(LoggedFunction::name)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static boolean isNvccHelper(String name) {
        return name.matches("__cuda_sm\\d+_\\w+");
    }

    private static Object stackFigure(KernelRecord record) {
        return record.stackUnknown() ? "UNKNOWN" : record.stack();
    }

    private static DynamicNode check(Object binary, String arch, String function, String field, Object expected,
            Object actual, String source) {
        return dynamicTest(name(binary, arch, function, field), () -> assertEquals(normalise(expected), normalise(actual),
                () -> message(binary, arch, function, field, String.valueOf(expected), actual, source)));
    }

    private static DynamicNode condition(Object binary, String arch, String function, String field, String expected,
            Object actual, boolean holds, String source) {
        return dynamicTest(name(binary, arch, function, field),
                () -> assertTrue(holds, () -> message(binary, arch, function, field, expected, actual, source)));
    }

    private static Object normalise(Object value) {
        return value instanceof Integer number ? Long.valueOf(number) : value;
    }

    private static String name(Object binary, String arch, String function, String field) {
        return label(binary) + " | " + arch + " | " + function + " | " + field;
    }

    private static String message(Object binary, String arch, String function, String field, String expected,
            Object actual, String source) {
        return label(binary) + " " + arch + " " + function + " " + field + ": expected " + expected + " (" + source
                + ") but the native engine read " + actual;
    }

    private static String label(Object binary) {
        return binary instanceof NativeMatrix.Binary b ? b.fileName() : Objects.toString(binary);
    }
}
