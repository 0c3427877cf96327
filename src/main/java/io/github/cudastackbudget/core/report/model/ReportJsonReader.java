package io.github.cudastackbudget.core.report.model;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.text.Printable;
import java.io.BufferedInputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Reads a {@code cuda-stack-budget.json} (schema version 1 or 2, {@code src/site/markdown/report-schema.md}) into the
 * {@link ReportModel}, with one clear message for a missing or mistyped key. Both versions of one check give the same
 * model (but for its {@code schemaVersion}).
 */
final class ReportJsonReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The {@code foundThrough} value of a library the launch's library log named. */
    static final String LIBRARY_LOG = "libraryLog";

    /** The figures of an image (schema 2), in the order of its array. */
    static final List<String> IMAGE_FIELDS = List.of("arch", "registers", "stack", "shared", "local");

    private final String source;
    private int version;
    private List<KernelRow> kernels = List.of();
    /** Schema 2: the functions, in order, as notes name them. */
    private final List<FunctionNote> functions = new ArrayList<>();
    private JsonNode root;

    private ReportJsonReader(String source) {
        this.source = source;
    }

    /**
     * Reads the report from a stream. Every failure is an {@link InvalidReportException} with one line naming
     * {@code source}: not UTF-8 (a UTF-16 or UTF-32 byte order mark, bytes that are no UTF-8), not JSON (with the line
     * and column), a missing or mistyped key, or the stream failing to read.
     */
    static ReportModel read(InputStream in, String source) throws IOException {
        JsonNode root;
        try {
            BufferedInputStream buffered = new BufferedInputStream(in);
            buffered.mark(4);
            byte[] head = buffered.readNBytes(4);
            buffered.reset();
            String foreign = foreignEncoding(head);
            if (foreign == null && head.length >= 2 && (head[0] == 0 || head[1] == 0)) {
                foreign = "UTF-16 or UTF-32 (a NUL byte in its first characters, no byte order mark)";
            }
            if (foreign != null) {
                throw new InvalidReportException(source + ": the JSON report is " + foreign
                        + " text" + (foreign.startsWith("UTF-16 or") ? "" : " (it starts with that byte order mark)")
                        + "; a report is UTF-8: run the check goal again to rewrite it");
            }
            if (head.length >= 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB && (head[2] & 0xFF) == 0xBF) {
                buffered.skipNBytes(3);
            }
            // strict UTF-8: Jackson's own detection would read UTF-16/32 without a mark and fail outside its
            // JsonProcessingException (CharConversionException), and would replace bad bytes silently in a Reader
            Reader reader = new InputStreamReader(buffered, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
            root = JSON.readTree(reader);
        } catch (InvalidReportException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw new InvalidReportException(source + ": not valid JSON" + where(e.getLocation()) + " ("
                    + Printable.of(e.getOriginalMessage(), 160) + "); run the check goal again to rewrite it", e);
        } catch (CharacterCodingException | CharConversionException e) {
            throw new InvalidReportException(source + ": the JSON report holds bytes that are not UTF-8 text;"
                    + " run the check goal again to rewrite it", e);
        } catch (IOException e) {
            throw new InvalidReportException(source + ": the JSON report could not be read ("
                    + Printable.of(String.valueOf(e.getMessage()), 160) + ")", e);
        }
        return new ReportJsonReader(source).model(root);
    }

    /** The encoding a UTF-32 or UTF-16 byte order mark names, or null. */
    static String foreignEncoding(byte[] head) {
        int[] b = new int[4];
        for (int i = 0; i < 4; i++) {
            b[i] = i < head.length ? head[i] & 0xFF : -1;
        }
        if (b[0] == 0x00 && b[1] == 0x00 && b[2] == 0xFE && b[3] == 0xFF) {
            return "UTF-32BE";
        }
        if (b[0] == 0xFF && b[1] == 0xFE && b[2] == 0x00 && b[3] == 0x00) {
            return "UTF-32LE";
        }
        if (b[0] == 0xFE && b[1] == 0xFF) {
            return "UTF-16BE";
        }
        if (b[0] == 0xFF && b[1] == 0xFE) {
            return "UTF-16LE";
        }
        return null;
    }

    private static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    ReportModel model(JsonNode root) throws InvalidReportException {
        this.root = root;
        if (root == null || !root.isObject()) {
            throw invalid("the top level is not a JSON object");
        }
        JsonNode version = root.get("schemaVersion");
        if (version == null) {
            throw invalid("no schemaVersion: not a cuda-stack-budget report");
        }
        if (!version.isIntegralNumber() || !version.canConvertToInt()) {
            throw invalid("schemaVersion " + Printable.of(version.toString()) + " is not a whole number: not a "
                    + "cuda-stack-budget report");
        }
        if (version.intValue() != 1 && version.intValue() != ReportModel.SCHEMA_VERSION) {
            throw invalid("schemaVersion " + Printable.of(version.asText()) + " is not supported (this version reads "
                    + "1 and " + ReportModel.SCHEMA_VERSION + ")");
        }
        this.version = version.intValue();
        // out (issue 12): the report of a check that failed to run holds its error and no figures
        JsonNode error = root.get("error");
        if (error != null && !error.isNull()) {
            throw new InvalidReportException(source + ": the check that wrote this report failed ("
                    + Printable.of(error.isTextual() ? error.textValue() : error.toString(), 300)
                    + "); fix that and run the check goal again");
        }
        kernels = this.version == 1 ? list(root, "kernels", this::kernel) : functions(root);
        List<ViolationReport> violations = list(root, "violations", this::violation);
        List<LibraryReport> libraries = list(root, "libraries", this::library);
        List<DeviceReport> devices = new ArrayList<>();
        for (JsonNode device : array(root, "devices")) {
            devices.add(device(device, violations));
        }
        List<String> warnings = list(root, "warnings", this::string);
        List<ReportModel.Unreadable> unreadable = root.has("unreadable") ? list(root, "unreadable", this::unreadable)
                : List.of();
        ReportModel model = new ReportModel(version.intValue(), optionalText(root, "engine"),
                optionalText(root, "deviceOrigin"), number(root, "filesProbed", 0), libraries, devices, kernels,
                violations, warnings, launchedRun(root));
        // out (issue 12, outputs): the gate's checks, written only when there are some
        List<GateCheck> checks = optionalList(root, "checks", this::gateCheck);
        model = unreadable.isEmpty() && checks.isEmpty() ? model : new ReportModel(model.schemaVersion(),
                model.engine(), model.deviceOrigin(), model.filesProbed(), model.libraries(), model.devices(),
                model.kernels(), model.violations(), model.warnings(), model.launched(), model.filesWithDeviceCode(),
                unreadable, checks);
        // gate (issue 12): the suppressed kernels
        if (root.has("suppressed")) {
            model = model.withSuppressed(list(root, "suppressed", this::suppressed));
        }
        // issue 12, baselines: only a check with a baseline wrote it
        JsonNode baseline = root.get("baseline");
        return baseline == null || baseline.isNull() ? model : model.withBaseline(baseline(baseline));
    }

    /** out (issue 12): one entry of {@code checks}. */
    private GateCheck gateCheck(JsonNode node) throws InvalidReportException {
        String outcome = text(node, "outcome");
        GateCheck.Outcome parsed;
        try {
            parsed = GateCheck.Outcome.of(outcome);
        } catch (IllegalArgumentException e) {
            throw invalid("'outcome' " + Printable.of(outcome) + " is not one of pass, warn, fail in " + abbreviate(node));
        }
        return new GateCheck(text(node, "category"), text(node, "name"), parsed, optionalText(node, "device"),
                optionalText(node, "library"), optionalText(node, "kernel"), optionalText(node, "arch"),
                optionalNumber(node, "actual"), optionalNumber(node, "limit"), text(node, "message"));
    }

    /** Issue 12: the comparison with a baseline ({@code baseline}). */
    private BaselineReport baseline(JsonNode node) throws InvalidReportException {
        if (!node.isObject()) {
            throw invalid("'baseline' is " + abbreviate(node) + ", not an object");
        }
        JsonNode overall = node.get("overall");
        return new BaselineReport(text(node, "source"), list(node, "devices", this::baselineRow),
                overall == null || overall.isNull() ? null : baselineRow(overall));
    }

    private BaselineReport.Row baselineRow(JsonNode node) throws InvalidReportException {
        if (!node.isObject()) {
            throw invalid("a baseline row is " + abbreviate(node) + ", not an object");
        }
        String outcome = optionalText(node, "outcome");
        io.github.cudastackbudget.core.gate.GateCheck.Outcome parsed;
        try {
            parsed = outcome == null ? null : io.github.cudastackbudget.core.gate.GateCheck.Outcome.of(outcome);
        } catch (IllegalArgumentException e) {
            throw invalid("'outcome' " + Printable.of(outcome) + " is not pass or fail in " + abbreviate(node));
        }
        return new BaselineReport.Row(text(node, "device"), optionalNumber(node, "previousBytes"),
                optionalNumber(node, "currentBytes"), optionalText(node, "maxGrowth"),
                optionalNumber(node, "allowedGrowthBytes"), parsed, kernelOrNull(node, "kernel"),
                optionalText(node, "kernelChange"), optionalNumber(node, "previousStack"), optionalText(node, "note"));
    }

    // gate (issue 12)
    private SuppressedRow suppressed(JsonNode node) throws InvalidReportException {
        KernelRow kernel = kernelOrNull(node, "kernel");
        if (kernel == null) {
            throw invalid("a suppressed kernel has no 'kernel': " + abbreviate(node));
        }
        long entry = number(node, "entry");
        if (entry < 1 || entry > Integer.MAX_VALUE) {
            throw invalid("a suppressed kernel's 'entry' " + entry + " is not a position from 1: " + abbreviate(node));
        }
        return new SuppressedRow(text(node, "device"), kernel, number(node, "reservationBytes"), (int) entry,
                optionalText(node, "pattern"), text(node, "reason"), optionalText(node, "until"));
    }

    private ReportModel.Unreadable unreadable(JsonNode node) throws InvalidReportException {
        JsonNode offset = node.get("offset");
        return new ReportModel.Unreadable(text(node, "path"), offset == null || offset.isNull() ? -1
                : number(node, "offset"), text(node, "problem"));
    }

    private KernelRow kernel(JsonNode node) throws InvalidReportException {
        boolean unknown = optionalBoolean(node, "stackUnknown", false);
        return new KernelRow(text(node, "name"), optionalText(node, "displayName"), text(node, "library"),
                arch(node.get("arch"), "the kernel " + abbreviate(node)), registers(node),
                unknown ? 0 : bytes(node, "stack"), unknown,
                bytes(node, "shared"), bytes(node, "local"), optionalText(node, "frameSource"),
                optionalText(node, "jitFrom"), optionalText(node, "frameTool"));
    }

    private KernelRow kernelOrNull(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : record(value, "'" + field + "' in " + abbreviate(node));
    }

    /** An element of a list of records ({@code unknownStackKernels}). */
    private KernelRow listedRecord(JsonNode value) throws InvalidReportException {
        return record(value, "a list of records");
    }

    /** A record: in schema 2 its position in the records (or a whole kernel object), in schema 1 a kernel object. */
    private KernelRow record(JsonNode value, String where) throws InvalidReportException {
        if (version == 1 || value.isObject()) {
            return kernel(value);
        }
        int at = value.asInt(-1);
        if (!value.isIntegralNumber() || !value.canConvertToInt() || at < 0 || at >= kernels.size()) {
            throw invalid(abbreviate(value) + " is not a record position (0.." + (kernels.size() - 1)
                    + ") nor a kernel object: " + where);
        }
        return kernels.get(at);
    }

    /** Schema 2: the records of {@code functions}, in order, function by function, image by image. */
    private List<KernelRow> functions(JsonNode root) throws InvalidReportException {
        List<String> labels = list(root, "libraryLabels", this::string);
        List<String> fields = list(root, "imageFields", this::string);
        if (!fields.equals(IMAGE_FIELDS)) {
            throw invalid("imageFields " + Printable.of(fields.toString(), 120) + " is not " + IMAGE_FIELDS
                    + " (the figures this version reads)");
        }
        List<KernelRow> records = new ArrayList<>();
        int index = 0;
        for (JsonNode function : array(root, "functions")) {
            if (!function.isObject()) {
                throw invalid("function " + index + " is " + abbreviate(function) + ", not an object");
            }
            long library = number(function, "library");
            if (library < 0 || library >= labels.size()) {
                throw invalid("function " + index + ": 'library' " + library + " is not an index in libraryLabels (0.."
                        + (labels.size() - 1) + ")");
            }
            String label = labels.get((int) library);
            String name = text(function, "name");
            String displayName = optionalText(function, "displayName");
            functions.add(new FunctionNote(name, displayName, label, null, null, List.of()));
            for (JsonNode image : array(function, "images")) {
                records.add(image(image, name, displayName, label, index));
            }
            index++;
        }
        if (root.has("records") && number(root, "records") != records.size()) {
            throw invalid("'records' is " + number(root, "records") + " but the functions hold " + records.size()
                    + " images");
        }
        return records;
    }

    /** One image {@code [arch, registers, stack (null: UNKNOWN), shared, local]} of function {@code index}. */
    private KernelRow image(JsonNode image, String name, String displayName, String library, int index)
            throws InvalidReportException {
        String where = "an image of function " + index + " (" + Printable.of(name, 80) + ")";
        if (!image.isArray() || image.size() != IMAGE_FIELDS.size()) {
            throw invalid(where + " is " + abbreviate(image) + ", not an array of " + IMAGE_FIELDS.size()
                    + " values " + IMAGE_FIELDS);
        }
        String arch = arch(image.get(0), where);
        long registers = imageFigure(image, 1, where);
        if (registers > Integer.MAX_VALUE) {
            throw invalid("'registers' " + registers + " is out of range in " + where);
        }
        JsonNode stack = image.get(2);
        boolean unknown = stack.isNull();
        return new KernelRow(name, displayName, library, arch, (int) registers,
                unknown ? 0 : imageFigure(image, 2, where), unknown, imageFigure(image, 3, where),
                imageFigure(image, 4, where));
    }

    private long imageFigure(JsonNode image, int at, String where) throws InvalidReportException {
        JsonNode value = image.get(at);
        String field = IMAGE_FIELDS.get(at);
        if (value.isIntegralNumber() && !value.canConvertToLong()) {
            throw invalid("'" + field + "' " + Printable.of(value.toString(), 40) + " is out of range (at most "
                    + Long.MAX_VALUE + ") in " + where);
        }
        if (!value.isIntegralNumber()) {
            throw invalid("'" + field + "' is " + abbreviate(value) + ", not a whole number, in " + where);
        }
        if (value.longValue() < 0) {
            throw invalid("'" + field + "' " + value.longValue() + " is negative in " + where);
        }
        return value.longValue();
    }

    private ViolationReport violation(JsonNode node) throws InvalidReportException {
        String kind = text(node, "kind");
        Violation.Kind parsed = Arrays.stream(Violation.Kind.values()).filter(k -> k.id().equals(kind)).findFirst()
                .orElseThrow(() -> invalid("violation kind '" + Printable.of(kind)
                        + "' is not one of reservation, stack"));
        return new ViolationReport(text(node, "device"), parsed, number(node, "actual"),
                number(node, "limit"), text(node, "kernel"), optionalText(node, "displayName"),
                optionalText(node, "library"), optionalText(node, "arch"));
    }

    private LibraryReport library(JsonNode node) throws InvalidReportException {
        return new LibraryReport(text(node, "path"), node.has("library") ? text(node, "library")
                : Path.of(text(node, "path")).getFileName().toString(), number(node, "kernels"),
                number(node, "records", 0), list(node, "arches", value -> arch(value, "the arches of library "
                        + Printable.of(text(node, "path")))),
                node.has("ptxArches") ? list(node, "ptxArches", value -> arch(value, "the ptxArches of library "
                        + Printable.of(text(node, "path")))) : List.of(),
                number(node, "maxStack", 0), kernelOrNull(node, "worstKernel"), optionalText(node, "usedBy"),
                LIBRARY_LOG.equals(optionalText(node, "foundThrough")), optionalText(node, "platform"),
                optionalBoolean(node, "gated", true));
    }

    private FunctionNote note(JsonNode node) throws InvalidReportException {
        if (version != 1) {
            if (!node.isObject()) {
                throw invalid("a note is " + abbreviate(node) + ", not an object");
            }
            long at = number(node, "function");
            if (at < 0 || at >= functions.size()) {
                throw invalid("'function' " + at + " is not an index in functions (0.." + (functions.size() - 1)
                        + ") in " + abbreviate(node));
            }
            FunctionNote function = functions.get((int) at);
            String displayName = optionalText(node, "displayName");
            return new FunctionNote(function.name(), displayName == null ? function.displayName() : displayName,
                    function.library(), optionalText(node, "jitFrom"), optionalText(node, "countedArch"),
                    node.has("otherArches") ? list(node, "otherArches", this::string) : List.of());
        }
        return new FunctionNote(text(node, "name"), optionalText(node, "displayName"), text(node, "library"),
                optionalText(node, "jitFrom"), optionalText(node, "countedArch"),
                node.has("otherArches") ? list(node, "otherArches", this::string) : List.of());
    }

    private DeviceReport device(JsonNode node, List<ViolationReport> violations) throws InvalidReportException {
        String name = text(node, "name");
        Verdict status;
        try {
            status = Verdict.of(text(node, "status"));
        } catch (IllegalArgumentException e) {
            throw invalid("device '" + Printable.of(name) + "': status '" + Printable.of(text(node, "status"))
                    + "' is not one of pass, fail, skipped");
        }
        TreeMap<String, Integer> imageCounts = new TreeMap<>();
        JsonNode counts = node.path("imageCounts");
        for (var fields = counts.fields(); fields.hasNext(); ) {
            var count = fields.next();
            JsonNode value = count.getValue();
            if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
                throw invalid("device '" + Printable.of(name) + "': imageCounts '" + Printable.of(count.getKey())
                        + "' is not a whole number of images");
            }
            imageCounts.put(count.getKey(), value.intValue());
        }
        List<KernelRow> selected = new ArrayList<>();
        if (version != 1 && !node.path("selectedKernels").isArray()) {
            throw invalid("device '" + Printable.of(name) + "': 'selectedKernels' is missing or not a list");
        }
        for (JsonNode position : node.path("selectedKernels")) {
            if (version != 1 && position.isObject()) {
                selected.add(kernel(position));
                continue;
            }
            int at = position.asInt(-1);
            if (!position.isIntegralNumber() || !position.canConvertToInt() || at < 0 || at >= kernels.size()) {
                throw invalid("device '" + Printable.of(name) + "': selectedKernels holds " + position
                        + ", which is not a position in kernels (0.." + (kernels.size() - 1) + ")");
            }
            selected.add(kernels.get(at));
        }
        return new DeviceReport(name, optionalText(node, "preset"), text(node, "computeCapability"),
                text(node, "targetArch"), positive(node, "maxResidentThreads"),
                optionalNumber(node, "multiProcessorCount"),
                optionalNumber(node, "memoryBytes"), optionalText(node, "figuresSource"), status,
                optionalText(node, "skipReason"), optionalText(node, "chosenArch"),
                optionalBoolean(node, "fellBack", false),
                imageCounts, number(node, "reservationBytes"), number(node, "staticReservationBytes"),
                number(node, "incrementBytes", 0), optionalNumber(node, "budgetBytes"),
                kernelOrNull(node, "worstKernel"), kernelOrNull(node, "worstLocalKernel"),
                kernelOrNull(node, "nextWorstKernel"), optionalNumber(node, "reservationIfWorstShrinksBytes"),
                selected, optionalList(node, "unknownStackKernels", this::listedRecord),
                optionalList(node, "jitKernels", this::note), optionalList(node, "cannotRunKernels", this::note),
                optionalList(node, "ambiguousKernels", this::note),
                violations.stream().filter(v -> v.device().equals(name)).toList(), launchedDevice(node))
                .withPlatforms(optionalList(node, "platforms", platform -> platform(name, platform)));
    }

    private PlatformReport platform(String device, JsonNode node) throws InvalidReportException {
        Verdict status;
        try {
            status = Verdict.of(text(node, "status"));
        } catch (IllegalArgumentException e) {
            throw invalid("device '" + Printable.of(device) + "', platforms: " + Printable.of(e.getMessage()));
        }
        return new PlatformReport(text(node, "platform"), optionalBoolean(node, "gated", true), status,
                number(node, "reservationBytes"), kernelOrNull(node, "worstKernel"));
    }

    /** The top-level launched block with the unmatched kernels, or null without a launch log. */
    private LaunchedRunReport launchedRun(JsonNode root) throws InvalidReportException {
        JsonNode node = root.get("launched");
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw invalid("'launched' is not an object");
        }
        return new LaunchedRunReport(text(node, "log"), optionalText(node, "format"), optionalText(node, "status"),
                optionalBoolean(node, "headline", false), optionalText(node, "libraryLog"),
                number(node, "kernels", 0), number(node, "matched", 0), number(node, "unmatched", 0),
                number(node, "librariesLoaded", 0),
                optionalList(node, "librariesFoundThroughLibraryLog", this::string),
                optionalList(node, "libraryLogEntriesNotOnThisMachine", this::string),
                optionalList(node, "matchedKernels", this::matched),
                optionalList(root, "unmatchedLaunchedKernels", this::launchEntry));
    }

    private MatchedLaunch matched(JsonNode node) throws InvalidReportException {
        return new MatchedLaunch(launchEntry(node), optionalList(node, "libraries", this::string),
                optionalList(node, "notLoadedIn", this::string));
    }

    private LaunchEntry launchEntry(JsonNode node) throws InvalidReportException {
        return new LaunchEntry(text(node, "name"), optionalText(node, "displayName"),
                optionalList(node, "attributions", this::string), optionalNumber(node, "maxDynamicShared"),
                driverFrame(node));
    }

    /** The driver's figures of a launched kernel (launch log format 2), or null when the report has none. */
    private DriverFrameRow driverFrame(JsonNode node) throws InvalidReportException {
        JsonNode frame = node.get("driverFrame");
        if (frame == null || frame.isNull()) {
            return null;
        }
        if (!frame.isObject()) {
            throw invalid("'driverFrame' is not an object in " + abbreviate(node));
        }
        Long registers = optionalNumber(frame, "registers");
        if (registers != null && (registers < 0 || registers > Integer.MAX_VALUE)) {
            throw invalid("'registers' " + registers + " is out of range in " + abbreviate(frame));
        }
        return new DriverFrameRow(optionalNumber(frame, "localBytes"),
                registers == null ? null : Integer.valueOf(registers.intValue()), optionalNumber(frame, "sharedBytes"),
                optionalText(frame, "arch"));
    }

    private DriverDifferenceRow driverDifference(JsonNode node) throws InvalidReportException {
        JsonNode value = node.get("kernel");
        if (value == null || value.isNull()) {
            throw invalid("a driver difference has no 'kernel' record in " + abbreviate(node));
        }
        DriverFrameRow frame = driverFrame(node);
        if (frame == null) {
            throw invalid("a driver difference has no 'driverFrame' in " + abbreviate(node));
        }
        return new DriverDifferenceRow(record(value, "'kernel' in " + abbreviate(node)), frame);
    }

    /** A device's launched-mode figures, or null when the device has none (no launch log). */
    private LaunchedDeviceReport launchedDevice(JsonNode node) throws InvalidReportException {
        if (!node.has("launchedReservationBytes")) {
            return null;
        }
        return new LaunchedDeviceReport(optionalBoolean(node, "launchedHeadline", false),
                number(node, "launchedReservationBytes"), number(node, "launchedIncrementBytes", 0),
                kernelOrNull(node, "launchedWorstKernel"), kernelOrNull(node, "staticWorstKernel"),
                optionalList(node, "launchedKernels", this::launchedKernel),
                optionalList(node, "launchedJitKernels", this::note),
                optionalList(node, "launchedCannotRunKernels", this::note), node.has("launchedDriverDifferences"),
                optionalList(node, "launchedDriverDifferences", this::driverDifference),
                optionalList(node, "launchedDriverOtherArch", this::string));
    }

    private LaunchedKernelRow launchedKernel(JsonNode node) throws InvalidReportException {
        KernelRow kernel;
        if (version == 1) {
            kernel = kernel(node);
        } else {
            JsonNode value = node.get("kernel");
            if (value == null || value.isNull()) {
                throw invalid("a launched kernel has no 'kernel' record in " + abbreviate(node));
            }
            kernel = record(value, "'kernel' in " + abbreviate(node));
        }
        return new LaunchedKernelRow(kernel, optionalNumber(node, "maxDynamicShared"),
                number(node, "sharedPerBlock"), optionalList(node, "attributions", this::string),
                optionalText(node, "frameSource"), driverFrame(node));
    }

    private interface Conversion<T> {
        T convert(JsonNode node) throws InvalidReportException;
    }

    private <T> List<T> list(JsonNode node, String field, Conversion<T> conversion) throws InvalidReportException {
        List<T> out = new ArrayList<>();
        for (JsonNode element : array(node, field)) {
            out.add(conversion.convert(element));
        }
        return out;
    }

    private <T> List<T> optionalList(JsonNode node, String field, Conversion<T> conversion)
            throws InvalidReportException {
        return node.has(field) ? list(node, field, conversion) : List.of();
    }

    private JsonNode array(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            throw invalid("'" + field + "' is missing or not a list");
        }
        return value;
    }

    private String text(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw invalid("'" + field + "' is missing or not a string in " + abbreviate(node));
        }
        return value.textValue();
    }

    private String optionalText(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : text(node, field);
    }

    /** An element of a list of strings. */
    private String string(JsonNode value) throws InvalidReportException {
        if (!value.isTextual()) {
            throw invalid("a list holds " + abbreviate(value) + " where a string belongs");
        }
        return value.textValue();
    }

    private long number(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        // integral only: 1.5 or 1e30 used to be truncated or clamped silently
        if (value != null && value.isIntegralNumber() && !value.canConvertToLong()) {
            throw invalid("'" + field + "' " + Printable.of(value.toString(), 40) + " is out of range (at most "
                    + Long.MAX_VALUE + ") in " + where(node));
        }
        if (value == null || !value.isIntegralNumber()) {
            throw invalid("'" + field + "' is missing or not a whole number in " + where(node));
        }
        return value.longValue();
    }

    /** A byte figure of a kernel: a whole number, not negative. */
    private long bytes(JsonNode node, String field) throws InvalidReportException {
        long value = number(node, field);
        if (value < 0) {
            throw invalid("'" + field + "' " + value + " is negative in " + abbreviate(node));
        }
        return value;
    }

    private long positive(JsonNode node, String field) throws InvalidReportException {
        long value = number(node, field);
        if (value <= 0) {
            throw invalid("'" + field + "' " + value + " is not positive in " + abbreviate(node));
        }
        return value;
    }

    private int registers(JsonNode node) throws InvalidReportException {
        long registers = number(node, "registers");
        if (registers < 0 || registers > Integer.MAX_VALUE) {
            throw invalid("'registers' " + registers + " is out of range in " + abbreviate(node));
        }
        return (int) registers;
    }

    private Long optionalNumber(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : number(node, field);
    }

    /** A whole number that may be absent (then {@code absent}); present, it must be one. */
    /** A true/false field that may be absent (then {@code absent}); anything else is refused, never read as false. */
    private boolean optionalBoolean(JsonNode node, String field, boolean absent) throws InvalidReportException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw invalid("'" + field + "' is " + abbreviate(value) + ", not true or false, in " + where(node));
        }
        return value.booleanValue();
    }

    private long number(JsonNode node, String field, long absent) throws InvalidReportException {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? absent : number(node, field);
    }

    /** An arch label (a string that is a CUDA arch label) in {@code where}. */
    private String arch(JsonNode value, String where) throws InvalidReportException {
        if (value == null || !value.isTextual()) {
            throw invalid("an arch is missing or not a string in " + where + ": " + abbreviate(value));
        }
        try {
            GpuArch.parse(value.textValue());
        } catch (InvalidValueException e) {
            throw invalid("'" + Printable.of(value.textValue()) + "' in " + where + " is not a CUDA arch label "
                    + "(e.g. sm_90)");
        }
        return value.textValue();
    }

    /** Where a field is: "the top level", or the object abbreviated. */
    private String where(JsonNode node) {
        return node == root ? "the top level" : abbreviate(node);
    }

    private static String abbreviate(JsonNode node) {
        return node == null ? "nothing" : Printable.of(node.toString(), 120);
    }

    private InvalidReportException invalid(String problem) {
        return new InvalidReportException(Objects.requireNonNull(source) + ": " + problem
                + "; run the check goal of this plugin version again to rewrite it");
    }
}
