package io.github.cudastackbudget.core.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.Phrases;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code cuda-stack-budget.sarif}: the check as a SARIF 2.1.0 log (what GitHub code scanning and other SARIF viewers
 * read). One run; {@code tool.driver} names the plugin, its version and the rules that have results (the two budgets
 * {@code maxReservation} and {@code maxStackPerThread}, and {@code <category>/<name>} per gate check); one result per
 * violation (level {@code error}) and per failed ({@code error}) or warned ({@code warning}) gate check, located at
 * the library (its path as the report names it: relative to the project, base {@code %SRCROOT%}, or an absolute
 * {@code file:} URI), with {@code properties} device, kernel, arch, bytes and limitBytes. A check that could not run
 * is a run with {@code executionSuccessful: false}, the error as a tool execution notification and no results.
 * Written with Jackson in a fixed key order: the same model gives the same bytes.
 */
public final class SarifReportWriter {

    /** The SARIF version written. */
    public static final String VERSION = "2.1.0";

    /** The schema of that version. */
    public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

    /** The base id relative artifact locations name: the project's base directory. */
    public static final String SOURCE_ROOT = "%SRCROOT%";

    /** The tool's name in {@code tool.driver.name}. */
    public static final String TOOL = "cuda-stack-budget";

    private static final JsonFactory FACTORY = new JsonFactory();

    private final JsonGenerator json;
    private final ReportModel model;

    private SarifReportWriter(JsonGenerator json, ReportModel model) {
        this.json = json;
        this.model = model;
    }

    /** A result: its rule, level, message, library label (or null) and properties. */
    private record Result(String ruleId, String level, String message, String library,
            SortedMap<String, Object> properties) {
    }

    /** A rule: id and short description. */
    private record Rule(String id, String description) {
    }

    /** Writes the log of a check's model. */
    public static void write(ReportModel model, Frontend frontend, OutputStream out) throws IOException {
        List<Result> results = new ArrayList<>();
        SortedMap<String, Rule> rules = new TreeMap<>();
        for (ViolationReport violation : model.violations()) {
            String rule = violation.reservation() ? frontend.name(Option.MAX_RESERVATION)
                    : frontend.name(Option.MAX_STACK_PER_THREAD);
            rules.put(rule, new Rule(rule, violation.reservation()
                    ? "A device's stack reservation (resident threads x the largest frame) exceeds its budget."
                    : "A kernel's stack frame per thread exceeds the frame limit."));
            SortedMap<String, Object> properties = new TreeMap<>();
            properties.put("device", violation.device());
            properties.put("kernel", violation.kernel());
            properties.put("arch", violation.arch());
            properties.put("bytes", violation.actual());
            properties.put("limitBytes", violation.limit());
            results.add(new Result(rule, "error", Phrases.violation(violation, model.device(violation.device()),
                    Phrases.ViolationWording.LOG, frontend).plain(), violation.library(), properties));
        }
        for (GateCheck check : model.checks()) {
            if (check.outcome() == GateCheck.Outcome.PASS) {
                continue;
            }
            String rule = check.category() + "/" + check.name();
            rules.put(rule, new Rule(rule, "The " + check.category() + " check " + check.name() + "."));
            SortedMap<String, Object> properties = new TreeMap<>();
            putIfSet(properties, "device", check.device());
            putIfSet(properties, "kernel", check.kernel());
            putIfSet(properties, "arch", check.arch());
            putIfSet(properties, "bytes", check.actual());
            putIfSet(properties, "limitBytes", check.limit());
            properties.put("category", check.category());
            results.add(new Result(rule, check.failed() ? "error" : "warning", check.message(), check.library(),
                    properties));
        }
        try (JsonGenerator json = generator(out)) {
            new SarifReportWriter(json, model).log(List.copyOf(rules.values()), results, null);
            json.writeRaw('\n');
        }
    }

    /** Writes the log of a check that could not run. */
    public static void writeError(String message, OutputStream out) throws IOException {
        try (JsonGenerator json = generator(out)) {
            new SarifReportWriter(json, null).log(List.of(), List.of(), message);
            json.writeRaw('\n');
        }
    }

