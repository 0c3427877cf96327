package io.github.cudastackbudget.core.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.github.cudastackbudget.core.CheckResult;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.Reservation;
import io.github.cudastackbudget.core.budget.LaunchedFigures;
import io.github.cudastackbudget.core.budget.LaunchedImage;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.launch.LaunchLog;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.launch.MatchedKernel;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * Writes {@code cuda-stack-budget.json} (schema version 1, docs/interface.md), streaming, in a fixed key order and
 * with sorted lists, so that the same inputs give byte-identical files. Nothing time-dependent is written.
 */
public final class JsonReportWriter {

    /** The file name inside the output directory. */
    public static final String FILE_NAME = "cuda-stack-budget.json";

    private static final int SCHEMA_VERSION = 1;
    private static final Comparator<KernelRecord> KERNEL_ORDER = Comparator.comparing(KernelRecord::library)
            .thenComparing(KernelRecord::name).thenComparing(KernelRecord::arch)
            .thenComparingLong(KernelRecord::stackForRanking);

    private JsonReportWriter() {
    }

    /** Writes the report into {@code directory} (created if needed) and returns the file. */
    public static Path write(CheckResult result, Path directory) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(FILE_NAME);
        Path temporary = directory.resolve(FILE_NAME + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            write(result, out);
        }
        Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    public static void write(CheckResult result, OutputStream out) throws IOException {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
        try (JsonGenerator json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            json.setPrettyPrinter(printer);
            json.writeStartObject();
            json.writeNumberField("schemaVersion", SCHEMA_VERSION);
            json.writeStringField("engine", result.engine());
            json.writeStringField("deviceOrigin", result.deviceOrigin());
            json.writeNumberField("filesProbed", result.filesProbed());
            List<KernelRecord> kernels = sortedKernels(result);
            Map<KernelRecord, Integer> positions = new HashMap<>(kernels.size() * 2);
            for (int i = 0; i < kernels.size(); i++) {
                positions.putIfAbsent(kernels.get(i), i);
            }
            writeLibraries(result, json);
            writeDevices(result, json, positions);
            writeKernels(result, json, kernels);
            writeViolations(result, json);
            if (result.launched() != null) {
                writeLaunched(result, result.launched(), json);
            }
            json.writeArrayFieldStart("warnings");
            for (String warning : result.warnings()) {
                json.writeString(warning);
            }
            json.writeEndArray();
            json.writeEndObject();
            json.writeRaw('\n');
        }
    }

    private static void writeLibraries(CheckResult result, JsonGenerator json) throws IOException {
        json.writeArrayFieldStart("libraries");
        for (LibraryScan scan : result.scans()) {
            for (String library : scan.libraries()) {
                List<KernelRecord> records = scan.records().stream().filter(r -> r.library().equals(library)).toList();
                json.writeStartObject();
                json.writeStringField("path", scan.path().toString());
                json.writeStringField("library", library);
                json.writeNumberField("kernels", records.stream().map(KernelRecord::name).distinct().count());
                json.writeNumberField("records", records.size());
                writeArches(json, "arches", scan.sassArchesOf(library), false);
                writeArches(json, "ptxArches", scan.ptxArchesOf(library), true);
                KernelRecord worst = records.stream().filter(r -> !r.stackUnknown())
                        .max(Comparator.comparingLong(KernelRecord::stack)).orElse(null);
                json.writeNumberField("maxStack", worst == null ? 0 : worst.stack());
                json.writeFieldName("worstKernel");
                writeKernelOrNull(result, json, worst == null || worst.stack() == 0 ? null : worst);
                json.writeStringField("usedBy", scan.usedBy());
                if (result.launched() != null && result.launched().fromLibraryLog(scan.path())) {
                    json.writeStringField("foundThrough", "libraryLog");
                }
                json.writeEndObject();
            }
        }
        json.writeEndArray();
    }

    private static void writeArches(JsonGenerator json, String field, SortedSet<GpuArch> arches, boolean ptx)
            throws IOException {
        json.writeArrayFieldStart(field);
        for (GpuArch arch : arches) {
            json.writeString(ptx ? arch.ptxLabel() : arch.sassLabel());
        }
        json.writeEndArray();
    }

