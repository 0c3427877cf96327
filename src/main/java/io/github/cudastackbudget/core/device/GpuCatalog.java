package io.github.cudastackbudget.core.device;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The bundled GPU catalog ({@code gpu-catalog.csv}): compute capability, SM count, resident threads per SM and memory
 * of common GPUs, each row with the source of its figures.
 */
public final class GpuCatalog {

    private static final String RESOURCE = "gpu-catalog.csv";
    private static volatile GpuCatalog bundled;

    private final Map<String, Entry> entries;

    private GpuCatalog(Map<String, Entry> entries) {
        this.entries = Collections.unmodifiableMap(entries);
    }

    /** The catalog shipped in the plugin jar. */
    public static GpuCatalog bundled() {
        GpuCatalog catalog = bundled;
        if (catalog == null) {
            try (InputStream in = GpuCatalog.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the plugin jar lacks " + RESOURCE);
                }
                catalog = read(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the bundled " + RESOURCE, e);
            }
            bundled = catalog;
        }
        return catalog;
    }

    /**
     * Reads a catalog in the bundled CSV layout (header row with id, names, compute_capability, ...). Rows come through
     * jackson-dataformat-csv's streaming parser, not a {@code CsvMapper}: every check reads the catalog, and the mapper
     * would start jackson-databind for it (about 0.3 s of a cold build, issue 11).
     */
    public static GpuCatalog read(InputStream csv) throws IOException {
        Map<String, Entry> entries = new LinkedHashMap<>();
        try (CsvParser rows = new CsvFactory().createParser(csv)) {
            rows.setSchema(CsvSchema.emptySchema().withHeader());
            for (Map<String, String> row = nextRow(rows); row != null; row = nextRow(rows)) {
                Entry entry = new Entry(row.get("id"),
                        Arrays.stream(row.get("names").split("\\|")).map(String::strip).toList(),
                        ComputeCapability.parse(row.get("compute_capability")),
                        Integer.parseInt(row.get("sm_count")), Integer.parseInt(row.get("max_threads_per_sm")),
                        Long.parseLong(row.get("max_resident_threads")), Long.parseLong(row.get("memory_bytes")),
                        row.getOrDefault("source", ""), row.getOrDefault("notes", ""));
                if ((long) entry.smCount() * entry.maxThreadsPerSm() != entry.maxResidentThreads()) {
                    throw new IOException("catalog row " + entry.id() + ": sm_count x max_threads_per_sm != max_resident_threads");
                }
                entries.put(entry.id(), entry);
            }
        }
        return new GpuCatalog(entries);
    }

    /** The next row as column name to value, or null after the last. */
    private static Map<String, String> nextRow(CsvParser rows) throws IOException {
        JsonToken token = rows.nextToken();
        if (token == null) {
            return null;
        }
        if (token != JsonToken.START_OBJECT) {
            throw new IOException("catalog: expected a row at " + rows.currentLocation() + ", found " + token);
        }
        Map<String, String> row = new HashMap<>();
        while (rows.nextToken() == JsonToken.FIELD_NAME) {
            String column = rows.currentName();
            rows.nextToken();
            row.put(column, rows.getText());
        }
        return row;
    }

    public List<Entry> entries() {
        return new ArrayList<>(entries.values());
    }

    /**
     * The entry with this id.
     *
     * @throws InvalidValueException naming the id and listing the known ones
     */
    public Entry require(String id) {
        Entry entry = entries.get(id == null ? "" : id.strip().toLowerCase(Locale.ROOT));
        if (entry == null) {
            throw new InvalidValueException("unknown device preset '" + id + "': use one of " + String.join(", ",
                    entries.keySet()) + ", or describe the device with <name>, <computeCapability> and <maxResidentThreads>");
        }
        return entry;
    }

    /** The entry whose names include the name a driver reports (case-insensitive), if any. */
    public Optional<Entry> findByDeviceName(String deviceName) {
        String wanted = deviceName.strip();
        return entries.values().stream()
                .filter(entry -> entry.names().stream().anyMatch(name -> name.equalsIgnoreCase(wanted)))
                .findFirst();
    }

    /** One catalog row. */
    public record Entry(String id, List<String> names, ComputeCapability capability, int smCount, int maxThreadsPerSm,
            long maxResidentThreads, long memoryBytes, String source, String notes) {

        public Entry {
            names = List.copyOf(names);
        }

        /** The device this row describes, named by its id. */
        public DeviceSpec toDevice() {
            return new DeviceSpec(id, id, capability, maxResidentThreads, smCount, maxThreadsPerSm, memoryBytes,
                    "catalog: " + source);
        }
    }
}
