package io.github.cudastackbudget.core.report.html;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
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

/**
 * The kernel records the page's script sorts and filters, encoded compactly: every distinct readable name, library
 * and arch once, then each record as seven integers {@code name, library, arch, stack (-1 = UNKNOWN), local, shared,
 * registers}, and per device the positions of the records it runs. Emitted as JSON inside a
 * {@code <script type="application/json">} block with {@code < > &} escaped, so no text can end the block.
 */
final class KernelData {

    /** Integers per record. */
    static final int FIELDS = 7;

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
        Map<String, Integer> names = new LinkedHashMap<>();
        Map<String, Integer> libraries = new LinkedHashMap<>();
        List<String> arches = new ArrayList<>(model.sassArches());
        model.kernels().stream().map(KernelRow::arch).distinct().filter(a -> !arches.contains(a)).sorted()
                .forEach(arches::add);
        Map<String, Integer> archIndex = new HashMap<>();
        for (int i = 0; i < arches.size(); i++) {
            archIndex.put(arches.get(i), i);
        }
        Map<KernelRow, Integer> positions = new HashMap<>(model.kernels().size() * 2);
        for (int i = 0; i < model.kernels().size(); i++) {
            KernelRow row = model.kernels().get(i);
            positions.putIfAbsent(row, i);
            names.putIfAbsent(row.displayName(), names.size());
            libraries.putIfAbsent(row.library(), libraries.size());
        }
        StringWriter text = new StringWriter(model.kernels().size() * 48);
        JsonFactory factory = new JsonFactory();
        factory.setCharacterEscapes(new ScriptSafeEscapes());
        try (JsonGenerator json = factory.createGenerator(text)) {
            json.writeStartObject();
            writeStrings(json, "names", names.keySet());
            writeStrings(json, "libs", libraries.keySet());
            writeStrings(json, "arches", arches);
            json.writeArrayFieldStart("k");
            for (KernelRow row : model.kernels()) {
                json.writeNumber(names.get(row.displayName()));
                json.writeNumber(libraries.get(row.library()));
                json.writeNumber(archIndex.get(row.arch()));
                json.writeNumber(row.stackUnknown() ? -1 : row.stack());
                json.writeNumber(row.local());
                json.writeNumber(row.shared());
                json.writeNumber(row.registers());
            }
            json.writeEndArray();
            json.writeArrayFieldStart("devices");
            for (DeviceReport device : model.devices()) {
                json.writeStartArray();
                for (KernelRow row : device.selectedKernels()) {
                    json.writeNumber(positions.get(row));
                }
                json.writeEndArray();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private static void writeStrings(JsonGenerator json, String field, Iterable<String> values) throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    /** Escapes {@code < > &} (and the two JavaScript line separators) as {@code \\uXXXX}. */
    private static final class ScriptSafeEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] table;

        ScriptSafeEscapes() {
            table = standardAsciiEscapesForJSON();
            table['<'] = ESCAPE_STANDARD;
            table['>'] = ESCAPE_STANDARD;
            table['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return table;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch == 0x2028 || ch == 0x2029) {
                return new SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }
}