    private static void writeDevices(CheckResult result, JsonGenerator json, Map<KernelRecord, Integer> positions)
            throws IOException {
        json.writeArrayFieldStart("devices");
        for (DeviceResult device : result.devices()) {
            DeviceSpec spec = device.device();
            json.writeStartObject();
            json.writeStringField("name", spec.name());
            writeNullableString(json, "preset", spec.presetId());
            json.writeStringField("computeCapability", spec.capability().dotted());
            json.writeStringField("targetArch", spec.capability().smName());
            json.writeNumberField("maxResidentThreads", spec.maxResidentThreads());
            writeNullableNumber(json, "multiProcessorCount", spec.multiProcessorCount() == null ? null
                    : spec.multiProcessorCount().longValue());
            writeNullableNumber(json, "memoryBytes", spec.memoryBytes());
            json.writeStringField("figuresSource", spec.source());
            json.writeStringField("status", device.status().id());
            writeNullableString(json, "skipReason", device.skipReason());
            writeNullableString(json, "chosenArch", device.chosenArch() == null ? null : device.chosenArch().sassLabel());
            json.writeBooleanField("fellBack", device.fellBack());
            json.writeObjectFieldStart("imageCounts");
            for (var entry : device.imageCounts().entrySet()) {
                json.writeNumberField(entry.getKey(), entry.getValue());
            }
            json.writeEndObject();
            json.writeNumberField("reservationBytes", device.reservationBytes());
            json.writeNumberField("staticReservationBytes", device.staticReservationBytes());
            json.writeNumberField("incrementBytes", device.incrementBytes());
            writeNullableNumber(json, "budgetBytes", device.budgetBytes());
            json.writeFieldName("worstKernel");
            writeKernelOrNull(result, json, device.headlineWorst());
            json.writeFieldName("worstLocalKernel");
            writeKernelOrNull(result, json, device.worstLocal());
            writeChoices(result, json, "ambiguousKernels", device.ambiguous());
            writeChoices(result, json, "jitKernels", device.jit());
            writeChoices(result, json, "cannotRunKernels", device.cannotRun());
            json.writeArrayFieldStart("unknownStackKernels");
            for (KernelRecord record : device.unknownStack()) {
                writeKernel(result, json, record);
            }
            json.writeEndArray();
            writeWhatIf(result, json, device);
            // the image counted for every function, largest frame first, as positions in "kernels"
            json.writeArrayFieldStart("selectedKernels");
            for (KernelRecord record : device.selected()) {
                json.writeNumber(positions.get(record));
            }
            json.writeEndArray();
            if (device.launched() != null) {
                writeLaunchedFigures(result, json, device);
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    /**
     * "What if the worst kernel's frame shrank": the next-largest known frame among the images this device runs, and
     * the reservation that frame alone would cause (null without a worst kernel).
     */
    private static void writeWhatIf(CheckResult result, JsonGenerator json, DeviceResult device) throws IOException {
        KernelRecord next = device.worst() == null ? null : device.selected().stream()
                .filter(record -> !record.stackUnknown() && !record.equals(device.worst())).findFirst().orElse(null);
        json.writeFieldName("nextWorstKernel");
        writeKernelOrNull(result, json, next);
        writeNullableNumber(json, "reservationIfWorstShrinksBytes", device.worst() == null ? null
                : Reservation.bytesFor(device.device().maxResidentThreads(), next == null ? 0 : next.stack()));
    }

    private static void writeChoices(CheckResult result, JsonGenerator json, String field, List<FunctionChoice> choices)
            throws IOException {
        json.writeArrayFieldStart(field);
        for (FunctionChoice choice : choices) {
            json.writeStartObject();
            json.writeStringField("name", choice.function().name());
            json.writeStringField("displayName", result.displayName(choice.function().name()));
            json.writeStringField("library", choice.function().library());
            if (choice.jitFrom() != null) {
                json.writeStringField("jitFrom", choice.jitFrom().ptxLabel());
            }
            if (choice.chosen() != null) {
                json.writeStringField("countedArch", choice.chosen().arch().sassLabel());
                json.writeArrayFieldStart("otherArches");
                for (KernelRecord other : choice.alternatives()) {
                    json.writeString(other.arch().sassLabel());
                }
                json.writeEndArray();
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static List<KernelRecord> sortedKernels(CheckResult result) {
        List<KernelRecord> all = new ArrayList<>(result.index().recordCount());
        result.index().imagesByFunction().values().forEach(all::addAll);
        all.sort(KERNEL_ORDER);
        return all;
    }

    private static void writeKernels(CheckResult result, JsonGenerator json, List<KernelRecord> all) throws IOException {
        json.writeArrayFieldStart("kernels");
        for (KernelRecord record : all) {
            writeKernel(result, json, record);
        }
        json.writeEndArray();
    }

    private static void writeViolations(CheckResult result, JsonGenerator json) throws IOException {
        json.writeArrayFieldStart("violations");
        for (Violation violation : result.violations()) {
            json.writeStartObject();
            json.writeStringField("device", violation.device());
            json.writeStringField("kind", violation.kind().id());
            json.writeNumberField("actual", violation.actual());
            json.writeNumberField("limit", violation.limit());
            json.writeStringField("kernel", violation.kernel().name());
            json.writeStringField("displayName", result.displayName(violation.kernel()));
            json.writeStringField("library", violation.kernel().library());
            json.writeStringField("arch", violation.kernel().arch().sassLabel());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    /** Per device in launched mode: the launched figure, the static worst kernel, every launched kernel's image. */
    private static void writeLaunchedFigures(CheckResult result, JsonGenerator json, DeviceResult device)
            throws IOException {
        LaunchedFigures launched = device.launched();
        json.writeBooleanField("launchedHeadline", launched.headline());
        json.writeNumberField("launchedReservationBytes", launched.reservationBytes());
        json.writeNumberField("launchedIncrementBytes", launched.incrementBytes());
        json.writeFieldName("launchedWorstKernel");
        writeKernelOrNull(result, json, launched.worst());
        json.writeFieldName("staticWorstKernel");
        writeKernelOrNull(result, json, device.worst());
        json.writeArrayFieldStart("launchedKernels");
        for (LaunchedImage image : launched.kernels()) {
            KernelRecord record = image.image();
            json.writeStartObject();
            writeKernelFields(result, json, record);
            writeNullableNumber(json, "maxDynamicShared", image.launch().maxDynamicShared());
            json.writeNumberField("sharedPerBlock", image.sharedPerBlock());
            writeStrings(json, "attributions", image.launch().attributions());
            json.writeEndObject();
        }
        json.writeEndArray();
        writeChoices(result, json, "launchedJitKernels", launched.jit());
        writeChoices(result, json, "launchedCannotRunKernels", launched.cannotRun());
    }

    /** The top-level launched-mode block and the list of launched kernels found in no library. */
    private static void writeLaunched(CheckResult result, LaunchedRun launched, JsonGenerator json) throws IOException {
        LaunchLog log = launched.log();
        json.writeObjectFieldStart("launched");
        json.writeStringField("log", log.file().toString());
        json.writeStringField("format", log.format().label());
        json.writeStringField("status", log.statusSummary());
        json.writeBooleanField("headline", launched.headline());
        writeNullableString(json, "libraryLog", launched.libraryLog() == null ? null
                : launched.libraryLog().file().toString());
        json.writeNumberField("kernels", launched.kernelCount());
        json.writeNumberField("matched", launched.match().matched().size());
        json.writeNumberField("unmatched", launched.match().unmatched().size());
        json.writeNumberField("librariesLoaded", launched.libraryLog() == null ? 0
                : launched.libraryLog().libraries().size());
        json.writeArrayFieldStart("librariesFoundThroughLibraryLog");
        for (Path path : launched.scannedFromLibraryLog()) {
            json.writeString(path.toString());
        }
        json.writeEndArray();
        json.writeArrayFieldStart("libraryLogEntriesNotOnThisMachine");
        for (Path path : launched.libraryLogNotHere()) {
            json.writeString(path.toString());
        }
        json.writeEndArray();
        json.writeArrayFieldStart("matchedKernels");
        for (MatchedKernel matched : launched.match().matched()) {
            json.writeStartObject();
            writeLaunchedKernelFields(result, json, matched.kernel());
            writeStrings(json, "libraries", matched.libraries());
            writeStrings(json, "notLoadedIn", matched.notLoadedIn());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeArrayFieldStart("unmatchedLaunchedKernels");
        for (LaunchedKernel kernel : launched.match().unmatched()) {
            json.writeStartObject();
            writeLaunchedKernelFields(result, json, kernel);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writeLaunchedKernelFields(CheckResult result, JsonGenerator json, LaunchedKernel kernel)
            throws IOException {
        json.writeStringField("name", kernel.name());
        json.writeStringField("displayName", result.displayName(kernel.name()));
        writeStrings(json, "attributions", kernel.attributions());
        writeNullableNumber(json, "maxDynamicShared", kernel.maxDynamicShared());
    }

    private static void writeStrings(JsonGenerator json, String field, java.util.Collection<String> values)
            throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    private static void writeKernelOrNull(CheckResult result, JsonGenerator json, KernelRecord record) throws IOException {
        if (record == null) {
            json.writeNull();
        } else {
            writeKernel(result, json, record);
        }
    }

    private static void writeKernel(CheckResult result, JsonGenerator json, KernelRecord record) throws IOException {
        json.writeStartObject();
        writeKernelFields(result, json, record);
        json.writeEndObject();
    }

    /** The fields of one kernel record (interface.md's kernel object), inside an object the caller opened. */
    private static void writeKernelFields(CheckResult result, JsonGenerator json, KernelRecord record)
            throws IOException {
        json.writeStringField("name", record.name());
        json.writeStringField("displayName", result.displayName(record));
        json.writeStringField("library", record.library());
        json.writeStringField("arch", record.arch().sassLabel());
        json.writeNumberField("registers", record.registers());
        if (record.stackUnknown()) {
            json.writeNullField("stack");
            json.writeBooleanField("stackUnknown", true);
        } else {
            json.writeNumberField("stack", record.stack());
        }
        json.writeNumberField("shared", record.shared());
        json.writeNumberField("local", record.local());
    }

    private static void writeNullableString(JsonGenerator json, String field, String value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeStringField(field, value);
        }
    }

    private static void writeNullableNumber(JsonGenerator json, String field, Long value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeNumberField(field, value);
        }
    }
}
