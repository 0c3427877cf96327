package io.github.cudastackbudget.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The content hash: every byte and the size count, whatever the threads and whether the bytes are a file or memory. */
class ContentHashTest {

    @TempDir
    Path tmp;

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void fileAndMemoryAgreeForEveryThreadCountAndAroundChunkBoundaries() throws Exception {
        int chunk = ContentHash.CHUNK_BYTES;
        for (int size : new int[] {0, 1, chunk - 1, chunk, chunk + 1, 2 * chunk + 12345}) {
            byte[] bytes = random(size, size);
            Path file = Files.write(tmp.resolve("f" + size), bytes);
            String single = ContentHash.of(file, 1);
            assertThat(single).as("size %d", size).hasSize(64).matches("[0-9a-f]{64}");
            assertThat(ContentHash.of(file, 4)).as("size %d, 4 threads", size).isEqualTo(single);
            assertThat(ContentHash.of(ByteBuffer.wrap(bytes), 3)).as("size %d, heap buffer", size).isEqualTo(single);
            ByteBuffer direct = ByteBuffer.allocateDirect(size + 7).position(7);
            direct.put(bytes).position(7);
            assertThat(ContentHash.of(direct, 2)).as("size %d, direct buffer at an offset", size).isEqualTo(single);
        }
    }

    @Test
    void oneChangedByteInAnyChunkOrOneMoreByteChangesTheHash() throws Exception {
        int size = 2 * ContentHash.CHUNK_BYTES + 99;
        byte[] bytes = random(size, 7);
        Set<String> hashes = new HashSet<>();
        hashes.add(ContentHash.of(ByteBuffer.wrap(bytes), 2));
        for (int at : new int[] {0, ContentHash.CHUNK_BYTES - 1, ContentHash.CHUNK_BYTES, size - 1}) {
            byte[] changed = bytes.clone();
            changed[at] ^= 1;
            hashes.add(ContentHash.of(ByteBuffer.wrap(changed), 2));
        }
        // a zero byte more: same chunk digests for the first chunks, but the size and the last chunk differ
        byte[] longer = java.util.Arrays.copyOf(bytes, size + 1);
        hashes.add(ContentHash.of(ByteBuffer.wrap(longer), 2));
        // the empty input and one zero byte
        hashes.add(ContentHash.of(ByteBuffer.allocate(0), 1));
        hashes.add(ContentHash.of(ByteBuffer.allocate(1), 1));
        assertThat(hashes).hasSize(8);
    }

    @Test
    void aMissingFileIsAnIoException() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ContentHash.of(tmp.resolve("missing"), 2))
                .isInstanceOf(java.io.IOException.class);
    }
}
