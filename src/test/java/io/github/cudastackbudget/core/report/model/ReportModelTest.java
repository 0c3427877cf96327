package io.github.cudastackbudget.core.report.model;

import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NCCL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.engine.ResourceUsageParser;
import io.github.cudastackbudget.core.report.RecordedChecks;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model read back from the JSON of real recorded runs carries the figures the check computed. */
class ReportModelTest {

    private static final String PRESETS = "h200-141gb,l4,rtx-5090,v100-sxm2-16gb";

    @TempDir
    static Path tmp;

    private static CheckRunner.Outcome all;
    private static ReportModel model;

    @BeforeAll
    static void checkAllRecordedLibraries() throws Exception {
        all = RecordedChecks.run(RecordedChecks.allLibraries(tmp.resolve("all"), PRESETS, "256 MiB", null));
        model = ReportModel.read(tmp.resolve("all").resolve("out").resolve("cuda-stack-budget.json"));
    }

    /**
     * The table's order is that of one stable sort of every record by library, name, arch and frame (issue 11: only
     * each function's images are sorted now, the functions taken in the index's order).
     */
    @Test
    void kernelsAreInLibraryNameArchFrameOrderAsOneStableSortWouldPutThem() {
        CheckResult result = all.result();
        List<KernelRecord> records = new java.util.ArrayList<>();
        result.index().imagesByFunction().values().forEach(records::addAll);
        records.sort(java.util.Comparator.comparing(KernelRecord::library).thenComparing(KernelRecord::name)
                .thenComparing(KernelRecord::arch).thenComparingLong(KernelRecord::stackForRanking));
        List<KernelRow> rows = ReportModel.of(result).kernels();
        assertThat(rows.stream().map(ReportModelTest::key).toList())
                .isEqualTo(records.stream().map(ReportModelTest::key).toList());
        assertThat(result.index().imagesByFunction().values().stream().anyMatch(images -> images.size() > 2))
                .as("functions with several images").isTrue();
    }

    private static String key(KernelRecord record) {
        return record.library() + " " + record.name() + " " + record.arch().sassLabel() + " "
                + (record.stackUnknown() ? "UNKNOWN" : record.stack()) + " " + record.registers() + " "
                + record.shared() + " " + record.local();
    }

    private static String key(KernelRow row) {
        return row == null ? null : row.library() + " " + row.name() + " " + row.arch() + " "
                + (row.stackUnknown() ? "UNKNOWN" : row.stack()) + " " + row.registers() + " " + row.shared() + " "
                + row.local();
    }

    private static String keyOrNull(KernelRecord record) {
        return record == null ? null : key(record);
    }

    private static List<String> names(List<FunctionChoice> choices) {
        return choices.stream().map(choice -> choice.function().library() + " " + choice.function().name()).toList();
    }

    private static List<String> noteNames(List<FunctionNote> notes) {
        return notes.stream().map(note -> note.library() + " " + note.name()).toList();
    }

