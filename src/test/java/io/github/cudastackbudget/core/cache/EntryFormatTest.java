package io.github.cudastackbudget.core.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.engine.NativeEngine;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The entry layout over real reads (the native reader on the nvcc-built test binaries and the native-reader matrix):
 * what is written is read back equal, and every damaged entry is one {@link EntryFormat.Corrupt}, never another
 * exception or an allocation of a corrupt length.
 */
class EntryFormatTest {

    private static final CacheKey KEY = new CacheKey("native", "reader 1, plugin test", "libframes.so", 42,
            "00".repeat(32));

    static List<LibraryScan> realScans() throws Exception {
        List<LibraryScan> scans = new ArrayList<>();
        NativeEngine engine = new NativeEngine(2);
        for (Path root : List.of(Path.of("target", "test-cuda"), Path.of("target", "native-matrix"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".so") || name.endsWith(".a") || name.endsWith(".cubin")
                            || name.endsWith(".fatbin") || name.endsWith(".o")) {
                        try {
                            scans.add(engine.read(file));
                        } catch (Exception e) {
                            // host-only files and refused layouts are no entries
                        }
                    }
                }
            }
        }
        assertThat(scans).as("real scans").hasSizeGreaterThan(20);
        assertThat(scans.stream().anyMatch(scan -> !scan.ptxEntries().isEmpty())).isTrue();
        return scans;
    }

    /** The scan as the cache keeps it: the read's own fields (owner, time) as a hit gives them. */
    private static LibraryScan comparable(LibraryScan scan) {
        return new LibraryScan(scan.path(), scan.libraries(), scan.records(), scan.sassArches(), scan.ptxArches(), "",
                0, scan.ptxEntries(), scan.ptxEntriesKnown(), null, scan.platform());
    }

    @Test
    void realScansRoundTrip() throws Exception {
        for (LibraryScan scan : realScans()) {
            byte[] entry = EntryFormat.write(KEY, scan);
            LibraryScan read = EntryFormat.read(entry, KEY, scan.path(), 0);
            assertThat(read).as(scan.path().toString()).isEqualTo(comparable(scan));
            // the order of records and labels is the engine's
            assertThat(read.records()).containsExactlyElementsOf(scan.records());
            assertThat(read.libraries()).containsExactlyElementsOf(scan.libraries());
        }
    }

    @Test
    void anotherKeyIsRefused() throws Exception {
        LibraryScan scan = realScans().get(0);
        byte[] entry = EntryFormat.write(KEY, scan);
        for (CacheKey other : List.of(new CacheKey("cuobjdump", KEY.engineVersion(), KEY.name(), KEY.size(),
                KEY.contentHash()), new CacheKey("native", "reader 2, plugin test", KEY.name(), KEY.size(),
                KEY.contentHash()), new CacheKey("native", KEY.engineVersion(), "other.so", KEY.size(),
                KEY.contentHash()), new CacheKey("native", KEY.engineVersion(), KEY.name(), 43, KEY.contentHash()),
                new CacheKey("native", KEY.engineVersion(), KEY.name(), 42, "11".repeat(32)))) {
            assertThatThrownBy(() -> EntryFormat.read(entry, other, scan.path(), 0))
                    .isInstanceOf(EntryFormat.Corrupt.class).hasMessage("written for another key");
            assertThat(other.fileName()).isNotEqualTo(KEY.fileName());
        }
    }

    @Test
    void everyTruncationIsCorrupt() throws Exception {
        LibraryScan scan = realScans().stream().filter(s -> !s.ptxEntries().isEmpty()).findFirst().orElseThrow();
        byte[] entry = EntryFormat.write(KEY, scan);
        for (int length = 0; length < entry.length; length++) {
            byte[] truncated = java.util.Arrays.copyOf(entry, length);
            assertThatThrownBy(() -> EntryFormat.read(truncated, KEY, scan.path(), 0)).as("length %d", length)
                    .isInstanceOf(EntryFormat.Corrupt.class);
        }
    }

    @Test
    void flippedBytesAreCorrupt() throws Exception {
        LibraryScan scan = realScans().get(3);
        byte[] entry = EntryFormat.write(KEY, scan);
        Random random = new Random(11);
        for (int i = 0; i < 2000; i++) {
            byte[] damaged = entry.clone();
            int at = random.nextInt(damaged.length);
            damaged[at] ^= (byte) (1 + random.nextInt(255));
            assertThatThrownBy(() -> EntryFormat.read(damaged, KEY, scan.path(), 0)).as("byte %d", at)
                    .isInstanceOf(EntryFormat.Corrupt.class);
        }
    }

    @Test
    void hugeCountsBehindAValidChecksumAreRefusedBeforeAllocating() throws Exception {
        // a payload that claims 2^31-1 strings: checksum and layout valid, the count impossible
        byte[] keyBytes = KEY.text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(payload.array());
        ByteBuffer entry = ByteBuffer.allocate(8 + 4 + 4 + keyBytes.length + 4 + 8 + 4);
        entry.put("CSBSCAN\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(EntryFormat.VERSION)
                .putInt(keyBytes.length).put(keyBytes).putInt(8).put(payload.array()).putInt((int) crc.getValue());
        assertThatThrownBy(() -> EntryFormat.read(entry.array(), KEY, Path.of("x"), 0))
                .isInstanceOf(EntryFormat.Corrupt.class).hasMessageContaining("count or length 2147483647");
    }

    @Test
    void foreignFilesAndOtherVersionsAreCorrupt() {
        assertThatThrownBy(() -> EntryFormat.read("{\"json\": true}".getBytes(), KEY, Path.of("x"), 0))
                .isInstanceOf(EntryFormat.Corrupt.class).hasMessageContaining("no magic");
        ByteBuffer other = ByteBuffer.allocate(64).put("CSBSCAN\n".getBytes()).putInt(EntryFormat.VERSION + 1);
        assertThatThrownBy(() -> EntryFormat.read(other.array(), KEY, Path.of("x"), 0))
                .isInstanceOf(EntryFormat.Corrupt.class).hasMessageContaining("layout version 2");
    }
}
