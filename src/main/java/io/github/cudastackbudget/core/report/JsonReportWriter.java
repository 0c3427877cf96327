package io.github.cudastackbudget.core.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.BaselineReport;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.records.ReportFunctions;
import io.github.cudastackbudget.core.report.model.FunctionNote;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.LaunchEntry;
import io.github.cudastackbudget.core.report.model.DriverDifferenceRow;
import io.github.cudastackbudget.core.report.model.DriverFrameRow;
import io.github.cudastackbudget.core.report.model.LaunchedDeviceReport;
import io.github.cudastackbudget.core.report.model.LaunchedKernelRow;
import io.github.cudastackbudget.core.report.model.LaunchedRunReport;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.PlatformReport;
import io.github.cudastackbudget.core.report.model.MatchedLaunch;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.SuppressedRow;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.List;

/**
 * Writes {@code cuda-stack-budget.json} (schema version 2, {@code src/site/markdown/report-schema.md}) from the report
 * model in one streaming pass, in a fixed key order, so that the same model gives byte-identical files. Each function
 * is written once (per library) with the figures of its images; everything else names a record by its position and a
 * library by its index. Nothing time-dependent is written; nothing is computed here.
 */
public final class JsonReportWriter {

    /** The file name inside the output directory. */
    public static final String FILE_NAME = "cuda-stack-budget.json";

    /** The schema version this writer writes. */
    public static final int SCHEMA_VERSION = ReportModel.SCHEMA_VERSION;

    /** The {@code foundThrough} value of a library the launch's library log named. */
    private static final String LIBRARY_LOG = "libraryLog";

    private static final JsonFactory FACTORY = new JsonFactory();

    private final JsonGenerator json;
    private final JsonLayout layout;
    private final ReportFunctions functions;
    /** Where {@link #json} writes: ranges rendered apart go straight to it. */
    private final OutputStream out;
    private final int ranges;

    private JsonReportWriter(JsonGenerator json, JsonLayout layout, ReportFunctions functions, OutputStream out,
            int ranges) {
        this.json = json;
        this.layout = layout;
        this.functions = functions;
        this.out = out;
        this.ranges = ranges;
    }