    @Test
    void everyDeviceFigureEqualsTheCheckResult() {
        CheckResult result = all.result();
        assertThat(model.devices()).hasSize(4);
        for (int i = 0; i < result.devices().size(); i++) {
            DeviceResult expected = result.devices().get(i);
            DeviceReport device = model.devices().get(i);
            String name = expected.device().name();
            assertThat(device.name()).isEqualTo(name);
            assertThat(device.computeCapability()).as(name).isEqualTo(expected.device().capability().dotted());
            assertThat(device.targetArch()).as(name).isEqualTo(expected.device().capability().smName());
            assertThat(device.maxResidentThreads()).as(name).isEqualTo(expected.device().maxResidentThreads());
            assertThat(device.memoryBytes()).as(name).isEqualTo(expected.device().memoryBytes());
            assertThat(device.figuresSource()).as(name).isEqualTo(expected.device().source());
            assertThat(device.status().id()).as(name).isEqualTo(expected.status().id());
            assertThat(device.skipReason()).as(name).isEqualTo(expected.skipReason());
            assertThat(device.chosenArch()).as(name)
                    .isEqualTo(expected.chosenArch() == null ? null : expected.chosenArch().sassLabel());
            assertThat(device.fellBack()).as(name).isEqualTo(expected.fellBack());
            assertThat(device.imageCounts()).as(name).isEqualTo(expected.imageCounts());
            assertThat(device.reservationBytes()).as(name).isEqualTo(expected.reservationBytes());
            assertThat(device.staticReservationBytes()).as(name).isEqualTo(expected.staticReservationBytes());
            assertThat(device.incrementBytes()).as(name).isEqualTo(expected.incrementBytes());
            assertThat(device.budgetBytes()).as(name).isEqualTo(expected.budgetBytes());
            assertThat(key(device.worstKernel())).as(name).isEqualTo(keyOrNull(expected.worst()));
            assertThat(key(device.worstLocalKernel())).as(name).isEqualTo(keyOrNull(expected.worstLocal()));
            assertThat(device.selectedKernels()).as(name).extracting(ReportModelTest::key)
                    .containsExactlyElementsOf(expected.selected().stream().map(ReportModelTest::key).toList());
            assertThat(device.unknownStack()).as(name).extracting(ReportModelTest::key)
                    .containsExactlyElementsOf(expected.unknownStack().stream().map(ReportModelTest::key).toList());
            assertThat(noteNames(device.jit())).as(name).isEqualTo(names(expected.jit()));
            assertThat(noteNames(device.cannotRun())).as(name).isEqualTo(names(expected.cannotRun()));
            assertThat(noteNames(device.ambiguous())).as(name).isEqualTo(names(expected.ambiguous()));
            assertThat(device.violations()).as(name).extracting(ViolationReport::kind, ViolationReport::actual,
                    ViolationReport::limit, ViolationReport::kernel).containsExactlyElementsOf(expected.violations()
                    .stream().map(v -> org.assertj.core.groups.Tuple.tuple(v.kind(), v.actual(), v.limit(),
                            v.kernel().name())).toList());
        }
        // the recordings are CUDA 12/13 builds: no sm_70 image, so the V100 is skipped with a reason
        DeviceReport v100 = model.devices().get(3);
        assertThat(v100.status()).isEqualTo(Verdict.SKIPPED);
        assertThat(v100.skipReason()).contains("no embedded SASS runs on sm_70");
        assertThat(v100.selectedKernels()).isEmpty();
        assertThat(v100.reservationIfWorstShrinksBytes()).isNull();
    }

    @Test
    void librariesKernelsAndCountsEqualTheCheckResult() {
        CheckResult result = all.result();
        assertThat(model.schemaVersion()).isEqualTo(2);
        assertThat(model.engine()).isEqualTo(result.engine());
        assertThat(model.filesProbed()).isEqualTo(result.filesProbed()).isEqualTo(4);
        assertThat(model.recordCount()).isEqualTo(result.index().recordCount());
        assertThat(model.functionCount()).isEqualTo(result.index().functionCount());
        assertThat(model.warnings()).isEqualTo(result.warnings());
        assertThat(model.violations()).hasSize(result.violations().size());
        assertThat(model.libraries()).extracting(LibraryReport::library)
                .containsExactlyElementsOf(RecordedCuobjdump.LIBRARIES);
        for (LibraryScan scan : result.scans()) {
            String library = scan.libraries().get(0);
            LibraryReport report = model.libraries().stream().filter(l -> l.library().equals(library)).findFirst()
                    .orElseThrow();
            List<KernelRecord> records = scan.records();
            assertThat(report.records()).as(library).isEqualTo(records.size());
            assertThat(report.kernels()).as(library)
                    .isEqualTo(records.stream().map(KernelRecord::name).distinct().count());
            assertThat(report.sassArches()).as(library).containsExactlyElementsOf(
                    scan.sassArchesOf(library).stream().map(a -> a.sassLabel()).toList());
            long maxStack = records.stream().filter(r -> !r.stackUnknown()).mapToLong(KernelRecord::stack).max()
                    .orElse(0);
            assertThat(report.maxStack()).as(library).isEqualTo(maxStack);
            if (maxStack > 0) {
                assertThat(report.worstKernel().stack()).as(library).isEqualTo(maxStack);
                assertThat(report.worstKernel().library()).isEqualTo(library);
            } else {
                assertThat(report.worstKernel()).as(library).isNull();
            }
            assertThat(report.usedBy()).isEqualTo("com.example:gpu-app:1.0");
        }
    }

