package io.github.cudastackbudget.core.report.html;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.github.cudastackbudget.core.report.records.ReportFunctions;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The kernel records the page's script sorts and filters, encoded compactly, each function once: every distinct readable
 * name once, sorted and front-coded ({@code np}: the length of the prefix shared with the name before, {@code ns}: the
 * rest), every library and arch once; then per function {@code name, library, images} and per image
 * {@code arch, stack (-1 = UNKNOWN), local, shared, registers} ({@code f}, a flat list of integers; the images one after
 * the other are the model's records in order); and per device the positions of the records it runs. Emitted as JSON
 * inside a {@code <script type="application/json">} block in which {@code </} and {@code <!} are escaped, so no text
 * can end the block or open a comment in it.
 */
final class KernelData {

    /** Integers per record once the script has decoded them (name, library, arch, stack, local, shared, registers). */
    static final int FIELDS = 7;

    /** Integers per image in {@code f}: arch, stack, local, shared, registers. */
    static final int IMAGE_FIELDS = 5;

    private KernelData() {
    }

    /** The kernels in the page's default order: largest frame first (UNKNOWN first), ties in the model's order. */
    static List<KernelRow> largestFrameFirst(List<KernelRow> kernels) {
        List<KernelRow> sorted = new ArrayList<>(kernels);
        sorted.sort((a, b) -> Long.compare(rank(b), rank(a)));
        return sorted;
    }

    private static long rank(KernelRow row) {
        return row.stackUnknown() ? Long.MAX_VALUE : row.stack();
    }

    static String json(ReportModel model) {
        ReportFunctions functions = ReportFunctions.ofRecords(model.kernels());
        TreeMap<String, Integer> sorted = new TreeMap<>();
        Map<String, Integer> libraries = new LinkedHashMap<>();
        for (ReportFunctions.Function function : functions.list()) {
            sorted.put(function.displayName(), 0);
            libraries.putIfAbsent(function.library(), libraries.size());
        }
        List<String> names = new ArrayList<>(sorted.size());
        for (Map.Entry<String, Integer> name : sorted.entrySet()) {
            name.setValue(names.size());
            names.add(name.getKey());
        }
        List<String> arches = new ArrayList<>(model.sassArches());
        model.kernels().stream().map(KernelRow::arch).distinct().filter(a -> !arches.contains(a)).sorted()
                .forEach(arches::add);
        Map<String, Integer> archIndex = new HashMap<>();
        for (int i = 0; i < arches.size(); i++) {
            archIndex.put(arches.get(i), i);
        }
        StringWriter text = new StringWriter(model.kernels().size() * 24 + names.size() * 64);
        try (JsonGenerator json = FACTORY.createGenerator(text)) {
            json.writeStartObject();
            json.writeArrayFieldStart("np");
            String previous = "";
            for (String name : names) {
                json.writeNumber(sharedPrefix(previous, name));
                previous = name;
            }
            json.writeEndArray();
            json.writeArrayFieldStart("ns");
            previous = "";
            for (String name : names) {
                json.writeString(name.substring(sharedPrefix(previous, name)));
                previous = name;
            }
            json.writeEndArray();
            writeStrings(json, "libs", libraries.keySet());
            writeStrings(json, "arches", arches);
            json.writeArrayFieldStart("f");
            List<KernelRow> rows = functions.rows();
            for (ReportFunctions.Function function : functions.list()) {
                json.writeNumber(sorted.get(function.displayName()));
                json.writeNumber(libraries.get(function.library()));
                json.writeNumber(function.end() - function.first());
                for (int i = function.first(); i < function.end(); i++) {
                    KernelRow row = rows.get(i);
                    json.writeNumber(archIndex.get(row.arch()));
                    json.writeNumber(row.stackUnknown() ? -1 : row.stack());
                    json.writeNumber(row.local());
                    json.writeNumber(row.shared());
                    json.writeNumber(row.registers());
                }
            }
            json.writeEndArray();
            json.writeArrayFieldStart("devices");
            for (DeviceReport device : model.devices()) {
                json.writeStartArray();
                for (KernelRow row : device.selectedKernels()) {
                    int position = functions.positionOf(row);
                    if (position >= 0) { // a computed (JIT) figure is no record of the table; the device's card shows it
                        json.writeNumber(position);
                    }
                }
                json.writeEndArray();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return scriptSafe(text.getBuffer());
    }

    /** The length of the prefix {@code name} shares with {@code previous}, never splitting a surrogate pair. */
    static int sharedPrefix(String previous, String name) {
        int limit = Math.min(previous.length(), name.length());
        int at = 0;
        while (at < limit && previous.charAt(at) == name.charAt(at)) {
            at++;
        }
        if (at > 0 && Character.isHighSurrogate(name.charAt(at - 1))) {
            at--;
        }
        return at;
    }

    /**
     * The JSON with {@code </} written as {@code <} and an escaped slash, {@code <!} with its {@code <} escaped, and
     * the {@code s} of {@code <script} (any case) escaped: inside a script element only the first two can end it or
     * start a comment in it, and no page should hold the third; every {@code <} of the JSON is inside a string, where
     * the escapes read back as the same text. Other {@code <}, {@code >} and {@code &} stay as they are (C++ template
     * names hold many).
     */
    static String scriptSafe(CharSequence json) {
        StringBuilder out = new StringBuilder(json.length() + 16);
        int length = json.length();
        for (int i = 0; i < length; i++) {
            char c = json.charAt(i);
            char next = i + 1 < length ? json.charAt(i + 1) : 0;
            if (c == '<' && next == '/') {
                out.append("<\\/");
                i++;
            } else if (c == '<' && next == '!') {
                out.append("\\u003c");
            } else if (c == '<' && json.length() >= i + 7 && json.subSequence(i + 1, i + 7).toString()
                    .equalsIgnoreCase("script")) {
                // inert after the two above, but no page should hold the text of a script tag
                out.append('<').append(next == 's' ? "\\u0073" : "\\u0053");
                i++;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static void writeStrings(JsonGenerator json, String field, Iterable<String> values) throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    private static final JsonFactory FACTORY = new JsonFactory();
}