    /** Writes the report into {@code directory} (created if needed) and returns the file. */
    public static Path write(ReportModel model, Path directory) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(FILE_NAME);
        Path temporary = directory.resolve(FILE_NAME + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            write(model, out);
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    public static void write(ReportModel model, OutputStream out) throws IOException {
        write(model, out, ParallelChunks.MAX_CHUNKS);
    }

    /** The same with the functions rendered in at most {@code ranges} ranges (the same bytes for any number). */
    static void write(ReportModel model, OutputStream out, int ranges) throws IOException {
        JsonLayout layout = new JsonLayout();
        try (JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            json.setPrettyPrinter(layout);
            new JsonReportWriter(json, layout, ReportFunctions.of(model), out, ranges).report(model);
            json.writeRaw('\n');
        }
    }

    /**
     * out (issue 12): the report of a check that could not run: {@code {"schemaVersion": 2, "error": "..."}}, no
     * figures (the report goal refuses it, naming the error).
     */
    public static void writeError(String message, OutputStream out) throws IOException {
        JsonLayout layout = new JsonLayout();
        try (JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            json.setPrettyPrinter(layout);
            json.writeStartObject();
            json.writeNumberField("schemaVersion", SCHEMA_VERSION);
            json.writeStringField("error", message);
            json.writeEndObject();
            json.writeRaw('\n');
        }
    }

    private void report(ReportModel model) throws IOException {
        json.writeStartObject();
        json.writeNumberField("schemaVersion", SCHEMA_VERSION);
        json.writeStringField("engine", model.engine());
        json.writeStringField("deviceOrigin", model.deviceOrigin());
        json.writeNumberField("filesProbed", model.filesProbed());
        json.writeNumberField("records", model.kernels().size());
        writeStrings("libraryLabels", functions.libraryLabels());
        json.writeArrayFieldStart("imageFields");
        for (String field : IMAGE_FIELDS) {
            json.writeString(field);
        }
        json.writeEndArray();
        writeFunctions();
        layout.linesNext();
        json.writeArrayFieldStart("libraries");
        for (LibraryReport library : model.libraries()) {
            writeLibrary(library);
        }
        json.writeEndArray();
        layout.linesNext();
        json.writeArrayFieldStart("devices");
        for (DeviceReport device : model.devices()) {
            writeDevice(device);
        }
        json.writeEndArray();
        layout.linesNext();
        json.writeArrayFieldStart("violations");
        for (ViolationReport violation : model.violations()) {
            writeViolation(violation);
        }
        json.writeEndArray();
        // gate (issue 12): only a report with suppressed kernels has them
        if (!model.suppressed().isEmpty()) {
            writeSuppressed(model.suppressed());
        }
        if (model.launched() != null) {
            writeLaunched(model.launched());
        }
        layout.linesNext();
        writeStrings("warnings", model.warnings());
        if (!model.unreadable().isEmpty()) {
            // only reports with device code that could not be read have it
            layout.linesNext();
            json.writeArrayFieldStart("unreadable");
            for (ReportModel.Unreadable file : model.unreadable()) {
                layout.flatNext();
                json.writeStartObject();
                json.writeStringField("path", file.path());
                if (file.offset() >= 0) {
                    json.writeNumberField("offset", file.offset());
                } else {
                    json.writeNullField("offset");
                }
                json.writeStringField("problem", file.problem());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        // out (issue 12, outputs): the gate's checks, only when there are some (reports without them are unchanged)
        if (!model.checks().isEmpty()) {
            layout.linesNext();
            json.writeArrayFieldStart("checks");
            for (GateCheck check : model.checks()) {
                writeCheck(check);
            }
            json.writeEndArray();
        }
        if (model.baseline() != null) {
            // issue 12, baselines: only a check with a baseline has it
            writeBaseline(model.baseline());
        }
        json.writeEndObject();
    }

    /** out (issue 12): one gate check, every key written ({@code null} where it concerns no device, kernel, ...). */
    private void writeCheck(GateCheck check) throws IOException {
        layout.flatNext();
        json.writeStartObject();
        json.writeStringField("category", check.category());
        json.writeStringField("name", check.name());
        json.writeStringField("outcome", check.outcome().id());
        writeNullable("device", check.device());
        writeNullable("library", check.library());
        writeNullable("kernel", check.kernel());
        writeNullable("arch", check.arch());
        writeNullable("actual", check.actual());
        writeNullable("limit", check.limit());
        json.writeStringField("message", check.message());
        json.writeEndObject();
    }

    /** Issue 12: the comparison with a baseline, one row a line. */
    private void writeBaseline(BaselineReport baseline) throws IOException {
        layout.linesNext();
        json.writeObjectFieldStart("baseline");
        json.writeStringField("source", baseline.source());
        layout.linesNext();
        json.writeArrayFieldStart("devices");
        for (BaselineReport.Row row : baseline.devices()) {
            writeBaselineRow(row);
        }
        json.writeEndArray();
        if (baseline.overall() == null) {
            json.writeNullField("overall");
        } else {
            json.writeFieldName("overall");
            writeBaselineRow(baseline.overall());
        }
        json.writeEndObject();
    }

    private void writeBaselineRow(BaselineReport.Row row) throws IOException {
        layout.flatNext();
        json.writeStartObject();
        json.writeStringField("device", row.device());
        writeNullable("previousBytes", row.previousBytes());
        writeNullable("currentBytes", row.currentBytes());
        writeNullable("deltaBytes", row.deltaBytes());
        writeNullable("maxGrowth", row.maxGrowth());
        writeNullable("allowedGrowthBytes", row.allowedGrowthBytes());
        writeNullable("outcome", row.outcome() == null ? null : row.outcome().id());
        writeKernel("kernel", row.kernel());
        writeNullable("kernelChange", row.kernelChange());
        writeNullable("previousStack", row.previousStack());
        writeNullable("note", row.note());
        json.writeEndObject();
    }

    /** The names of an image's figures, in the order of its array. */
    static final List<String> IMAGE_FIELDS = List.of("arch", "registers", "stack", "shared", "local");

    /**
     * Every function once, one a line: library index, names, and its images as {@code [arch, reg, stack, ...]}. The
     * lines are rendered in ranges at once ({@link ParallelChunks}), each range by a generator of its own whose layout
     * separates them as this array does; each range is one value of the array here (an empty raw value writes the
     * separator before it), its bytes written after it: the same bytes as one function at a time.
     */
    private void writeFunctions() throws IOException {
        layout.linesNext();
        json.writeArrayFieldStart("functions");
        int depth = layout.depth();
        List<ReportFunctions.Function> list = functions.list();
        List<KernelRow> rows = functions.rows();
        List<ParallelChunks.Part> parts = ParallelChunks.render(list.size(), ranges, 160, (from, to, range) -> {
            JsonLayout lines = JsonLayout.elementsAt(depth);
            try (JsonGenerator part = FACTORY.createGenerator(range, JsonEncoding.UTF8)) {
                part.setPrettyPrinter(lines);
                for (int i = from; i < to; i++) {
                    lines.flatNext();
                    writeFunction(part, list.get(i), rows);
                }
            }
        });
        for (ParallelChunks.Part part : parts) {
            if (part.length() > 0) {
                json.writeRawValue("");
                json.flush();
                out.write(part.bytes(), 0, part.length());
            }
        }
        json.writeEndArray();
    }

    private static void writeFunction(JsonGenerator json, ReportFunctions.Function function, List<KernelRow> rows)
            throws IOException {
        json.writeStartObject();
        json.writeNumberField("library", function.libraryIndex());
        json.writeStringField("name", function.name());
        if (!function.displayName().equals(function.name())) {
            json.writeStringField("displayName", function.displayName());
        }
        json.writeArrayFieldStart("images");
        for (int i = function.first(); i < function.end(); i++) {
            KernelRow row = rows.get(i);
            json.writeStartArray();
            json.writeString(row.arch());
            json.writeNumber(row.registers());
            if (row.stackUnknown()) {
                json.writeNull();
            } else {
                json.writeNumber(row.stack());
            }
            json.writeNumber(row.shared());
            json.writeNumber(row.local());
            json.writeEndArray();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private void writeLibrary(LibraryReport library) throws IOException {
        layout.flatNext();
        json.writeStartObject();
        json.writeStringField("path", library.path());
        json.writeStringField("library", library.library());
        json.writeNumberField("kernels", library.kernels());
        json.writeNumberField("records", library.records());
        writeStrings("arches", library.sassArches());
        writeStrings("ptxArches", library.ptxArches());
        json.writeNumberField("maxStack", library.maxStack());
        writeKernel("worstKernel", library.worstKernel());
        json.writeStringField("usedBy", library.usedBy());
        json.writeStringField("platform", library.platform());
        if (library.foundThroughLibraryLog()) {
            json.writeStringField("foundThrough", LIBRARY_LOG);
        }
        if (!library.gated()) {
            // only a library of a platform the platforms option leaves out has it
            json.writeBooleanField("gated", false);
        }
        json.writeEndObject();
    }

    private void writeDevice(DeviceReport device) throws IOException {
        json.writeStartObject();
        json.writeStringField("name", device.name());
        writeNullable("preset", device.preset());
        json.writeStringField("computeCapability", device.computeCapability());
        json.writeStringField("targetArch", device.targetArch());
        json.writeNumberField("maxResidentThreads", device.maxResidentThreads());
        writeNullable("multiProcessorCount", device.multiProcessorCount());
        writeNullable("memoryBytes", device.memoryBytes());
        json.writeStringField("figuresSource", device.figuresSource());
        json.writeStringField("status", device.status().id());
        writeNullable("skipReason", device.skipReason());
        writeNullable("chosenArch", device.chosenArch());
        json.writeBooleanField("fellBack", device.fellBack());
        json.writeObjectFieldStart("imageCounts");
        for (var entry : device.imageCounts().entrySet()) {
            json.writeNumberField(entry.getKey(), entry.getValue());
        }
        json.writeEndObject();
        json.writeNumberField("reservationBytes", device.reservationBytes());
        json.writeNumberField("staticReservationBytes", device.staticReservationBytes());
        json.writeNumberField("incrementBytes", device.incrementBytes());
        writeNullable("budgetBytes", device.budgetBytes());
        writeKernel("worstKernel", device.worstKernel());
        writeKernel("worstLocalKernel", device.worstLocalKernel());
        writeNotes("ambiguousKernels", device.ambiguous());
        writeNotes("jitKernels", device.jit());
        writeNotes("cannotRunKernels", device.cannotRun());
        writeKernels("unknownStackKernels", device.unknownStack());
        writeKernel("nextWorstKernel", device.nextWorstKernel());
        writeNullable("reservationIfWorstShrinksBytes", device.reservationIfWorstShrinksBytes());
        // the image counted for every function, largest frame first, as record positions
        writeKernels("selectedKernels", device.selectedKernels());
        if (device.launched() != null) {
            writeLaunchedFigures(device.launched());
        }
        if (!device.platforms().isEmpty()) {
            // only where libraries of more than one platform were read
            layout.linesNext();
            json.writeArrayFieldStart("platforms");
            for (PlatformReport platform : device.platforms()) {
                layout.flatNext();
                json.writeStartObject();
                json.writeStringField("platform", platform.platform());
                json.writeBooleanField("gated", platform.gated());
                json.writeStringField("status", platform.status().id());
                json.writeNumberField("reservationBytes", platform.reservationBytes());
                writeKernel("worstKernel", platform.worstKernel());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        json.writeEndObject();
    }

    /** Per device in launched mode: the launched figure, the static worst kernel, every launched kernel's image. */
    private void writeLaunchedFigures(LaunchedDeviceReport launched) throws IOException {
        json.writeBooleanField("launchedHeadline", launched.headline());
        json.writeNumberField("launchedReservationBytes", launched.reservationBytes());
        json.writeNumberField("launchedIncrementBytes", launched.incrementBytes());
        writeKernel("launchedWorstKernel", launched.worstKernel());
        writeKernel("staticWorstKernel", launched.staticWorstKernel());
        layout.linesNext();
        json.writeArrayFieldStart("launchedKernels");
        for (LaunchedKernelRow row : launched.kernels()) {
            layout.flatNext();
            json.writeStartObject();
            writeKernel("kernel", row.kernel());
            writeNullable("maxDynamicShared", row.maxDynamicShared());
            json.writeNumberField("sharedPerBlock", row.sharedPerBlock());
            writeStrings("attributions", row.attributions());
            if (launched.driverFrames()) {
                json.writeStringField("frameSource", row.frameSource());
                writeDriverFrame(row.driver());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
        writeNotes("launchedJitKernels", launched.jit());
        writeNotes("launchedCannotRunKernels", launched.cannotRun());
        if (launched.driverFrames()) {
            layout.linesNext();
            json.writeArrayFieldStart("launchedDriverDifferences");
            for (DriverDifferenceRow difference : launched.driverDifferences()) {
                layout.flatNext();
                json.writeStartObject();
                writeKernel("kernel", difference.image());
                writeDriverFrame(difference.driver());
                json.writeEndObject();
            }
            json.writeEndArray();
            writeStrings("launchedDriverOtherArch", launched.driverOtherArch());
        }
    }

    /** The driver's figures of a launched kernel (launch log format 2): null, or each figure (null when unknown). */
    private void writeDriverFrame(DriverFrameRow driver) throws IOException {
        if (driver == null) {
            json.writeNullField("driverFrame");
            return;
        }
        json.writeObjectFieldStart("driverFrame");
        writeNullable("localBytes", driver.localBytes());
        writeNullable("registers", driver.registers() == null ? null : Long.valueOf(driver.registers()));
        writeNullable("sharedBytes", driver.sharedBytes());
        writeNullable("arch", driver.arch());
        json.writeEndObject();
    }

    /** Notes name their function by its index in {@code functions}; a differing readable name is written out. */
    private void writeNotes(String field, List<FunctionNote> notes) throws IOException {
        if (!notes.isEmpty()) {
            layout.linesNext();
        }
        json.writeArrayFieldStart(field);
        for (FunctionNote note : notes) {
            layout.flatNext();
            json.writeStartObject();
            int function = functions.indexOf(note);
            json.writeNumberField("function", function);
            if (!note.displayName().equals(functions.list().get(function).displayName())) {
                json.writeStringField("displayName", note.displayName());
            }
            if (note.jitFrom() != null) {
                json.writeStringField("jitFrom", note.jitFrom());
            }
            if (note.countedArch() != null) {
                json.writeStringField("countedArch", note.countedArch());
                writeStrings("otherArches", note.otherArches());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private void writeViolation(ViolationReport violation) throws IOException {
        layout.flatNext();
        json.writeStartObject();
        json.writeStringField("device", violation.device());
        json.writeStringField("kind", violation.kind().id());
        json.writeNumberField("actual", violation.actual());
        json.writeNumberField("limit", violation.limit());
        json.writeStringField("kernel", violation.kernel());
        json.writeStringField("displayName", violation.displayName());
        json.writeStringField("library", violation.library());
        json.writeStringField("arch", violation.arch());
        json.writeEndObject();
    }

    /** The top-level launched-mode block and the list of launched kernels found in no library. */
    private void writeLaunched(LaunchedRunReport run) throws IOException {
        json.writeObjectFieldStart("launched");
        json.writeStringField("log", run.log());
        json.writeStringField("format", run.format());
        json.writeStringField("status", run.status());
        json.writeBooleanField("headline", run.headline());
        writeNullable("libraryLog", run.libraryLog());
        json.writeNumberField("kernels", run.kernels());
        json.writeNumberField("matched", run.matched());
        json.writeNumberField("unmatched", run.unmatched());
        json.writeNumberField("librariesLoaded", run.librariesLoaded());
        writeStrings("librariesFoundThroughLibraryLog", run.foundThroughLibraryLog());
        writeStrings("libraryLogEntriesNotOnThisMachine", run.notOnThisMachine());
        layout.linesNext();
        json.writeArrayFieldStart("matchedKernels");
        for (MatchedLaunch matched : run.matchedKernels()) {
            layout.flatNext();
            json.writeStartObject();
            writeLaunchEntryFields(matched.kernel());
            writeStrings("libraries", matched.libraries());
            writeStrings("notLoadedIn", matched.notLoadedIn());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        layout.linesNext();
        json.writeArrayFieldStart("unmatchedLaunchedKernels");
        for (LaunchEntry kernel : run.unmatchedKernels()) {
            layout.flatNext();
            json.writeStartObject();
            writeLaunchEntryFields(kernel);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private void writeLaunchEntryFields(LaunchEntry kernel) throws IOException {
        json.writeStringField("name", kernel.name());
        json.writeStringField("displayName", kernel.displayName());
        writeStrings("attributions", kernel.attributions());
        writeNullable("maxDynamicShared", kernel.maxDynamicShared());
        if (kernel.driver() != null) {
            writeDriverFrame(kernel.driver());
        }
    }

    // gate (issue 12)
    /** The kernels suppressions took out of the verdicts, one a line. */
    private void writeSuppressed(List<SuppressedRow> rows) throws IOException {
        layout.linesNext();
        json.writeArrayFieldStart("suppressed");
        for (SuppressedRow row : rows) {
            layout.flatNext();
            json.writeStartObject();
            json.writeStringField("device", row.device());
            writeKernel("kernel", row.kernel());
            json.writeNumberField("reservationBytes", row.reservationBytes());
            json.writeNumberField("entry", row.entry());
            json.writeStringField("pattern", row.pattern());
            json.writeStringField("reason", row.reason());
            writeNullable("until", row.until());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    /** Records as positions (a record the list lacks as a whole kernel object). */
    private void writeKernels(String field, List<KernelRow> rows) throws IOException {
        json.writeArrayFieldStart(field);
        for (KernelRow row : rows) {
            writeKernelValue(row);
        }
        json.writeEndArray();
    }

    private void writeKernel(String field, KernelRow row) throws IOException {
        json.writeFieldName(field);
        writeKernelValue(row);
    }

    /** A record: its position in the records the functions list, or null, or (not one of them) a kernel object. */
    private void writeKernelValue(KernelRow row) throws IOException {
        if (row == null) {
            json.writeNull();
            return;
        }
        int position = functions.positionOf(row);
        if (position >= 0) {
            json.writeNumber(position);
            return;
        }
        layout.flatNext();
        json.writeStartObject();
        json.writeStringField("name", row.name());
        json.writeStringField("displayName", row.displayName());
        json.writeStringField("library", row.library());
        json.writeStringField("arch", row.arch());
        if (!row.staticFrame()) {
            // schema 2 addition: a figure not read from an embedded image (absent: static)
            json.writeStringField("frameSource", row.frameSource());
            writeNullable("jitFrom", row.jitFrom());
            writeNullable("frameTool", row.frameTool());
        }
        json.writeNumberField("registers", row.registers());
        if (row.stackUnknown()) {
            json.writeNullField("stack");
            json.writeBooleanField("stackUnknown", true);
        } else {
            json.writeNumberField("stack", row.stack());
        }
        json.writeNumberField("shared", row.shared());
        json.writeNumberField("local", row.local());
        json.writeEndObject();
    }

    private void writeStrings(String field, Collection<String> values) throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    private void writeNullable(String field, String value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeStringField(field, value);
        }
    }

    private void writeNullable(String field, Long value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeNumberField(field, value);
        }
    }
}