    @Test
    void whatIfIsTheReservationOfTheNextWorstFrame() throws Exception {
        for (int i = 0; i < 3; i++) {
            DeviceResult expected = all.result().devices().get(i);
            DeviceReport device = model.devices().get(i);
            List<KernelRecord> known = expected.selected().stream().filter(r -> !r.stackUnknown()).toList();
            long nextFrame = known.size() > 1 ? known.get(1).stack() : 0;
            assertThat(device.nextWorstKernel().stack()).as(device.name()).isEqualTo(nextFrame);
            assertThat(device.reservationIfWorstShrinksBytes()).as(device.name())
                    .isEqualTo(expected.device().maxResidentThreads() * RecordedChecks.roundUp16(nextFrame));
            assertThat(device.savingIfWorstShrinksBytes()).isEqualTo(expected.staticReservationBytes()
                    - device.reservationIfWorstShrinksBytes());
        }
        // NCCL alone on an H200: the worst sm_90 frame is ncclDevKernel_SendRecv's 1976 B; the next is the largest
        // sm_90 frame of any other function in the recording (computed here from the recording itself)
        CheckRunner.Outcome nccl = RecordedChecks.run(RecordedChecks.options(tmp.resolve("nccl"), NCCL, "h200-141gb",
                List.of(), "256 MiB", ""));
        ReportModel ncclModel = ReportModel.read(nccl.reports().get(0));
        List<KernelRecord> records;
        try (BufferedReader reader = RecordedCuobjdump.open(NCCL)) {
            records = ResourceUsageParser.parse(NCCL, null, reader).records();
        }
        long next = records.stream().filter(r -> r.arch().sassLabel().equals("sm_90"))
                .filter(r -> !r.name().equals(RecordedChecks.SEND_RECV)).mapToLong(KernelRecord::stack).max()
                .orElseThrow();
        DeviceReport h200 = ncclModel.devices().get(0);
        assertThat(h200.worstKernel().name()).isEqualTo(RecordedChecks.SEND_RECV);
        assertThat(h200.worstKernel().displayName()).isEqualTo(RecordedChecks.SEND_RECV_DISPLAY);
        assertThat(h200.stackLimitBytes()).isEqualTo(1984);
        assertThat(h200.nextWorstKernel().stack()).isEqualTo(next);
        assertThat(h200.reservationIfWorstShrinksBytes()).isEqualTo(270_336L * RecordedChecks.roundUp16(next));
        assertThat(h200.headroomBytes()).isEqualTo(256L * 1024 * 1024 - 270_336L * 1984);
        assertThat(h200.percentOfBudget()).isEqualTo("199.8%");
        assertThat(h200.nearOrOverBudget(80)).isTrue();
        assertThat(h200.worstKernels(5)).hasSize(5).first().isEqualTo(h200.worstKernel());
        assertThat(h200.kernelsWithFrame()).allMatch(KernelRow::hasFrame);
    }

    @Test
    void theModelOfAResultEqualsTheModelReadFromItsFile() {
        assertThat(ReportModel.of(all.result())).isEqualTo(model);
    }

    @Test
    void selectedKernelsArePositionsInTheKernelList() throws Exception {
        DeviceReport h200 = model.devices().get(0);
        assertThat(IntStream.range(0, 10).mapToObj(i -> h200.selectedKernels().get(i)))
                .allMatch(row -> model.kernels().contains(row));
        assertThat(h200.selectedKernels().size()).isEqualTo(h200.imageCounts().values().stream()
                .mapToInt(Integer::intValue).sum());
    }

