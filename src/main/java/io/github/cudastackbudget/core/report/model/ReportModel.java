package io.github.cudastackbudget.core.report.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.CheckResult;
import io.github.cudastackbudget.core.report.JsonReportWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the HTML pages show, read from the {@code cuda-stack-budget.json} that {@code check} wrote (schema version 1),
 * so that the standalone page and the site report render the same figures from the same file. Immutable.
 *
 * @param schemaVersion the JSON's schema version (1)
 * @param engine        the engine's description
 * @param deviceOrigin  where the devices came from ("configured", "default set", ...)
 * @param filesProbed   candidate files looked at
 * @param libraries     every library read, in scan order
 * @param devices       per-device verdicts, in configuration order
 * @param kernels       every record read (all arches), ordered by library, name, arch
 * @param violations    every budget exceeded, device by device
 * @param warnings      one line each
 * @param launched      the launch log the check read (launched mode), else null
 */
public record ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
        List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
        List<ViolationReport> violations, List<String> warnings, LaunchedRunReport launched) {

    /** The only schema version this reader understands. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    public ReportModel {
        engine = engine == null ? "" : engine;
        deviceOrigin = deviceOrigin == null ? "" : deviceOrigin;
        libraries = List.copyOf(libraries);
        devices = List.copyOf(devices);
        kernels = List.copyOf(kernels);
        violations = List.copyOf(violations);
        warnings = List.copyOf(warnings);
    }

    /** A report without a launch log. */
    public ReportModel(int schemaVersion, String engine, String deviceOrigin, long filesProbed,
            List<LibraryReport> libraries, List<DeviceReport> devices, List<KernelRow> kernels,
            List<ViolationReport> violations, List<String> warnings) {
        this(schemaVersion, engine, deviceOrigin, filesProbed, libraries, devices, kernels, violations, warnings, null);
    }

    /** True when the check read a launch log. */
    public boolean launchedMode() {
        return launched != null;
    }

    /**
     * Reads a JSON report.
     *
     * @throws InvalidReportException when the file is not a schema-1 report (the message names the file)
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
        JsonNode root;
        try {
            root = JSON.readTree(in);
        } catch (JsonProcessingException e) {
            throw new InvalidReportException(source + ": not valid JSON (" + e.getOriginalMessage()
                    + "); run the check goal again to rewrite it", e);
        }
        return new Reader(source).model(root);
    }

    /** The model of a check result, through the same JSON the check writes (one path for both pages). */
    public static ReportModel of(CheckResult result) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JsonReportWriter.write(result, out);
            return read(new ByteArrayInputStream(out.toByteArray()), JsonReportWriter.FILE_NAME);
        } catch (IOException e) {
            throw new IllegalStateException("the check result did not round-trip through its own JSON report", e);
        }
    }

    /** Number of kernel records (function images). */
    public int recordCount() {
        return kernels.size();
    }

    /** Number of distinct functions (library + mangled name). */
    public long functionCount() {
        return kernels.stream().map(k -> k.library() + '\u0000' + k.name()).distinct().count();
    }

    /** True when no device code was found. */
    public boolean noKernels() {
        return kernels.isEmpty();
    }

    /** Every embedded SASS arch of every library, ascending by the label's numeric order. */
    public SortedSet<String> sassArches() {
        SortedSet<String> arches = new TreeSet<>(ReportModel::compareArches);
        libraries.forEach(library -> arches.addAll(library.sassArches()));
        return arches;
    }

    /** The violations of one device. */
    public List<ViolationReport> violationsOf(String device) {
        return violations.stream().filter(v -> v.device().equals(device)).toList();
    }

    /** Orders {@code sm_89} before {@code sm_90} before {@code sm_90a} before {@code sm_100}. */
    static int compareArches(String a, String b) {
        int byNumber = Integer.compare(archNumber(a), archNumber(b));
        return byNumber != 0 ? byNumber : a.compareTo(b);
    }

    private static int archNumber(String label) {
        String digits = label.replaceAll("\\D", "");
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }

    /** Turns the JSON tree into records, with one clear message for a missing or mistyped key. */
    private static final class Reader {
        private final String source;
        private List<KernelRow> kernels = List.of();

        Reader(String source) {
            this.source = source;
        }

        ReportModel model(JsonNode root) throws InvalidReportException {
            if (root == null || !root.isObject()) {
                throw invalid("the top level is not a JSON object");
            }
            JsonNode version = root.get("schemaVersion");
            if (version == null || !version.canConvertToInt()) {
                throw invalid("no schemaVersion: not a cuda-stack-budget report");
            }
            if (version.intValue() != SCHEMA_VERSION) {
                throw invalid("schemaVersion " + version.asText() + " is not supported (this version reads "
                        + SCHEMA_VERSION + ")");
            }
            kernels = list(root, "kernels", this::kernel);
            List<ViolationReport> violations = list(root, "violations", this::violation);
            List<LibraryReport> libraries = list(root, "libraries", this::library);
            List<DeviceReport> devices = new ArrayList<>();
            for (JsonNode device : array(root, "devices")) {
                devices.add(device(device, violations));
            }
            List<String> warnings = list(root, "warnings", JsonNode::asText);
            return new ReportModel(version.intValue(), optionalText(root, "engine"), optionalText(root, "deviceOrigin"),
                    root.path("filesProbed").asLong(0), libraries, devices, kernels, violations, warnings,
                    launchedRun(root));
        }

        private KernelRow kernel(JsonNode node) throws InvalidReportException {
            boolean unknown = node.path("stackUnknown").asBoolean(false);
            return new KernelRow(text(node, "name"), optionalText(node, "displayName"), text(node, "library"),
                    text(node, "arch"), (int) number(node, "registers"), unknown ? 0 : number(node, "stack"), unknown,
                    number(node, "shared"), number(node, "local"));
        }

        private KernelRow kernelOrNull(JsonNode node, String field) throws InvalidReportException {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? null : kernel(value);
        }

        private ViolationReport violation(JsonNode node) throws InvalidReportException {
            return new ViolationReport(text(node, "device"), text(node, "kind"), number(node, "actual"),
                    number(node, "limit"), text(node, "kernel"), optionalText(node, "displayName"),
                    optionalText(node, "library"), optionalText(node, "arch"));
        }

        private LibraryReport library(JsonNode node) throws InvalidReportException {
            return new LibraryReport(text(node, "path"), node.has("library") ? text(node, "library")
                    : Path.of(text(node, "path")).getFileName().toString(), number(node, "kernels"),
                    node.path("records").asLong(0), list(node, "arches", JsonNode::asText),
                    node.has("ptxArches") ? list(node, "ptxArches", JsonNode::asText) : List.of(),
                    node.path("maxStack").asLong(0), kernelOrNull(node, "worstKernel"), optionalText(node, "usedBy"),
                    optionalText(node, "foundThrough"));
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
                    violations.stream().filter(v -> v.device().equals(name)).toList(), launchedDevice(node));
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
                    optionalList(root, "unmatchedLaunchedKernels", this::unmatched));
        }

        private UnmatchedLaunch unmatched(JsonNode node) throws InvalidReportException {
            return new UnmatchedLaunch(text(node, "name"), optionalText(node, "displayName"),
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
            if (value == null || !value.canConvertToLong()) {
                throw invalid("'" + field + "' is missing or not a whole number in " + abbreviate(node));
            }
            return value.longValue();
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
}
