package io.github.cudastackbudget.core.report.records;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.report.model.KernelRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ReportFunctions#positionOf} looks rows up by identity first (issue 11); it must answer what the equality lookup
 * answered: the position of the first record equal to the row, for the records' own instances, for equal copies, for
 * duplicates within a function's run, for a model whose functions come in several runs, and -1 for no record.
 */
class ReportFunctionsPositionTest {

    private static KernelRow row(String name, String library, String arch, long stack) {
        return new KernelRow(name, name + "()", library, arch, 32, stack, false, 0, 0);
    }

    private static KernelRow copy(KernelRow row) {
        return new KernelRow(new String(row.name()), new String(row.displayName()), new String(row.library()),
                new String(row.arch()), row.registers(), row.stack(), row.stackUnknown(), row.shared(), row.local());
    }

    /** The former lookup: the first position of an equal row. */
    private static int expected(List<KernelRow> rows, KernelRow row) {
        Map<KernelRow, Integer> positions = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            positions.putIfAbsent(rows.get(i), i);
        }
        return positions.getOrDefault(row, -1);
    }

    @Test
    void identityCopiesAndDuplicatesWithinARun() {
        KernelRow a80 = row("_Z1av", "lib.so", "sm_80", 16);
        KernelRow a90 = row("_Z1av", "lib.so", "sm_90", 16);
        KernelRow a90again = copy(a90); // a second, equal image of the same function (two fatbins)
        KernelRow b90 = row("_Z1bv", "lib.so", "sm_90", 0);
        List<KernelRow> rows = List.of(a80, a90, a90again, b90);
        ReportFunctions functions = ReportFunctions.ofRecords(rows);
        assertThat(functions.positionOf(a80)).isZero();
        assertThat(functions.positionOf(a90)).isEqualTo(1);
        assertThat(functions.positionOf(a90again)).as("an equal earlier record").isEqualTo(1);
        assertThat(functions.positionOf(copy(b90))).as("an equal copy").isEqualTo(3);
        assertThat(functions.positionOf(row("_Z1cv", "lib.so", "sm_90", 0))).isEqualTo(-1);
    }

    @Test
    void aFunctionInSeveralRuns() {
        KernelRow a90 = row("_Z1av", "lib.so", "sm_90", 16);
        KernelRow b90 = row("_Z1bv", "lib.so", "sm_90", 0);
        KernelRow a90again = copy(a90);
        List<KernelRow> rows = List.of(a90, b90, a90again);
        ReportFunctions functions = ReportFunctions.ofRecords(rows);
        assertThat(functions.positionOf(a90again)).isZero();
        assertThat(functions.positionOf(b90)).isEqualTo(1);
    }

    @Test
    void randomModelsAnswerAsTheEqualityLookup() {
        Random random = new Random(5);
        for (int round = 0; round < 200; round++) {
            List<KernelRow> rows = new ArrayList<>();
            int functions = 1 + random.nextInt(6);
            boolean sorted = random.nextBoolean();
            for (int f = 0; f < functions; f++) {
                for (int image = 0, images = 1 + random.nextInt(4); image < images; image++) {
                    KernelRow made = row("_Z" + f + "v", "lib" + (f % 2) + ".so", "sm_" + (80 + 10 * random.nextInt(2)),
                            16 * random.nextInt(2));
                    rows.add(!rows.isEmpty() && random.nextInt(4) == 0 ? copy(rows.get(random.nextInt(rows.size())))
                            : made);
                }
            }
            if (sorted) {
                rows.sort(java.util.Comparator.comparing(KernelRow::library).thenComparing(KernelRow::name));
            }
            ReportFunctions grouped = ReportFunctions.ofRecords(rows);
            List<KernelRow> asked = new ArrayList<>(rows);
            rows.forEach(row -> asked.add(copy(row)));
            asked.add(row("_Z99v", "lib0.so", "sm_90", 0));
            for (KernelRow row : asked) {
                assertThat(grouped.positionOf(row)).as("round %d, %s", round, row).isEqualTo(expected(rows, row));
            }
        }
    }
}
