package io.github.cudastackbudget.core.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.FunctionNote;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.LaunchEntry;
import io.github.cudastackbudget.core.report.model.LaunchedDeviceReport;
import io.github.cudastackbudget.core.report.model.LaunchedKernelRow;
import io.github.cudastackbudget.core.report.model.LaunchedRunReport;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.PlatformReport;
import io.github.cudastackbudget.core.report.model.MatchedLaunch;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code cuda-stack-budget.json} (schema version 1, docs/interface.md) from the report model, streaming, in a
 * fixed key order, so that the same model gives byte-identical files. Nothing time-dependent is written; nothing is
 * computed here.
 */
public final class JsonReportWriter {

    /** The file name inside the output directory. */
    public static final String FILE_NAME = "cuda-stack-budget.json";

    /** The {@code foundThrough} value of a library the launch's library log named. */
    private static final String LIBRARY_LOG = "libraryLog";

    private JsonReportWriter() {
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
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
        try (JsonGenerator json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            json.setPrettyPrinter(printer);
            json.writeStartObject();
            json.writeNumberField("schemaVersion", model.schemaVersion());
            json.writeStringField("engine", model.engine());
            json.writeStringField("deviceOrigin", model.deviceOrigin());
            json.writeNumberField("filesProbed", model.filesProbed());
            Map<KernelRow, Integer> positions = new HashMap<>(model.kernels().size() * 2);
            for (int i = 0; i < model.kernels().size(); i++) {
                positions.putIfAbsent(model.kernels().get(i), i);
            }
            json.writeArrayFieldStart("libraries");
            for (LibraryReport library : model.libraries()) {
                writeLibrary(json, library);
            }
            json.writeEndArray();
            json.writeArrayFieldStart("devices");
            for (DeviceReport device : model.devices()) {
                writeDevice(json, device, positions);
            }
            json.writeEndArray();
            writeKernels(json, "kernels", model.kernels());
            json.writeArrayFieldStart("violations");
            for (ViolationReport violation : model.violations()) {
                writeViolation(json, violation);
            }
            json.writeEndArray();
            if (model.launched() != null) {
                writeLaunched(json, model.launched());
            }
            writeStrings(json, "warnings", model.warnings());
            if (!model.unreadable().isEmpty()) {
                // additive (issue 10): only reports with device code that could not be read have it
                json.writeArrayFieldStart("unreadable");
                for (ReportModel.Unreadable file : model.unreadable()) {
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
            json.writeEndObject();
            json.writeRaw('\n');
        }
    }

    private static void writeLibrary(JsonGenerator json, LibraryReport library) throws IOException {
        json.writeStartObject();
        json.writeStringField("path", library.path());
        json.writeStringField("library", library.library());
        json.writeNumberField("kernels", library.kernels());
        json.writeNumberField("records", library.records());
        writeStrings(json, "arches", library.sassArches());
        writeStrings(json, "ptxArches", library.ptxArches());
        json.writeNumberField("maxStack", library.maxStack());
        writeKernel(json, "worstKernel", library.worstKernel());
        json.writeStringField("usedBy", library.usedBy());
        json.writeStringField("platform", library.platform());
        if (library.foundThroughLibraryLog()) {
            json.writeStringField("foundThrough", LIBRARY_LOG);
        }
        if (!library.gated()) {
            // additive (issue 14): only a library of a platform the platforms option leaves out has it
            json.writeBooleanField("gated", false);
        }
        json.writeEndObject();
    }

    private static void writeDevice(JsonGenerator json, DeviceReport device, Map<KernelRow, Integer> positions)
            throws IOException {
        json.writeStartObject();
        json.writeStringField("name", device.name());
        writeNullable(json, "preset", device.preset());
        json.writeStringField("computeCapability", device.computeCapability());
        json.writeStringField("targetArch", device.targetArch());
        json.writeNumberField("maxResidentThreads", device.maxResidentThreads());
        writeNullable(json, "multiProcessorCount", device.multiProcessorCount());
        writeNullable(json, "memoryBytes", device.memoryBytes());
        json.writeStringField("figuresSource", device.figuresSource());
        json.writeStringField("status", device.status().id());
        writeNullable(json, "skipReason", device.skipReason());
        writeNullable(json, "chosenArch", device.chosenArch());
        json.writeBooleanField("fellBack", device.fellBack());
        json.writeObjectFieldStart("imageCounts");
        for (var entry : device.imageCounts().entrySet()) {
            json.writeNumberField(entry.getKey(), entry.getValue());
        }
        json.writeEndObject();
        json.writeNumberField("reservationBytes", device.reservationBytes());
        json.writeNumberField("staticReservationBytes", device.staticReservationBytes());
        json.writeNumberField("incrementBytes", device.incrementBytes());
        writeNullable(json, "budgetBytes", device.budgetBytes());
        writeKernel(json, "worstKernel", device.worstKernel());
        writeKernel(json, "worstLocalKernel", device.worstLocalKernel());
        writeNotes(json, "ambiguousKernels", device.ambiguous());
        writeNotes(json, "jitKernels", device.jit());
        writeNotes(json, "cannotRunKernels", device.cannotRun());
        writeKernels(json, "unknownStackKernels", device.unknownStack());
        writeKernel(json, "nextWorstKernel", device.nextWorstKernel());
        writeNullable(json, "reservationIfWorstShrinksBytes", device.reservationIfWorstShrinksBytes());
        // the image counted for every function, largest frame first, as positions in "kernels"
        json.writeArrayFieldStart("selectedKernels");
        for (KernelRow row : device.selectedKernels()) {
            json.writeNumber(positions.get(row));
        }
        json.writeEndArray();
        if (device.launched() != null) {
            writeLaunchedFigures(json, device.launched());
        }
        if (!device.platforms().isEmpty()) {
            // additive (issue 14): only where libraries of more than one platform were read
            json.writeArrayFieldStart("platforms");
            for (PlatformReport platform : device.platforms()) {
                json.writeStartObject();
                json.writeStringField("platform", platform.platform());
                json.writeBooleanField("gated", platform.gated());
                json.writeStringField("status", platform.status().id());
                json.writeNumberField("reservationBytes", platform.reservationBytes());
                writeKernel(json, "worstKernel", platform.worstKernel());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        json.writeEndObject();
    }

    /** Per device in launched mode: the launched figure, the static worst kernel, every launched kernel's image. */
    private static void writeLaunchedFigures(JsonGenerator json, LaunchedDeviceReport launched) throws IOException {
        json.writeBooleanField("launchedHeadline", launched.headline());
        json.writeNumberField("launchedReservationBytes", launched.reservationBytes());
        json.writeNumberField("launchedIncrementBytes", launched.incrementBytes());
        writeKernel(json, "launchedWorstKernel", launched.worstKernel());
        writeKernel(json, "staticWorstKernel", launched.staticWorstKernel());
        json.writeArrayFieldStart("launchedKernels");
        for (LaunchedKernelRow row : launched.kernels()) {
            json.writeStartObject();
            writeKernelFields(json, row.kernel());
            writeNullable(json, "maxDynamicShared", row.maxDynamicShared());
            json.writeNumberField("sharedPerBlock", row.sharedPerBlock());
            writeStrings(json, "attributions", row.attributions());
            json.writeEndObject();
        }
        json.writeEndArray();
        writeNotes(json, "launchedJitKernels", launched.jit());
        writeNotes(json, "launchedCannotRunKernels", launched.cannotRun());
    }

    private static void writeNotes(JsonGenerator json, String field, List<FunctionNote> notes) throws IOException {
        json.writeArrayFieldStart(field);
        for (FunctionNote note : notes) {
            json.writeStartObject();
            json.writeStringField("name", note.name());
            json.writeStringField("displayName", note.displayName());
            json.writeStringField("library", note.library());
            if (note.jitFrom() != null) {
                json.writeStringField("jitFrom", note.jitFrom());
            }
            if (note.countedArch() != null) {
                json.writeStringField("countedArch", note.countedArch());
                writeStrings(json, "otherArches", note.otherArches());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writeViolation(JsonGenerator json, ViolationReport violation) throws IOException {
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
    private static void writeLaunched(JsonGenerator json, LaunchedRunReport run) throws IOException {
        json.writeObjectFieldStart("launched");
        json.writeStringField("log", run.log());
        json.writeStringField("format", run.format());
        json.writeStringField("status", run.status());
        json.writeBooleanField("headline", run.headline());
        writeNullable(json, "libraryLog", run.libraryLog());
        json.writeNumberField("kernels", run.kernels());
        json.writeNumberField("matched", run.matched());
        json.writeNumberField("unmatched", run.unmatched());
        json.writeNumberField("librariesLoaded", run.librariesLoaded());
        writeStrings(json, "librariesFoundThroughLibraryLog", run.foundThroughLibraryLog());
        writeStrings(json, "libraryLogEntriesNotOnThisMachine", run.notOnThisMachine());
        json.writeArrayFieldStart("matchedKernels");
        for (MatchedLaunch matched : run.matchedKernels()) {
            json.writeStartObject();
            writeLaunchEntryFields(json, matched.kernel());
            writeStrings(json, "libraries", matched.libraries());
            writeStrings(json, "notLoadedIn", matched.notLoadedIn());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeArrayFieldStart("unmatchedLaunchedKernels");
        for (LaunchEntry kernel : run.unmatchedKernels()) {
            json.writeStartObject();
            writeLaunchEntryFields(json, kernel);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writeLaunchEntryFields(JsonGenerator json, LaunchEntry kernel) throws IOException {
        json.writeStringField("name", kernel.name());
        json.writeStringField("displayName", kernel.displayName());
        writeStrings(json, "attributions", kernel.attributions());
        writeNullable(json, "maxDynamicShared", kernel.maxDynamicShared());
    }

    private static void writeKernels(JsonGenerator json, String field, List<KernelRow> rows) throws IOException {
        json.writeArrayFieldStart(field);
        for (KernelRow row : rows) {
            json.writeStartObject();
            writeKernelFields(json, row);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writeKernel(JsonGenerator json, String field, KernelRow row) throws IOException {
        json.writeFieldName(field);
        if (row == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            writeKernelFields(json, row);
            json.writeEndObject();
        }
    }

    /** The fields of one kernel record (interface.md's kernel object), inside an object the caller opened. */
    private static void writeKernelFields(JsonGenerator json, KernelRow row) throws IOException {
        json.writeStringField("name", row.name());
        json.writeStringField("displayName", row.displayName());
        json.writeStringField("library", row.library());
        json.writeStringField("arch", row.arch());
        json.writeNumberField("registers", row.registers());
        if (row.stackUnknown()) {
            json.writeNullField("stack");
            json.writeBooleanField("stackUnknown", true);
        } else {
            json.writeNumberField("stack", row.stack());
        }
        json.writeNumberField("shared", row.shared());
        json.writeNumberField("local", row.local());
    }

    private static void writeStrings(JsonGenerator json, String field, Collection<String> values) throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    private static void writeNullable(JsonGenerator json, String field, String value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeStringField(field, value);
        }
    }

    private static void writeNullable(JsonGenerator json, String field, Long value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeNumberField(field, value);
        }
    }
}
