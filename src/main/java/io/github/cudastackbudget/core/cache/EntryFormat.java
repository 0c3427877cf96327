package io.github.cudastackbudget.core.cache;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * The binary layout of one cache entry (big-endian, as {@link DataOutputStream} writes):
 *
 * <pre>
 * magic    8 bytes  "CSBSCAN\n"
 * version  int      {@value #VERSION}
 * key      int n, n bytes UTF-8: {@link CacheKey#text()}, compared with the expected key on read
 * payload  int n, n bytes:
 *   strings  int count, per string: int n, n bytes UTF-8 (every label, name and arch once)
 *   libraries, records (library, arch, name as string indices; registers int; stack long; stackUnknown byte;
 *   shared long; local long), SASS and PTX targets per library, ptxEntriesKnown byte, PTX entry names per library and
 *   target, platform
 * checksum int      CRC-32C of the payload
 * </pre>
 *
 * <p>What belongs to one read is not stored: the path, the owner ("used by"), the elapsed time and the JAR entry are
 * the caller's. An entry is untrusted bytes: every count and length is checked against the bytes left before anything
 * is allocated, every index against its table, so a corrupt entry is one {@link Corrupt} and never an
 * {@link OutOfMemoryError}.
 */
public final class EntryFormat {

    /** The layout's version; part of the key, so entries of another layout are other files. */
    public static final int VERSION = 1;

    /** The entries' file suffix. */
    public static final String SUFFIX = ".scan";

    /** Entries larger than this are neither written nor read. */
    public static final int MAX_ENTRY_BYTES = 512 << 20;

    private static final byte[] MAGIC = "CSBSCAN\n".getBytes(StandardCharsets.US_ASCII);

    private EntryFormat() {
    }

    /** An entry that is not one this layout wrote for the key asked for. */
    public static final class Corrupt extends Exception {
        private static final long serialVersionUID = 1L;

        Corrupt(String message) {
            super(message);
        }
    }

    /** The entry for {@code scan} under {@code key}. */
    public static byte[] write(CacheKey key, LibraryScan scan) {
        Strings strings = new Strings();
        ByteArrayOutputStream payloadBytes = new ByteArrayOutputStream(64 + scan.records().size() * 40);
        try (DataOutputStream out = new DataOutputStream(payloadBytes)) {
            writeBody(out, scan, strings);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        ByteArrayOutputStream entry = new ByteArrayOutputStream(payloadBytes.size() + strings.bytes + 256);
        try (DataOutputStream out = new DataOutputStream(entry)) {
            out.write(MAGIC);
            out.writeInt(VERSION);
            byte[] keyBytes = key.text().getBytes(StandardCharsets.UTF_8);
            out.writeInt(keyBytes.length);
            out.write(keyBytes);
            // the payload: the string table, then the body that indexes it
            ByteArrayOutputStream payload = new ByteArrayOutputStream(payloadBytes.size() + strings.bytes + 16);
            try (DataOutputStream table = new DataOutputStream(payload)) {
                table.writeInt(strings.list.size());
                for (byte[] string : strings.list) {
                    table.writeInt(string.length);
                    table.write(string);
                }
                payloadBytes.writeTo(table);
            }
            byte[] body = payload.toByteArray();
            out.writeInt(body.length);
            out.write(body);
            CRC32C crc = new CRC32C();
            crc.update(body);
            out.writeInt((int) crc.getValue());
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return entry.toByteArray();
    }

    private static void writeBody(DataOutputStream out, LibraryScan scan, Strings strings) throws IOException {
        out.writeInt(scan.libraries().size());
        for (String library : scan.libraries()) {
            out.writeInt(strings.index(library));
        }
        out.writeInt(scan.records().size());
        for (KernelRecord record : scan.records()) {
            out.writeInt(strings.index(record.library()));
            out.writeInt(strings.index(record.arch().sassLabel()));
            out.writeInt(strings.index(record.name()));
            out.writeInt(record.registers());
            out.writeLong(record.stack());
            out.writeByte(record.stackUnknown() ? 1 : 0);
            out.writeLong(record.shared());
            out.writeLong(record.local());
        }
        writeArches(out, scan.sassArches(), strings);
        writeArches(out, scan.ptxArches(), strings);
        out.writeByte(scan.ptxEntriesKnown() ? 1 : 0);
        out.writeInt(scan.ptxEntries().size());
        for (Map.Entry<String, Map<GpuArch, SortedSet<String>>> library : scan.ptxEntries().entrySet()) {
            out.writeInt(strings.index(library.getKey()));
            out.writeInt(library.getValue().size());
            for (Map.Entry<GpuArch, SortedSet<String>> arch : library.getValue().entrySet()) {
                out.writeInt(strings.index(arch.getKey().sassLabel()));
                out.writeInt(arch.getValue().size());
                for (String name : arch.getValue()) {
                    out.writeInt(strings.index(name));
                }
            }
        }
        out.writeInt(strings.index(scan.platform()));
    }

    private static void writeArches(DataOutputStream out, Map<String, SortedSet<GpuArch>> arches, Strings strings)
            throws IOException {
        out.writeInt(arches.size());
        for (Map.Entry<String, SortedSet<GpuArch>> library : arches.entrySet()) {
            out.writeInt(strings.index(library.getKey()));
            out.writeInt(library.getValue().size());
            for (GpuArch arch : library.getValue()) {
                out.writeInt(strings.index(arch.sassLabel()));
            }
        }
    }

    /**
     * The scan an entry holds, for the read of {@code path} (owner empty, as an engine returns it).
     *
     * @throws Corrupt not this layout, another key, a bad checksum, a count or index out of range, truncated
     */
    public static LibraryScan read(byte[] entry, CacheKey key, Path path, long elapsedMillis) throws Corrupt {
        ByteBuffer in = ByteBuffer.wrap(entry).order(ByteOrder.BIG_ENDIAN);
        try {
            byte[] magic = new byte[MAGIC.length];
            in.get(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new Corrupt("not a kernel cache entry (no magic)");
            }
            int version = in.getInt();
            if (version != VERSION) {
                throw new Corrupt("layout version " + version + ", expected " + VERSION);
            }
            byte[] keyBytes = key.text().getBytes(StandardCharsets.UTF_8);
            int keyLength = length(in, 1);
            if (keyLength != keyBytes.length || !in.slice().limit(keyLength).equals(ByteBuffer.wrap(keyBytes))) {
                throw new Corrupt("written for another key");
            }
            in.position(in.position() + keyLength);
            int payloadLength = length(in, 1);
            if (in.remaining() != payloadLength + 4) {
                throw new Corrupt("payload of " + payloadLength + " bytes, but " + (in.remaining() - 4) + " follow");
            }
            CRC32C crc = new CRC32C();
            crc.update(entry, in.position(), payloadLength);
            if ((int) crc.getValue() != in.getInt(in.position() + payloadLength)) {
                throw new Corrupt("checksum mismatch");
            }
            in.limit(in.position() + payloadLength);
            return readPayload(in, path, elapsedMillis);
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new Corrupt("truncated");
        }
    }

    private static LibraryScan readPayload(ByteBuffer in, Path path, long elapsedMillis) throws Corrupt {
        String[] strings = new String[length(in, 4)];
        for (int i = 0; i < strings.length; i++) {
            int length = length(in, 1);
            strings[i] = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
            in.position(in.position() + length);
        }
        Map<String, GpuArch> archCache = new HashMap<>();
        List<String> libraries = new ArrayList<>();
        for (int i = length(in, 4); i > 0; i--) {
            libraries.add(string(in, strings));
        }
        int recordCount = length(in, 41);
        List<KernelRecord> records = new ArrayList<>(recordCount);
        for (int i = 0; i < recordCount; i++) {
            String library = string(in, strings);
            GpuArch arch = arch(in, strings, archCache);
            String name = string(in, strings);
            int registers = in.getInt();
            long stack = in.getLong();
            boolean stackUnknown = flag(in);
            records.add(new KernelRecord(library, arch, name, registers, stack, stackUnknown, in.getLong(),
                    in.getLong()));
        }
        Map<String, SortedSet<GpuArch>> sass = arches(in, strings, archCache);
        Map<String, SortedSet<GpuArch>> ptx = arches(in, strings, archCache);
        boolean ptxEntriesKnown = flag(in);
        Map<String, Map<GpuArch, SortedSet<String>>> ptxEntries = new TreeMap<>();
        for (int i = length(in, 8); i > 0; i--) {
            String library = string(in, strings);
            Map<GpuArch, SortedSet<String>> byArch = new TreeMap<>();
            for (int j = length(in, 8); j > 0; j--) {
                GpuArch arch = arch(in, strings, archCache);
                SortedSet<String> names = new TreeSet<>();
                for (int k = length(in, 4); k > 0; k--) {
                    names.add(string(in, strings));
                }
                byArch.put(arch, names);
            }
            ptxEntries.put(library, byArch);
        }
        String platform = string(in, strings);
        if (in.hasRemaining()) {
            throw new Corrupt(in.remaining() + " bytes after the payload");
        }
        return new LibraryScan(path, libraries, records, sass, ptx, "", elapsedMillis, ptxEntries, ptxEntriesKnown,
                null, platform);
    }

    private static Map<String, SortedSet<GpuArch>> arches(ByteBuffer in, String[] strings,
            Map<String, GpuArch> archCache) throws Corrupt {
        Map<String, SortedSet<GpuArch>> arches = new LinkedHashMap<>();
        for (int i = length(in, 8); i > 0; i--) {
            String library = string(in, strings);
            SortedSet<GpuArch> set = new TreeSet<>();
            for (int j = length(in, 4); j > 0; j--) {
                set.add(arch(in, strings, archCache));
            }
            arches.put(library, set);
        }
        return arches;
    }

    /** A count or length, at most what the bytes left can hold at {@code minBytes} per element. */
    private static int length(ByteBuffer in, int minBytes) throws Corrupt {
        int value = in.getInt();
        if (value < 0 || value > in.remaining() / minBytes) {
            throw new Corrupt("count or length " + value + " exceeds the " + in.remaining() + " bytes left");
        }
        return value;
    }

    private static boolean flag(ByteBuffer in) throws Corrupt {
        byte value = in.get();
        if (value != 0 && value != 1) {
            throw new Corrupt("flag byte " + value);
        }
        return value == 1;
    }

    private static String string(ByteBuffer in, String[] strings) throws Corrupt {
        int index = in.getInt();
        if (index < 0 || index >= strings.length) {
            throw new Corrupt("string index " + index + " outside the table of " + strings.length);
        }
        return strings[index];
    }

    private static GpuArch arch(ByteBuffer in, String[] strings, Map<String, GpuArch> archCache) throws Corrupt {
        String label = string(in, strings);
        GpuArch arch = archCache.get(label);
        if (arch == null) {
            try {
                arch = GpuArch.parse(label);
            } catch (InvalidValueException e) {
                throw new Corrupt("arch " + label.length() + " chars that is no arch label");
            }
            archCache.put(label, arch);
        }
        return arch;
    }

    /** The string table: every string once, in first-use order. */
    private static final class Strings {
        private final Map<String, Integer> indices = new HashMap<>();
        private final List<byte[]> list = new ArrayList<>();
        private int bytes;

        int index(String value) {
            Integer index = indices.get(value);
            if (index == null) {
                index = list.size();
                indices.put(value, index);
                byte[] encoded = value.getBytes(StandardCharsets.UTF_8);
                list.add(encoded);
                bytes += encoded.length + 4;
            }
            return index;
        }
    }
}
