package io.github.cudastackbudget.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JIT frame cache: keys (PTX bytes, target, ptxas version), atomic entries, unusable entries, unwritable folders. */
class JitFrameCacheTest {

    private static final ByteBuffer PTX = ByteBuffer.wrap(".version 9.0\n.target sm_80\n".getBytes(StandardCharsets.UTF_8));
    private static final List<JitFrameCache.Frame> FRAMES = List.of(new JitFrameCache.Frame("_Z1kv", 1200, false, 40),
            new JitFrameCache.Frame("_Z1rv", 0, true, 24));

    @TempDir
    Path dir;

    @Test
    void whatIsStoredIsServedForTheSameKeyOnly() {
        List<String> warnings = new ArrayList<>();
        JitFrameCache cache = new JitFrameCache(dir, warnings::add, "remedy");
        JitFrameCache.Key key = JitFrameCache.Key.of(PTX, "sm_120", "13.0.88");

        assertThat(cache.load(key)).isEmpty();
        cache.store(key, FRAMES);

        assertThat(cache.load(key)).contains(FRAMES);
        assertThat(cache.load(JitFrameCache.Key.of(PTX, "sm_100", "13.0.88"))).as("another target").isEmpty();
        assertThat(cache.load(JitFrameCache.Key.of(PTX, "sm_120", "12.8.93"))).as("another ptxas").isEmpty();
        assertThat(cache.load(JitFrameCache.Key.of(ByteBuffer.wrap("other".getBytes(StandardCharsets.UTF_8)),
                "sm_120", "13.0.88"))).as("other PTX").isEmpty();
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.misses()).isEqualTo(4);
        assertThat(warnings).isEmpty();
        assertThat(PTX.position()).as("the key reads the bytes without consuming them").isZero();
    }

    @Test
    void aTruncatedOrCorruptEntryIsOneWarningAndAMiss() throws Exception {
        List<String> warnings = new ArrayList<>();
        JitFrameCache cache = new JitFrameCache(dir, warnings::add, "remedy");
        JitFrameCache.Key key = JitFrameCache.Key.of(PTX, "sm_90", "13.0.88");
        cache.store(key, FRAMES);
        Path entry = cache.directory().resolve(key.fileName());
        String text = Files.readString(entry);

        Files.writeString(entry, text.substring(0, text.length() - 6));
        assertThat(cache.load(key)).isEmpty();
        Files.writeString(entry, text.replace("\t1200\t", "\tlots\t"));
        assertThat(cache.load(key)).isEmpty();

        assertThat(warnings).hasSize(2).allSatisfy(w -> assertThat(w).startsWith("JIT frame cache entry " + entry)
                .contains("ignored, the module is compiled again"));
    }

    @Test
    void anUnwritableDirectoryIsOneWarningForTheWholeCheck() throws Exception {
        Path file = dir.resolve("not-a-directory");
        Files.writeString(file, "x");
        List<String> warnings = new ArrayList<>();
        JitFrameCache cache = new JitFrameCache(file, warnings::add, "set another cacheDirectory");

        cache.store(JitFrameCache.Key.of(PTX, "sm_90", "13.0.88"), FRAMES);
        cache.store(JitFrameCache.Key.of(PTX, "sm_100", "13.0.88"), FRAMES);

        assertThat(warnings).singleElement().asString().contains("cannot be written")
                .endsWith("set another cacheDirectory");
    }
}