    @Test
    void aFileThatIsNoReportFailsWithOneLineNamingIt() throws Exception {
        Path missing = tmp.resolve("missing.json");
        assertThatThrownBy(() -> ReportModel.read(missing)).isInstanceOf(InvalidReportException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("run the check goal");

        Path garbage = Files.writeString(tmp.resolve("garbage.json"), "{\"schemaVersion\": 1, ");
        assertThatThrownBy(() -> ReportModel.read(garbage)).isInstanceOf(InvalidReportException.class)
                .hasMessageStartingWith(garbage + ": not valid JSON");

        String json = Files.readString(all.reports().get(0));
        Path future = Files.writeString(tmp.resolve("future.json"),
                json.replaceFirst("\"schemaVersion\": 2", "\"schemaVersion\": 3"));
        assertThatThrownBy(() -> ReportModel.read(future)).isInstanceOf(InvalidReportException.class)
                .hasMessageContaining(future + ": schemaVersion 3 is not supported (this version reads 1 and 2)");

        Path other = Files.writeString(tmp.resolve("other.json"), "{\"name\": \"package.json\"}");
        assertThatThrownBy(() -> ReportModel.read(other)).hasMessageContaining("no schemaVersion");

        Path badPosition = Files.writeString(tmp.resolve("bad-position.json"),
                json.replaceFirst("\"selectedKernels\": \\[\\d+", "\"selectedKernels\": [999999999"));
        assertThatThrownBy(() -> ReportModel.read(badPosition)).isInstanceOf(InvalidReportException.class)
                .hasMessageContaining("device 'h200-141gb': selectedKernels holds 999999999");

        Path badStatus = Files.writeString(tmp.resolve("bad-status.json"),
                json.replaceFirst("\"status\": \"fail\"", "\"status\": \"maybe\""));
        assertThatThrownBy(() -> ReportModel.read(badStatus)).isInstanceOf(InvalidReportException.class)
                .hasMessageContaining("status 'maybe' is not one of pass, fail, skipped");
    }

    @Test
    void functionCountsDoNotDependOnTheOrderOfTheRecords() {
        // issue 11: counted along the sorted records, with a fallback for records in any other order
        java.util.List<KernelRow> shuffled = new java.util.ArrayList<>(model.kernels());
        java.util.Collections.shuffle(shuffled, new java.util.Random(11));
        ReportModel unsorted = new ReportModel(model.schemaVersion(), model.engine(), model.deviceOrigin(),
                model.filesProbed(), model.libraries(), model.devices(), shuffled, model.violations(), model.warnings());
        long expected = model.kernels().stream().map(k -> k.library() + '\u0000' + k.name()).distinct().count();

        assertThat(model.functionCount()).isEqualTo(expected).isEqualTo(unsorted.functionCount());
        assertThat(model.allFunctionCount()).isGreaterThanOrEqualTo(expected)
                .isEqualTo(unsorted.allFunctionCount());
        // a function only a device note names (PTX only) counts once, whichever path counts it
        FunctionNote note = new FunctionNote("_Z7ptxOnlyv", "ptxOnly()", model.kernels().get(0).library(), "compute_90",
                null, List.of());
        DeviceReport first = model.devices().get(0);
        List<DeviceReport> noted = new java.util.ArrayList<>(model.devices());
        noted.set(0, withJit(first, List.of(note)));
        assertThat(new ReportModel(model.schemaVersion(), model.engine(), model.deviceOrigin(), model.filesProbed(),
                model.libraries(), noted, model.kernels(), model.violations(), model.warnings()).allFunctionCount())
                .isEqualTo(new ReportModel(model.schemaVersion(), model.engine(), model.deviceOrigin(),
                        model.filesProbed(), model.libraries(), noted, shuffled, model.violations(), model.warnings())
                        .allFunctionCount())
                .isEqualTo(model.allFunctionCount() + 1);
    }

    /** The device with other JIT notes: its record components copied through the canonical constructor. */
    private static DeviceReport withJit(DeviceReport device, List<FunctionNote> jit) {
        try {
            java.lang.reflect.RecordComponent[] components = DeviceReport.class.getRecordComponents();
            Object[] values = new Object[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = components[i].getName().equals("jit") ? jit : components[i].getAccessor().invoke(device);
            }
            return DeviceReport.class.getDeclaredConstructor(types).newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
