package io.github.cudastackbudget.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * The migration of report-schema.md, in Java for the tests: a schema-2 report as the schema-1 report of the same
 * check (flat {@code kernels}, kernel objects where schema 2 names a record by its position, notes with their
 * function's names and library). The goldens' version-1 files equal this view of their version-2 files.
 */
public final class SchemaTwo {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> RECORD_FIELDS = List.of("worstKernel", "worstLocalKernel", "nextWorstKernel",
            "launchedWorstKernel", "staticWorstKernel");
    private static final List<String> NOTE_FIELDS = List.of("ambiguousKernels", "jitKernels", "cannotRunKernels",
            "launchedJitKernels", "launchedCannotRunKernels");

    private SchemaTwo() {
    }

    /** The schema-1 view of a schema-2 report tree (the tree is left unchanged). */
    public static ObjectNode asVersionOne(JsonNode v2) {
        if (v2.get("schemaVersion").intValue() != 2) {
            throw new IllegalArgumentException("not a schema-2 report: " + v2.get("schemaVersion"));
        }
        ObjectNode root = v2.deepCopy();
        JsonNode labels = root.get("libraryLabels");
        ArrayNode kernels = NODES.arrayNode();
        ArrayNode functions = NODES.arrayNode();
        for (JsonNode function : root.get("functions")) {
            String name = function.get("name").textValue();
            String displayName = function.has("displayName") ? function.get("displayName").textValue() : name;
            String library = labels.get(function.get("library").intValue()).textValue();
            functions.add(NODES.objectNode().put("name", name).put("displayName", displayName).put("library", library));
            for (JsonNode image : function.get("images")) {
                // the number nodes as parsed (an int node is not equal to a long node of the same value)
                ObjectNode kernel = NODES.objectNode().put("name", name).put("displayName", displayName)
                        .put("library", library);
                kernel.set("arch", image.get(0));
                kernel.set("registers", image.get(1));
                kernel.set("stack", image.get(2));
                if (image.get(2).isNull()) {
                    kernel.put("stackUnknown", true);
                }
                kernel.set("shared", image.get(3));
                kernel.set("local", image.get(4));
                kernels.add(kernel);
            }
        }
        for (JsonNode library : root.get("libraries")) {
            records((ObjectNode) library, kernels);
        }
        for (JsonNode node : root.get("devices")) {
            ObjectNode device = (ObjectNode) node;
            records(device, kernels);
            ArrayNode unknown = NODES.arrayNode();
            device.get("unknownStackKernels").forEach(k -> unknown.add(record(k, kernels)));
            device.set("unknownStackKernels", unknown);
            for (String field : NOTE_FIELDS) {
                if (device.has(field)) {
                    ArrayNode notes = NODES.arrayNode();
                    for (JsonNode note : device.get(field)) {
                        ObjectNode v1 = functions.get(note.get("function").intValue()).deepCopy();
                        note.fields().forEachRemaining(e -> {
                            if (!e.getKey().equals("function")) {
                                v1.set(e.getKey(), e.getValue());
                            }
                        });
                        notes.add(v1);
                    }
                    device.set(field, notes);
                }
            }
            if (device.has("launchedKernels")) {
                ArrayNode launched = NODES.arrayNode();
                for (JsonNode row : device.get("launchedKernels")) {
                    ObjectNode v1 = ((ObjectNode) record(row.get("kernel"), kernels)).deepCopy();
                    for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) row::fields) {
                        if (!e.getKey().equals("kernel")) {
                            v1.set(e.getKey(), e.getValue());
                        }
                    }
                    launched.add(v1);
                }
                device.set("launchedKernels", launched);
            }
            if (device.has("platforms")) {
                device.get("platforms").forEach(p -> records((ObjectNode) p, kernels));
            }
        }
        root.put("schemaVersion", 1);
        root.remove(List.of("records", "libraryLabels", "imageFields", "functions"));
        root.set("kernels", kernels);
        return root;
    }

    private static void records(ObjectNode node, ArrayNode kernels) {
        for (String field : RECORD_FIELDS) {
            if (node.has(field)) {
                node.set(field, record(node.get(field), kernels));
            }
        }
    }

    private static JsonNode record(JsonNode value, ArrayNode kernels) {
        return value.isIntegralNumber() ? kernels.get(value.intValue()).deepCopy() : value;
    }
}
