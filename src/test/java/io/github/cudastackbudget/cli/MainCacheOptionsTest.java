package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.text.Option;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The kernel cache's flags: {@code --cache-directory DIR} and {@code --no-cache}. */
class MainCacheOptionsTest {

    private static final String FILE = "target/test-cuda/libframes.so";

    @Test
    void theCacheIsOnInTheDefaultDirectoryUnlessTold() {
        CheckOptions options = Main.parse(new String[] {FILE}).options();
        assertThat(options.useCache()).isTrue();
        assertThat(options.cacheDirectory()).isNull();
        assertThat(options.effectiveCacheDirectory()).isEqualTo(
                io.github.cudastackbudget.core.cache.KernelCache.defaultDirectory());
    }

    @Test
    void cacheDirectoryAndNoCacheAreParsed() {
        CheckOptions options = Main.parse(new String[] {"--cache-directory", "build/kc", FILE}).options();
        assertThat(options.cacheDirectory()).isEqualTo(Path.of("build/kc"));
        assertThat(options.effectiveCacheDirectory()).isEqualTo(Path.of("build/kc"));
        CheckOptions off = Main.parse(new String[] {"--no-cache", "--cache-directory", "build/kc", FILE}).options();
        assertThat(off.useCache()).isFalse();
        assertThat(off.effectiveCacheDirectory()).as("no cache, whatever the directory").isNull();
    }

    @Test
    void theFlagsNameTheOptionsInMessages() {
        assertThat(CliFrontend.INSTANCE.name(Option.CACHE_DIRECTORY)).isEqualTo("--cache-directory");
        assertThat(CliFrontend.INSTANCE.howToSet(Option.USE_CACHE, "false")).isEqualTo("--no-cache");
        assertThat(CliFrontend.INSTANCE.howToSet(Option.USE_CACHE, "true")).isEqualTo("leave out --no-cache");
        assertThat(CliFrontend.INSTANCE.howToSet(Option.CACHE_DIRECTORY, "/tmp/kc"))
                .isEqualTo("--cache-directory /tmp/kc");
    }

    @Test
    void aMissingDirectoryValueIsMisuse() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Main.parse(new String[] {FILE, "--cache-directory"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--cache-directory needs a value");
    }
}
