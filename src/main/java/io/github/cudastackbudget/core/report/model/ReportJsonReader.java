package io.github.cudastackbudget.core.report.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.budget.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Reads a {@code cuda-stack-budget.json} (schema version 1) into the {@link ReportModel}, with one clear message for a
 * missing or mistyped key.
 */
final class ReportJsonReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The {@code foundThrough} value of a library the launch's library log named. */
    static final String LIBRARY_LOG = "libraryLog";

    private final String source;
    private List<KernelRow> kernels = List.of();

    private ReportJsonReader(String source) {
        this.source = source;
    }

    static ReportModel read(InputStream in, String source) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(in);
        } catch (JsonProcessingException e) {
            throw new InvalidReportException(source + ": not valid JSON (" + e.getOriginalMessage()
                    + "); run the check goal again to rewrite it", e);
        }
        return new ReportJsonReader(source).model(root);
    }

    ReportModel model(JsonNode root) throws InvalidReportException {
        if (root == null || !root.isObject()) {
            throw invalid("the top level is not a JSON object");
        }
        JsonNode version = root.get("schemaVersion");
        if (version == null || !version.canConvertToInt()) {
            throw invalid("no schemaVersion: not a cuda-stack-budget report");
        }
        if (version.intValue() != ReportModel.SCHEMA_VERSION) {
            throw invalid("schemaVersion " + version.asText() + " is not supported (this version reads "
                    + ReportModel.SCHEMA_VERSION + ")");
        }
        kernels = list(root, "kernels", this::kernel);
        List<ViolationReport> violations = list(root, "violations", this::violation);
        List<LibraryReport> libraries = list(root, "libraries", this::library);
        List<DeviceReport> devices = new ArrayList<>();
        for (JsonNode device : array(root, "devices")) {
            devices.add(device(device, violations));
        }
        List<String> warnings = list(root, "warnings", JsonNode::asText);
        List<ReportModel.Unreadable> unreadable = root.has("unreadable") ? list(root, "unreadable", this::unreadable)
                : List.of();
        ReportModel model = new ReportModel(version.intValue(), optionalText(root, "engine"),
                optionalText(root, "deviceOrigin"), root.path("filesProbed").asLong(0), libraries, devices, kernels,
                violations, warnings, launchedRun(root));
        return unreadable.isEmpty() ? model : new ReportModel(model.schemaVersion(), model.engine(),
                model.deviceOrigin(), model.filesProbed(), model.libraries(), model.devices(), model.kernels(),
                model.violations(), model.warnings(), model.launched(), model.filesWithDeviceCode(), unreadable);
    }

    private ReportModel.Unreadable unreadable(JsonNode node) throws InvalidReportException {
        JsonNode offset = node.get("offset");
        return new ReportModel.Unreadable(text(node, "path"), offset == null || offset.isNull() ? -1
                : number(node, "offset"), text(node, "problem"));
    }

    private KernelRow kernel(JsonNode node) throws InvalidReportException {
        boolean unknown = node.path("stackUnknown").asBoolean(false);
        return new KernelRow(text(node, "name"), optionalText(node, "displayName"), text(node, "library"),
                text(node, "arch"), registers(node), unknown ? 0 : number(node, "stack"), unknown,
                number(node, "shared"), number(node, "local"));
    }

    private KernelRow kernelOrNull(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : kernel(value);
    }

    private ViolationReport violation(JsonNode node) throws InvalidReportException {
        String kind = text(node, "kind");
        Violation.Kind parsed = Arrays.stream(Violation.Kind.values()).filter(k -> k.id().equals(kind)).findFirst()
                .orElseThrow(() -> invalid("violation kind '" + kind + "' is not one of reservation, stack"));
        return new ViolationReport(text(node, "device"), parsed, number(node, "actual"),
                number(node, "limit"), text(node, "kernel"), optionalText(node, "displayName"),
                optionalText(node, "library"), optionalText(node, "arch"));
    }

    private LibraryReport library(JsonNode node) throws InvalidReportException {
        return new LibraryReport(text(node, "path"), node.has("library") ? text(node, "library")
                : Path.of(text(node, "path")).getFileName().toString(), number(node, "kernels"),
                node.path("records").asLong(0), list(node, "arches", JsonNode::asText),
                node.has("ptxArches") ? list(node, "ptxArches", JsonNode::asText) : List.of(),
                node.path("maxStack").asLong(0), kernelOrNull(node, "worstKernel"), optionalText(node, "usedBy"),
                LIBRARY_LOG.equals(optionalText(node, "foundThrough")), optionalText(node, "platform"),
                node.path("gated").asBoolean(true));
    }

    private FunctionNote note(JsonNode node) throws InvalidReportException {
        return new FunctionNote(text(node, "name"), optionalText(node, "displayName"), text(node, "library"),
                optionalText(node, "jitFrom"), optionalText(node, "countedArch"),
                node.has("otherArches") ? list(node, "otherArches", JsonNode::asText) : List.of());
    }

    private DeviceReport device(JsonNode node, List<ViolationReport> violations) throws InvalidReportException {
        String name = text(node, "name");
        Verdict status;
        try {
            status = Verdict.of(text(node, "status"));
        } catch (IllegalArgumentException e) {
            throw invalid("device '" + name + "': " + e.getMessage());
        }
        TreeMap<String, Integer> imageCounts = new TreeMap<>();
        node.path("imageCounts").fields().forEachRemaining(e -> imageCounts.put(e.getKey(), e.getValue().asInt()));
        List<KernelRow> selected = new ArrayList<>();
        for (JsonNode position : node.path("selectedKernels")) {
            int at = position.asInt(-1);
            if (!position.canConvertToInt() || at < 0 || at >= kernels.size()) {
                throw invalid("device '" + name + "': selectedKernels holds " + position
                        + ", which is not a position in kernels (0.." + (kernels.size() - 1) + ")");
            }
            selected.add(kernels.get(at));
        }
        return new DeviceReport(name, optionalText(node, "preset"), text(node, "computeCapability"),
                text(node, "targetArch"), number(node, "maxResidentThreads"),
                optionalNumber(node, "multiProcessorCount"),
                optionalNumber(node, "memoryBytes"), optionalText(node, "figuresSource"), status,
                optionalText(node, "skipReason"), optionalText(node, "chosenArch"),
                node.path("fellBack").asBoolean(false),
                imageCounts, number(node, "reservationBytes"), number(node, "staticReservationBytes"),
                node.path("incrementBytes").asLong(0), optionalNumber(node, "budgetBytes"),
                kernelOrNull(node, "worstKernel"), kernelOrNull(node, "worstLocalKernel"),
                kernelOrNull(node, "nextWorstKernel"), optionalNumber(node, "reservationIfWorstShrinksBytes"),
                selected, optionalList(node, "unknownStackKernels", this::kernel),
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
            throw invalid("device '" + device + "', platforms: " + e.getMessage());
        }
        return new PlatformReport(text(node, "platform"), node.path("gated").asBoolean(true), status,
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
                node.path("headline").asBoolean(false), optionalText(node, "libraryLog"),
                node.path("kernels").asLong(0), node.path("matched").asLong(0), node.path("unmatched").asLong(0),
                node.path("librariesLoaded").asLong(0),
                optionalList(node, "librariesFoundThroughLibraryLog", JsonNode::asText),
                optionalList(node, "libraryLogEntriesNotOnThisMachine", JsonNode::asText),
                optionalList(node, "matchedKernels", this::matched),
                optionalList(root, "unmatchedLaunchedKernels", this::launchEntry));
    }

    private MatchedLaunch matched(JsonNode node) throws InvalidReportException {
        return new MatchedLaunch(launchEntry(node), optionalList(node, "libraries", JsonNode::asText),
                optionalList(node, "notLoadedIn", JsonNode::asText));
    }

    private LaunchEntry launchEntry(JsonNode node) throws InvalidReportException {
        return new LaunchEntry(text(node, "name"), optionalText(node, "displayName"),
                optionalList(node, "attributions", JsonNode::asText), optionalNumber(node, "maxDynamicShared"));
    }

    /** A device's launched-mode figures, or null when the device has none (no launch log). */
    private LaunchedDeviceReport launchedDevice(JsonNode node) throws InvalidReportException {
        if (!node.has("launchedReservationBytes")) {
            return null;
        }
        return new LaunchedDeviceReport(node.path("launchedHeadline").asBoolean(false),
                number(node, "launchedReservationBytes"), node.path("launchedIncrementBytes").asLong(0),
                kernelOrNull(node, "launchedWorstKernel"), kernelOrNull(node, "staticWorstKernel"),
                optionalList(node, "launchedKernels", this::launchedKernel),
                optionalList(node, "launchedJitKernels", this::note),
                optionalList(node, "launchedCannotRunKernels", this::note));
    }

    private LaunchedKernelRow launchedKernel(JsonNode node) throws InvalidReportException {
        return new LaunchedKernelRow(kernel(node), optionalNumber(node, "maxDynamicShared"),
                number(node, "sharedPerBlock"), optionalList(node, "attributions", JsonNode::asText));
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

    private static String optionalText(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private long number(JsonNode node, String field) throws InvalidReportException {
        JsonNode value = node.get(field);
        // integral only: 1.5 or 1e30 used to be truncated or clamped silently
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw invalid("'" + field + "' is missing or not a whole number in " + abbreviate(node));
        }
        return value.longValue();
    }

    private int registers(JsonNode node) throws InvalidReportException {
        long registers = number(node, "registers");
        if (registers < 0 || registers > Integer.MAX_VALUE) {
            throw invalid("'registers' " + registers + " is out of range in " + abbreviate(node));
        }
        return (int) registers;
    }

    private static Long optionalNumber(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asLong();
    }

    private static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() <= 120 ? text : text.substring(0, 117) + "...";
    }

    private InvalidReportException invalid(String problem) {
        return new InvalidReportException(Objects.requireNonNull(source) + ": " + problem
                + "; run the check goal of this plugin version again to rewrite it");
    }
}
