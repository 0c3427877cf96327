package io.github.cudastackbudget.core.device;

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
 * The bundled GPU catalog ({@code gpu-catalog.tsv}): compute capability, SM count, resident threads per SM and memory
 * of common GPUs, each row with the source of its figures.
 */
public final class GpuCatalog {

    private static final String RESOURCE = "gpu-catalog.tsv";
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
     * Reads a catalog in the bundled layout: UTF-8 lines of tab-separated fields (no quoting: no field holds a tab or a
     * line break), a header line with id, names, compute_capability, ... first. Every check reads the catalog, each
     * time with the plugin's classes loaded fresh: the JDK reads tab-separated lines at once, where a CSV parser's
     * classes and tables cost a cached re-check about half of its time (issue 11).
     */
    public static GpuCatalog read(InputStream tsv) throws IOException {
        Map<String, Entry> entries = new LinkedHashMap<>();
        java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(tsv,
                java.nio.charset.StandardCharsets.UTF_8));
        String headerLine = lines.readLine();
        if (headerLine == null) {
            throw new IOException("catalog: no header line");
        }
        List<String> header = List.of(headerLine.split("\t", -1));
        int number = 1;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            number++;
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            if (fields.length != header.size()) {
                throw new IOException("catalog line " + number + ": " + fields.length + " tab-separated fields, the "
                        + "header has " + header.size());
            }
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < fields.length; i++) {
                row.put(header.get(i), fields[i]);
            }
            List<String> names = new ArrayList<>();
            for (String name : row.getOrDefault("names", "").split("\\|")) {
                names.add(name.strip());
            }
            Entry entry;
            try {
                entry = new Entry(row.get("id"), names, ComputeCapability.parse(row.get("compute_capability")),
                        Integer.parseInt(row.get("sm_count")), Integer.parseInt(row.get("max_threads_per_sm")),
                        Long.parseLong(row.get("max_resident_threads")), Long.parseLong(row.get("memory_bytes")),
                        row.getOrDefault("source", ""), row.getOrDefault("notes", ""));
            } catch (RuntimeException e) {
                throw new IOException("catalog line " + number + ": " + e.getMessage(), e);
            }
            if ((long) entry.smCount() * entry.maxThreadsPerSm() != entry.maxResidentThreads()) {
                throw new IOException("catalog row " + entry.id() + ": sm_count x max_threads_per_sm != max_resident_threads");
            }
            entries.put(entry.id(), entry);
        }
        return new GpuCatalog(entries);
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
