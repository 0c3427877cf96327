package io.github.cudastackbudget.core.report.records;

import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.FunctionNote;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's records grouped by function, as the JSON report (schema 2) and the page's data block list them: each
 * run of records of one function (library, mangled and readable name) becomes one function with its images, in the
 * model's order, so that the records read back in the same order; then the functions that only the devices' notes
 * name (PTX only), without images. Library labels get indexes in the order they first appear.
 */
public final class ReportFunctions {

    /**
     * One function.
     *
     * @param libraryIndex its library label's index in {@link #libraryLabels()}
     * @param library      the library label
     * @param name         the mangled name
     * @param displayName  the readable name
     * @param first        the position of its first record in {@link #rows()}
     * @param end          the position after its last record ({@code first} when it has none)
     */
    public record Function(int libraryIndex, String library, String name, String displayName, int first, int end) {
    }

    private final List<KernelRow> rows;
    private final List<Function> functions = new ArrayList<>();
    private final Map<String, Integer> labels = new LinkedHashMap<>();
    /**
     * Each record's first position, by identity: the model's devices list the very rows of its records (issue 11:
     * hashing 130k rows by their twelve components was most of this class's time in a cold check).
     */
    private final Map<KernelRow, Integer> positions;
    /** The same by equality, made only when a row that is none of the records' instances is looked up. */
    private Map<KernelRow, Integer> byEquality;
    /** Per position, the first position of its function's run: equal rows are rows of one function. */
    private final int[] runStart;
    /** Whether a function's records come in more than one run (an unsorted model): equality decides alone. */
    private boolean split;
    private final Map<String, Integer> byName = new HashMap<>();

    private ReportFunctions(List<KernelRow> rows) {
        this.rows = rows;
        this.positions = new java.util.IdentityHashMap<>(rows.size());
        this.runStart = new int[rows.size()];
    }

    /** The functions of a report: its records, then the functions its notes name that have no record. */
    public static ReportFunctions of(ReportModel model) {
        ReportFunctions functions = new ReportFunctions(model.kernels());
        functions.group();
        for (DeviceReport device : model.devices()) {
            functions.addNotes(device.ambiguous());
            functions.addNotes(device.jit());
            functions.addNotes(device.cannotRun());
            if (device.launched() != null) {
                functions.addNotes(device.launched().jit());
                functions.addNotes(device.launched().cannotRun());
            }
        }
        return functions;
    }

    /** The records of the report only (the page's table has no PTX-only functions). */
    public static ReportFunctions ofRecords(List<KernelRow> rows) {
        ReportFunctions functions = new ReportFunctions(rows);
        functions.group();
        return functions;
    }

    private void group() {
        int first = 0;
        for (int i = 0; i < rows.size(); i++) {
            KernelRow row = rows.get(i);
            positions.putIfAbsent(row, i);
            runStart[i] = first;
            KernelRow next = i + 1 < rows.size() ? rows.get(i + 1) : null;
            if (next == null || !next.name().equals(row.name()) || !next.library().equals(row.library())
                    || !next.displayName().equals(row.displayName())) {
                add(row.library(), row.name(), row.displayName(), first, i + 1);
                first = i + 1;
            }
        }
    }

    private void add(String library, String name, String displayName, int first, int end) {
        Integer label = labels.get(library);
        if (label == null) {
            label = labels.size();
            labels.put(library, label);
        }
        if (byName.putIfAbsent(key(library, name), functions.size()) != null && first < end) {
            split = true;
        }
        functions.add(new Function(label, library, name, displayName, first, end));
    }

    private void addNotes(List<FunctionNote> notes) {
        for (FunctionNote note : notes) {
            if (!byName.containsKey(key(note.library(), note.name()))) {
                add(note.library(), note.name(), note.displayName(), rows.size(), rows.size());
            }
        }
    }

    private static String key(String library, String name) {
        return library + '\u0000' + name;
    }

    /** The functions, in order. */
    public List<Function> list() {
        return functions;
    }

    /** The records, in the model's order (the functions' images, one after the other). */
    public List<KernelRow> rows() {
        return rows;
    }

    /** The distinct library labels, in the order the functions first name them. */
    public List<String> libraryLabels() {
        return List.copyOf(labels.keySet());
    }

    /** The position of the first record equal to {@code row}, or -1 when it is none of the records. */
    public int positionOf(KernelRow row) {
        Integer position = split ? null : positions.get(row);
        if (position != null) {
            // an equal row can only be an earlier one of the same run
            for (int i = runStart[position]; i < position; i++) {
                if (rows.get(i).equals(row)) {
                    return i;
                }
            }
            return position;
        }
        if (byEquality == null) {
            byEquality = new HashMap<>(rows.size() * 2);
            for (int i = 0; i < rows.size(); i++) {
                byEquality.putIfAbsent(rows.get(i), i);
            }
        }
        position = byEquality.get(row);
        return position == null ? -1 : position;
    }

    /** The index of the function a note names (every note of the report's devices has one). */
    public int indexOf(FunctionNote note) {
        Integer index = byName.get(key(note.library(), note.name()));
        if (index == null) {
            throw new IllegalArgumentException("no function " + note.name() + " in " + note.library());
        }
        return index;
    }
}
