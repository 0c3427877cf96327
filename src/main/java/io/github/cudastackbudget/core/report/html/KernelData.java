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
        // issue 11: the names (front-coded, deflated), the figures and the devices' positions are made at once: on
        // many cores the page is the slowest report of a cold check, and these three were its data block one after the
        // other. Each part's text depends on the model alone, so the page is the same bytes
        java.util.concurrent.CompletableFuture<Names> packing = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> Names.of(names));
        List<KernelRow> rows = functions.rows();
        java.util.concurrent.CompletableFuture<String> figures = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> figures(functions, rows, nameIndex, libraries, archIndex));
        StringBuilder devices = new StringBuilder("[");
        for (DeviceReport device : model.devices()) {
            Numbers positions = new Numbers(device.selectedKernels().size() * 7);
            for (KernelRow row : device.selectedKernels()) {
                int position = functions.positionOf(row);
                if (position >= 0) { // a computed (JIT) figure is no record of the table; the device's card shows it
                    positions.add(position);
                }
            }
            devices.append(devices.length() == 1 ? "" : ",").append(positions.end());
        }
        StringWriter text = new StringWriter(model.kernels().size() * 24 + names.size() * 64);
        try (JsonGenerator json = FACTORY.createGenerator(text)) {
            json.writeStartObject();
            Names packed = io.github.cudastackbudget.core.exec.Tasks.join(packing);
            // the integer lists are written as raw JSON text (issue 11: StringBuilder.append(long) is the JDK's, compiled
            // once per JVM; the generator's writeNumber runs in this plugin's freshly loaded classes in every build)
            Numbers np = new Numbers(packed.shared().length * 3);
            for (int shared : packed.shared()) {
                np.add(shared);
            }
            json.writeFieldName("np");
            json.writeRawValue(np.end());
            if (packed.deflated() != null) {
                writeStrings(json, "nz", packed.deflated());
            } else {
                writeStrings(json, "ns", packed.suffixes());
            }
            writeStrings(json, "libs", libraries.keySet());
            writeStrings(json, "arches", arches);
            json.writeFieldName("f");
            json.writeRawValue(io.github.cudastackbudget.core.exec.Tasks.join(figures));
            json.writeFieldName("devices");
            json.writeRawValue(devices.append(']').toString());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return scriptSafe(text.getBuffer());
    }

    /** Per function {@code name, library, images}, per image {@code arch, stack, local, shared, registers}: the list. */
    private static String figures(ReportFunctions functions, List<KernelRow> rows, Map<String, Integer> nameIndex,
            Map<String, Integer> libraries, Map<String, Integer> archIndex) {
        Numbers f = new Numbers(rows.size() * 20 + functions.list().size() * 12);
        for (ReportFunctions.Function function : functions.list()) {
            f.add(nameIndex.get(function.displayName()));
            f.add(libraries.get(function.library()));
            f.add(function.end() - function.first());
            for (int i = function.first(); i < function.end(); i++) {
                KernelRow row = rows.get(i);
                f.add(archIndex.get(row.arch()));
                f.add(row.stackUnknown() ? -1 : row.stack());
                f.add(row.local());
                f.add(row.shared());
                f.add(row.registers());
            }
        }
        return f.end();
    }

    /**
     * The page's names (sorted and distinct): front-coded, each one's shared prefix length ({@code np}, in UTF-16
     * units, as the script's {@code substring} counts), then the rests joined by {@link #SEPARATOR} and deflated
     * ({@code nz}: zlib format, base64, in up to {@link #MAX_CHUNKS} chunks of whole names that the script inflates
     * with the browser's {@code DecompressionStream} and joins with the separator). Issue 11: the page's former
     * name dictionary, a scan of every character in Java, was most of the page's time in a cold check; zlib runs in
     * native code, and libtorch_cuda.so's 10 MB of front-coded names deflate to about 0.25 MB. A name that holds the
     * separator (only a report read back from JSON can: ELF names end at a NUL) leaves the rests plain ({@code ns}).
     * The chunks follow from the names' sizes alone, never from the machine, so the page is the same everywhere.
     */
    static final class Names {
        /** Between two names in a deflated chunk: no ELF or demangled name holds it. */
        static final char SEPARATOR = '\u0000';
        /** The bytes of rests per chunk (about; a chunk ends with a whole name). */
        static final int CHUNK_BYTES = 1 << 20;
        /** The most chunks, deflated at once. */
        static final int MAX_CHUNKS = 8;

        private final int[] shared;
        private final List<String> suffixes;
        private final List<String> deflated;

        private Names(int[] shared, List<String> suffixes, List<String> deflated) {
            this.shared = shared;
            this.suffixes = suffixes;
            this.deflated = deflated;
        }

        /** Each name's shared prefix length with the name before. */
        int[] shared() {
            return shared;
        }

        /** The rests, plain: only where a name holds the separator, else null. */
        List<String> suffixes() {
            return suffixes;
        }

        /** The deflated chunks, base64; null where a name holds the separator. */
        List<String> deflated() {
            return deflated;
        }

        static Names of(List<String> names) {
            int count = names.size();
            int[] shared = new int[count];
            // each name's UTF-8 bytes, its rest from[i] on: an ASCII name's bytes are its chars, so between two ASCII
            // names the shared prefix is found on the bytes (Arrays.mismatch, vectorized); no rest is copied
            byte[][] bytes = new byte[count][];
            int[] from = new int[count];
            boolean separatorFree = true;
            boolean previousAscii = false;
            long total = 0;
            for (int i = 0; i < count; i++) {
                String name = names.get(i);
                if (name.indexOf(SEPARATOR) >= 0) {
                    separatorFree = false;
                }
                byte[] utf8 = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                boolean ascii = utf8.length == name.length();
                if (ascii && previousAscii) {
                    byte[] before = bytes[i - 1];
                    int limit = Math.min(before.length, utf8.length);
                    int mismatch = Arrays.mismatch(before, 0, limit, utf8, 0, limit);
                    shared[i] = mismatch < 0 ? limit : mismatch;
                    from[i] = shared[i];
                } else {
                    shared[i] = i == 0 ? 0 : sharedPrefix(names.get(i - 1), name);
                    from[i] = ascii ? shared[i]
                            : name.substring(0, shared[i]).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                }
                bytes[i] = utf8;
                total += utf8.length - from[i];
                previousAscii = ascii;
            }
            if (!separatorFree) {
                List<String> rests = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    rests.add(names.get(i).substring(shared[i]));
                }
                return new Names(shared, rests, null);
            }
            return new Names(shared, null, deflate(bytes, from, total + Math.max(0, count - 1)));
        }

        /**
         * The chunks: consecutive names, about {@code total / chunks} bytes each, never empty (the script joins them
         * with the separator, so an empty chunk would be one more name), deflated at once.
         */
        private static List<String> deflate(byte[][] bytes, int[] from, long total) {
            int count = bytes.length;
            int chunks = (int) Math.min(Math.min(MAX_CHUNKS, count), Math.max(1, (total + CHUNK_BYTES - 1)
                    / CHUNK_BYTES));
            // each chunk ends after the name that takes it past its share; a large name may take it past several
            List<int[]> ranges = new ArrayList<>(chunks);
            long written = 0;
            int first = 0;
            for (int i = 0; i < count; i++) {
                written += bytes[i].length - from[i] + 1;
                if (i + 1 == count || written * chunks >= total * (ranges.size() + 1)) {
                    ranges.add(new int[] {first, i + 1});
                    first = i + 1;
                }
            }
            List<java.util.concurrent.CompletableFuture<String>> parts = new ArrayList<>(ranges.size());
            for (int c = 1; c < ranges.size(); c++) {
                int[] range = ranges.get(c);
                parts.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> chunk(bytes, from, range[0],
                        range[1])));
            }
            List<String> out = new ArrayList<>(ranges.size());
            if (!ranges.isEmpty()) {
                out.add(chunk(bytes, from, ranges.get(0)[0], ranges.get(0)[1])); // this thread's
            }
            for (java.util.concurrent.CompletableFuture<String> part : parts) {
                out.add(part.join());
            }
            return out;
        }

        /** The rests of names {@code [first, end)} joined by the separator, deflated (zlib format), base64. */
        private static String chunk(byte[][] bytes, int[] from, int first, int end) {
            int size = Math.max(0, end - first - 1);
            for (int i = first; i < end; i++) {
                size += bytes[i].length - from[i];
            }
            byte[] joined = new byte[size];
            int at = 0;
            for (int i = first; i < end; i++) {
                if (i > first) {
                    joined[at++] = (byte) SEPARATOR;
                }
                int length = bytes[i].length - from[i];
                System.arraycopy(bytes[i], from[i], joined, at, length);
                at += length;
            }
            java.util.zip.Deflater deflater = new java.util.zip.Deflater(java.util.zip.Deflater.DEFAULT_COMPRESSION);
            try {
                deflater.setInput(joined);
                deflater.finish();
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(Math.max(64, size / 16));
                byte[] buffer = new byte[64 * 1024];
                while (!deflater.finished()) {
                    int n = deflater.deflate(buffer);
                    out.write(buffer, 0, n);
                }
                return java.util.Base64.getEncoder().encodeToString(out.toByteArray());
            } finally {
                deflater.end();
            }
        }
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

    /** A JSON list of integers, as text. */
    private static final class Numbers {
        private final StringBuilder text;

        Numbers(int capacity) {
            text = new StringBuilder(Math.max(16, capacity)).append('[');
        }

        void add(long value) {
            if (text.length() > 1) {
                text.append(',');
            }
            text.append(value);
        }

        String end() {
            return text.append(']').toString();
        }
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