    private static JsonGenerator generator(OutputStream out) throws IOException {
        JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8);
        DefaultPrettyPrinter pretty = new DefaultPrettyPrinter()
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        json.setPrettyPrinter(pretty);
        return json;
    }

    private static void putIfSet(SortedMap<String, Object> properties, String key, Object value) {
        if (value != null) {
            properties.put(key, value);
        }
    }

    private void log(List<Rule> rules, List<Result> results, String error) throws IOException {
        json.writeStartObject();
        json.writeStringField("$schema", SCHEMA);
        json.writeStringField("version", VERSION);
        json.writeArrayFieldStart("runs");
        json.writeStartObject();
        json.writeObjectFieldStart("tool");
        json.writeObjectFieldStart("driver");
        json.writeStringField("name", TOOL);
        json.writeStringField("version", pluginVersion());
        json.writeArrayFieldStart("rules");
        for (Rule rule : rules) {
            json.writeStartObject();
            json.writeStringField("id", rule.id());
            json.writeObjectFieldStart("shortDescription");
            json.writeStringField("text", rule.description());
            json.writeEndObject();
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeEndObject();
        json.writeArrayFieldStart("invocations");
        json.writeStartObject();
        json.writeBooleanField("executionSuccessful", error == null);
        if (error != null) {
            json.writeArrayFieldStart("toolExecutionNotifications");
            json.writeStartObject();
            json.writeStringField("level", "error");
            json.writeObjectFieldStart("message");
            json.writeStringField("text", error);
            json.writeEndObject();
            json.writeEndObject();
            json.writeEndArray();
        }
        json.writeEndObject();
        json.writeEndArray();
        json.writeObjectFieldStart("originalUriBaseIds");
        json.writeObjectFieldStart(SOURCE_ROOT);
        json.writeObjectFieldStart("description");
        json.writeStringField("text", "The project's base directory.");
        json.writeEndObject();
        json.writeEndObject();
        json.writeEndObject();
        json.writeArrayFieldStart("results");
        for (Result result : results) {
            result(rules, result);
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeEndArray();
        json.writeEndObject();
    }

    private void result(List<Rule> rules, Result result) throws IOException {
        json.writeStartObject();
        json.writeStringField("ruleId", result.ruleId());
        for (int i = 0; i < rules.size(); i++) {
            if (rules.get(i).id().equals(result.ruleId())) {
                json.writeNumberField("ruleIndex", i);
            }
        }
        json.writeStringField("level", result.level());
        json.writeObjectFieldStart("message");
        json.writeStringField("text", result.message());
        json.writeEndObject();
        json.writeArrayFieldStart("locations");
        String path = result.library() == null ? null : pathOf(result.library());
        if (path != null) {
            json.writeStartObject();
            json.writeObjectFieldStart("physicalLocation");
            json.writeObjectFieldStart("artifactLocation");
            artifact(path);
            json.writeEndObject();
            json.writeEndObject();
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeObjectFieldStart("properties");
        if (result.library() != null) {
            json.writeStringField("library", result.library());
        }
        for (var property : result.properties().entrySet()) {
            if (property.getValue() instanceof Long number) {
                json.writeNumberField(property.getKey(), number);
            } else {
                json.writeStringField(property.getKey(), String.valueOf(property.getValue()));
            }
        }
        json.writeEndObject();
        json.writeEndObject();
    }

    /** The file of a library label: the path of the first library of that label, else the label itself. */
    private String pathOf(String label) {
        for (LibraryReport library : model.libraries()) {
            if (library.library().equals(label)) {
                return library.path();
            }
        }
        return label;
    }

    /** {@code uri} (and {@code uriBaseId} for a relative path) of a path as the report names it. */
    private void artifact(String path) throws IOException {
        Path file = null;
        try {
            file = Path.of(path);
        } catch (InvalidPathException e) {
            // stays a relative reference below
        }
        if (file != null && file.isAbsolute()) {
            json.writeStringField("uri", file.toUri().toASCIIString());
            return;
        }
        json.writeStringField("uri", relativeUri(path));
        json.writeStringField("uriBaseId", SOURCE_ROOT);
    }

    /** A relative path as a relative URI reference: {@code /} separators, anything else a URI cannot hold escaped. */
    static String relativeUri(String path) {
        String slashed = path.replace('\\', '/');
        try {
            return new URI(null, null, slashed, null).toASCIIString();
        } catch (URISyntaxException e) {
            return slashed.replaceAll("[^A-Za-z0-9/._~!$&'()*+,;=:@-]", "_");
        }
    }

    /** The plugin's version from its JAR's Maven metadata ({@code unknown} when run from class folders). */
    static String pluginVersion() {
        try (InputStream in = SarifReportWriter.class.getResourceAsStream(
                "/META-INF/maven/io.github.cudastackbudget/cuda-stack-budget-maven-plugin/pom.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            // unknown
        }
        return "unknown";
    }
}
