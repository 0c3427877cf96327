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
        // the distinct readable names, sorted (a list sort, then equal neighbours dropped), and each one's position
        List<String> all = new ArrayList<>(functions.list().size());
        Map<String, Integer> libraries = new LinkedHashMap<>();
        for (ReportFunctions.Function function : functions.list()) {
            all.add(function.displayName());
            libraries.putIfAbsent(function.library(), libraries.size());
        }
        all.sort(null);
        List<String> names = new ArrayList<>(all.size());
        Map<String, Integer> nameIndex = new HashMap<>(all.size() * 2);
        for (String name : all) {
            if (names.isEmpty() || !names.get(names.size() - 1).equals(name)) {
                nameIndex.put(name, names.size());
                names.add(name);
            }
        }
        List<String> arches = new ArrayList<>(model.sassArches());
        java.util.Set<String> known = new java.util.HashSet<>(arches);
        java.util.TreeSet<String> more = new java.util.TreeSet<>();
        for (KernelRow row : model.kernels()) {
            if (!known.contains(row.arch())) {
                more.add(row.arch());
            }
        }
        arches.addAll(more);
        Map<String, Integer> archIndex = new HashMap<>();
        for (int i = 0; i < arches.size(); i++) {
            archIndex.put(arches.get(i), i);
        }
        StringWriter text = new StringWriter(model.kernels().size() * 24 + names.size() * 64);
        try (JsonGenerator json = FACTORY.createGenerator(text)) {
            json.writeStartObject();
            json.writeArrayFieldStart("np");
            List<String> suffixes = new ArrayList<>(names.size());
            String previous = "";
            for (String name : names) {
                int shared = sharedPrefix(previous, name);
                json.writeNumber(shared);
                suffixes.add(name.substring(shared));
                previous = name;
            }
            json.writeEndArray();
            List<String> tokens = dictionary(suffixes);
            writeStrings(json, "nt", tokens);
            Map<String, Character> codes = new HashMap<>();
            for (int i = 0; i < tokens.size(); i++) {
                codes.put(tokens.get(i), (char) (FIRST_CODE + i));
            }
            writeStrings(json, "ns", codes.isEmpty() ? suffixes : encodeAll(suffixes, codes));
            writeStrings(json, "libs", libraries.keySet());
            writeStrings(json, "arches", arches);
            json.writeArrayFieldStart("f");
            List<KernelRow> rows = functions.rows();
            for (ReportFunctions.Function function : functions.list()) {
                json.writeNumber(nameIndex.get(function.displayName()));
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

    /** The first of the codes that stand for dictionary tokens: Unicode's private use area, U+E000 to U+F8FF. */
    static final char FIRST_CODE = '\uE000';
    static final int MAX_TOKENS = 0xF8FF - 0xE000 + 1;
    /** Shorter tokens save too little for their code (three bytes in UTF-8) and their dictionary entry. */
    private static final int MIN_TOKEN = 5;

    /**
     * The name dictionary of the page: the identifiers (with a trailing {@code ::}) of the front-coded names that save
     * the most bytes when each occurrence is written as one private-use character, most saving first, at most
     * {@link #MAX_TOKENS}; empty when a name itself holds a private-use character (no code could be told from it).
     * Template-heavy C++ names repeat their namespaces and class names many times: libtorch_cuda.so's page shrank
     * by about a third (issue 11). Deterministic: ties go to the token that sorts first.
     */
    static List<String> dictionary(List<String> suffixes) {
        // issue 11: counted in slices at once (the page's data block is on the critical path of a cold check, and
        // this count was most of it); the sums, and so the dictionary, do not depend on the slicing
        List<Map<String, int[]>> parts = inSlices(suffixes, KernelData::count);
        Map<String, int[]> counts = null;
        for (Map<String, int[]> part : parts) {
            if (part == null) {
                return List.of(); // a name holds a private-use character
            }
            if (counts == null) {
                counts = part;
                continue;
            }
            for (Map.Entry<String, int[]> entry : part.entrySet()) {
                int[] sum = counts.putIfAbsent(entry.getKey(), entry.getValue());
                if (sum != null) {
                    sum[0] += entry.getValue()[0];
                }
            }
        }
        if (counts == null) {
            return List.of();
        }
        List<Map.Entry<String, Long>> saving = new ArrayList<>();
        for (Map.Entry<String, int[]> entry : counts.entrySet()) {
            long bytes = utf8Length(entry.getKey());
            // each occurrence: the token's bytes become three; the dictionary holds it once, quoted, with a comma
            long saved = entry.getValue()[0] * (bytes - 3) - (bytes + 3);
            if (saved > 0) {
                saving.add(Map.entry(entry.getKey(), saved));
            }
        }
        saving.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<String> tokens = new ArrayList<>(Math.min(saving.size(), MAX_TOKENS));
        for (int i = 0; i < saving.size() && i < MAX_TOKENS; i++) {
            tokens.add(saving.get(i).getKey());
        }
        return tokens;
    }

    /** Occurrences of each token of at least {@link #MIN_TOKEN} chars, or null when a text holds a private-use char. */
    private static Map<String, int[]> count(List<String> suffixes) {
        Map<String, int[]> counts = new HashMap<>();
        for (String suffix : suffixes) {
            int length = suffix.length();
            int at = 0;
            while (at < length) {
                char c = suffix.charAt(at);
                if (c >= FIRST_CODE && c < FIRST_CODE + MAX_TOKENS) {
                    return null;
                }
                int end = tokenEnd(suffix, at);
                if (end - at >= MIN_TOKEN) {
                    counts.computeIfAbsent(suffix.substring(at, end), key -> new int[1])[0]++;
                }
                at = Math.max(end, at + 1);
            }
        }
        return counts;
    }

    /** Names per slice below which one thread does all: the threads cost more than they save. */
    private static final int SLICE = 2048;

    /** {@code work} over consecutive slices of the texts, at once on the common pool where there are many; in order. */
    private static <T> List<T> inSlices(List<String> texts, java.util.function.Function<List<String>, T> work) {
        int slices = (int) Math.min(Math.min(8, Runtime.getRuntime().availableProcessors()),
                Math.max(1, texts.size() / SLICE));
        if (slices == 1) {
            List<T> one = new ArrayList<>(1);
            one.add(work.apply(texts));
            return one;
        }
        List<java.util.concurrent.CompletableFuture<T>> parts = new ArrayList<>(slices);
        for (int slice = 0; slice < slices; slice++) {
            List<String> part = texts.subList((int) ((long) texts.size() * slice / slices),
                    (int) ((long) texts.size() * (slice + 1) / slices));
            parts.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> work.apply(part)));
        }
        List<T> results = new ArrayList<>(slices);
        for (java.util.concurrent.CompletableFuture<T> part : parts) {
            results.add(part.join());
        }
        return results;
    }

    /** Every text encoded ({@link #encode}), in order; slices at once. */
    static List<String> encodeAll(List<String> texts, Map<String, Character> codes) {
        List<String> encoded = new ArrayList<>(texts.size());
        for (List<String> part : inSlices(texts, slice -> {
            List<String> out = new ArrayList<>(slice.size());
            for (String text : slice) {
                out.add(encode(text, codes));
            }
            return out;
        })) {
            encoded.addAll(part);
        }
        return encoded;
    }

    /** The text with every dictionary token (as {@link #dictionary} cuts them) written as its code. */
    static String encode(String text, Map<String, Character> codes) {
        StringBuilder out = new StringBuilder(text.length());
        int length = text.length();
        int at = 0;
        while (at < length) {
            int end = tokenEnd(text, at);
            if (end > at) {
                Character code = end - at >= MIN_TOKEN ? codes.get(text.substring(at, end)) : null;
                if (code != null) {
                    out.append(code.charValue());
                } else {
                    out.append(text, at, end);
                }
                at = end;
            } else {
                out.append(text.charAt(at++));
            }
        }
        return out.toString();
    }

    /** The end of the identifier (and a {@code ::} after it) starting at {@code at}, or {@code at} when none starts there. */
    private static int tokenEnd(String text, int at) {
        int length = text.length();
        if (!identifierStart(text.charAt(at))) {
            return at;
        }
        int end = at + 1;
        while (end < length && identifierPart(text.charAt(end))) {
            end++;
        }
        if (end + 1 < length && text.charAt(end) == ':' && text.charAt(end + 1) == ':') {
            end += 2;
        }
        return end;
    }

    private static boolean identifierStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    private static boolean identifierPart(char c) {
        return identifierStart(c) || c >= '0' && c <= '9';
    }

    private static long utf8Length(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
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
        // one String, then whole runs between the '<' found by indexOf: a cold run (the report is written once per
        // build) spent more time here, a char at a time through StringBuffer.charAt, than in writing the JSON
        String text = json.toString();
        int lt = text.indexOf('<');
        if (lt < 0) {
            return text;
        }
        int length = text.length();
        StringBuilder out = new StringBuilder(length + 64);
        int from = 0;
        while (lt >= 0) {
            out.append(text, from, lt);
            char next = lt + 1 < length ? text.charAt(lt + 1) : 0;
            if (next == '/') {
                out.append("<\\/");
                from = lt + 2;
            } else if (next == '!') {
                out.append("\\u003c");
                from = lt + 1;
            } else if (text.regionMatches(true, lt + 1, "script", 0, 6)) {
                // inert after the two above, but no page should hold the text of a script tag
                out.append('<').append(next == 's' ? "\\u0073" : "\\u0053");
                from = lt + 2;
            } else {
                out.append('<');
                from = lt + 1;
            }
            lt = text.indexOf('<', from);
        }
        return out.append(text, from, length).toString();
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
