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
import java.util.Arrays;
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
            Scan scan = scan(suffixes);
            List<String> tokens = dictionary(scan);
            writeStrings(json, "nt", tokens);
            writeStrings(json, "ns", tokens.isEmpty() ? suffixes : encodeAll(suffixes, scan, codes(tokens)));
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
        return dictionary(scan(suffixes));
    }

    /** The dictionary of {@link #dictionary(List)} from the texts' scan. */
    static List<String> dictionary(Scan scan) {
        Tokens counts = scan.counts();
        if (counts == null) {
            return List.of(); // a name holds a private-use character
        }
        List<Map.Entry<String, Long>> saving = new ArrayList<>();
        for (int slot = 0; slot < counts.keys.length; slot++) {
            String token = counts.keys[slot];
            if (token == null) {
                continue;
            }
            long bytes = token.length(); // identifier characters and ':' only: ASCII, one UTF-8 byte each
            // each occurrence: the token's bytes become three; the dictionary holds it once, quoted, with a comma
            long saved = counts.counts[slot] * (bytes - 3) - (bytes + 3);
            if (saved > 0) {
                saving.add(Map.entry(token, saved));
            }
        }
        saving.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<String> tokens = new ArrayList<>(Math.min(saving.size(), MAX_TOKENS));
        for (int i = 0; i < saving.size() && i < MAX_TOKENS; i++) {
            tokens.add(saving.get(i).getKey());
        }
        return tokens;
    }

    /**
     * Tokens by their characters, looked up by a range of a text (its hash computed while the range is scanned, its
     * characters compared with {@link String#regionMatches}): a String is made once per distinct token. Open
     * addressing; each slot's count (dictionary) or code (encoding).
     */
    static final class Tokens {
        private String[] keys = new String[1024];
        private int[] hashes = new int[1024];
        private int[] counts = new int[1024];
        private int size;

        /** The slot of the token {@code text[from, to)} whose {@link String#hashCode} is {@code hash}, or -1. */
        int find(String text, int from, int to, int hash) {
            int mask = keys.length - 1;
            int length = to - from;
            for (int slot = mix(hash) & mask; ; slot = (slot + 1) & mask) {
                String key = keys[slot];
                if (key == null) {
                    return -1;
                }
                if (hashes[slot] == hash && key.length() == length && key.regionMatches(0, text, from, length)) {
                    return slot;
                }
            }
        }

        /** Adds {@code times} occurrences of the token {@code text[from, to)}. */
        void add(String text, int from, int to, int hash, int times) {
            int slot = find(text, from, to, hash);
            if (slot < 0) {
                if ((size + 1) * 2 > keys.length) {
                    grow();
                }
                int mask = keys.length - 1;
                slot = mix(hash) & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = text.substring(from, to);
                hashes[slot] = hash;
                size++;
            }
            counts[slot] += times;
        }

        /** Adds every token of {@code other} with its count. */
        void addAll(Tokens other) {
            for (int slot = 0; slot < other.keys.length; slot++) {
                String key = other.keys[slot];
                if (key != null) {
                    add(key, 0, key.length(), other.hashes[slot], other.counts[slot]);
                }
            }
        }

        /** The count (or code) of a slot {@link #find} returned. */
        int count(int slot) {
            return counts[slot];
        }

        private void grow() {
            String[] oldKeys = keys;
            int[] oldHashes = hashes;
            int[] oldCounts = counts;
            keys = new String[oldKeys.length * 2];
            hashes = new int[keys.length];
            counts = new int[keys.length];
            int mask = keys.length - 1;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != null) {
                    int slot = mix(oldHashes[i]) & mask;
                    while (keys[slot] != null) {
                        slot = (slot + 1) & mask;
                    }
                    keys[slot] = oldKeys[i];
                    hashes[slot] = oldHashes[i];
                    counts[slot] = oldCounts[i];
                }
            }
        }

        private static int mix(int hash) {
            int h = hash * 0x9E3779B9;
            return h ^ (h >>> 16);
        }
    }

    /**
     * The tokens of the texts (a token: an identifier, {@code [A-Za-z_][A-Za-z0-9_]*}, and a {@code ::} right after it)
     * of at least {@link #MIN_TOKEN} chars: how often each occurs ({@code counts}; null when a text holds a private-use
     * char), and per text where each lies ({@code ranges}: from, to and hash, three ints per token), so that encoding
     * does not cut the texts again.
     */
    record Scan(Tokens counts, int[][] ranges) {
    }

    /**
     * Scans the texts in slices at once (issue 11: libtorch_cuda.so's names hold about half a million tokens; a
     * substring and a hash map entry for each, then a second pass to encode, were most of the page's time in a cold
     * check). The sums do not depend on the slicing.
     */
    static Scan scan(List<String> texts) {
        int[][] ranges = new int[texts.size()][];
        Tokens counts = null;
        boolean privateUse = false;
        for (Tokens part : inSlices(texts.size(), (from, to) -> scan(texts, from, to, ranges))) {
            if (part == null) {
                privateUse = true;
            } else if (counts == null) {
                counts = part;
            } else {
                counts.addAll(part);
            }
        }
        return new Scan(privateUse ? null : counts == null ? new Tokens() : counts, ranges);
    }

    private static final int[] NO_TOKENS = new int[0];

    /** One slice of {@link #scan(List)}: its counts (null for a private-use char), its texts' ranges filled in. */
    private static Tokens scan(List<String> texts, int first, int end, int[][] ranges) {
        Tokens counts = new Tokens();
        int[] found = new int[48];
        for (int index = first; index < end; index++) {
            String text = texts.get(index);
            int length = text.length();
            int tokens = 0;
            int at = 0;
            while (at < length) {
                char c = text.charAt(at);
                if (c >= FIRST_CODE && c < FIRST_CODE + MAX_TOKENS) {
                    return null;
                }
                if (!identifierStart(c)) {
                    at++;
                    continue;
                }
                int hash = c;
                int stop = at + 1;
                while (stop < length && identifierPart(c = text.charAt(stop))) {
                    hash = 31 * hash + c;
                    stop++;
                }
                if (stop + 1 < length && text.charAt(stop) == ':' && text.charAt(stop + 1) == ':') {
                    hash = 31 * (31 * hash + ':') + ':';
                    stop += 2;
                }
                if (stop - at >= MIN_TOKEN) {
                    counts.add(text, at, stop, hash, 1);
                    if (tokens + 3 > found.length) {
                        found = Arrays.copyOf(found, found.length * 2);
                    }
                    found[tokens++] = at;
                    found[tokens++] = stop;
                    found[tokens++] = hash;
                }
                at = stop;
            }
            ranges[index] = tokens == 0 ? NO_TOKENS : Arrays.copyOf(found, tokens);
        }
        return counts;
    }

    /** Names per slice below which one thread does all: the threads cost more than they save. */
    private static final int SLICE = 2048;

    /** A slice of the positions {@code [from, to)}. */
    private interface Slice<T> {
        T run(int from, int to);
    }

    /** {@code work} over consecutive slices of {@code size} positions, at once on the common pool where there are many. */
    private static <T> List<T> inSlices(int size, Slice<T> work) {
        int slices = (int) Math.min(Math.min(8, Runtime.getRuntime().availableProcessors()),
                Math.max(1, size / SLICE));
        List<T> results = new ArrayList<>(slices);
        if (slices == 1) {
            results.add(work.run(0, size));
            return results;
        }
        List<java.util.concurrent.CompletableFuture<T>> parts = new ArrayList<>(slices);
        for (int slice = 0; slice < slices; slice++) {
            int from = (int) ((long) size * slice / slices);
            int to = (int) ((long) size * (slice + 1) / slices);
            parts.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> work.run(from, to)));
        }
        for (java.util.concurrent.CompletableFuture<T> part : parts) {
            results.add(part.join());
        }
        return results;
    }

    /** The dictionary's tokens by their codes' offsets from {@link #FIRST_CODE}. */
    static Tokens codes(List<String> tokens) {
        Tokens codes = new Tokens();
        for (int i = 0; i < tokens.size(); i++) {
            String token = tokens.get(i);
            codes.add(token, 0, token.length(), token.hashCode(), i);
        }
        return codes;
    }

    /** Every text encoded ({@link #encode}) by the ranges of its scan, in order; slices at once. */
    static List<String> encodeAll(List<String> texts, Scan scan, Tokens codes) {
        String[] encoded = new String[texts.size()];
        inSlices(texts.size(), (from, to) -> {
            for (int index = from; index < to; index++) {
                encoded[index] = encode(texts.get(index), scan.ranges()[index], codes);
            }
            return null;
        });
        return Arrays.asList(encoded);
    }

    /** The text with every dictionary token written as its code; the runs between them copied whole. */
    static String encode(String text, Tokens codes) {
        int[][] ranges = new int[1][];
        scan(List.of(text), 0, 1, ranges);
        return encode(text, ranges[0] == null ? NO_TOKENS : ranges[0], codes);
    }

    /** {@link #encode(String, Tokens)} by the text's token ranges (from, to, hash per token). */
    private static String encode(String text, int[] ranges, Tokens codes) {
        char[] out = null;
        int written = 0;
        int copied = 0;
        for (int k = 0; k < ranges.length; k += 3) {
            int slot = codes.find(text, ranges[k], ranges[k + 1], ranges[k + 2]);
            if (slot >= 0) {
                if (out == null) {
                    out = new char[text.length()];
                }
                text.getChars(copied, ranges[k], out, written);
                written += ranges[k] - copied;
                out[written++] = (char) (FIRST_CODE + codes.count(slot));
                copied = ranges[k + 1];
            }
        }
        if (out == null) {
            return text;
        }
        text.getChars(copied, text.length(), out, written);
        written += text.length() - copied;
        return new String(out, 0, written);
    }

    /** The same, the codes given as a map from token to code (for tests). */
    static String encode(String text, Map<String, Character> codes) {
        List<String> tokens = new ArrayList<>(java.util.Collections.nCopies(codes.size(), (String) null));
        codes.forEach((token, code) -> tokens.set(code - FIRST_CODE, token));
        return encode(text, codes(tokens));
    }

    private static boolean identifierStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    private static boolean identifierPart(char c) {
        return identifierStart(c) || c >= '0' && c <= '9';
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
