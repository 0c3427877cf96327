package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.maven.plugin.logging.Log;
import org.junit.jupiter.api.Test;

/** Module names in the log lines of a parallel build, and none in a serial one. */
class ModuleLogTest {

    @Test
    void aParallelBuildPrefixesEveryLineWithTheArtifactId() {
        LogLines lines = new LogLines();
        Log log = ModuleLog.of(lines, true, "kernels");

        log.info("Reading 1 file(s) with device code");
        log.warn("a warning");
        log.error("h200-141gb: stack reservation exceeds maxReservation");

        assertThat(lines.lines).containsExactly("INFO [kernels] Reading 1 file(s) with device code",
                "WARN [kernels] a warning", "ERROR [kernels] h200-141gb: stack reservation exceeds maxReservation");
    }

    @Test
    void aSerialBuildLogsUnchanged() {
        LogLines lines = new LogLines();

        Log log = ModuleLog.of(lines, false, "kernels");
        log.info("Reading 1 file(s) with device code");

        assertThat(log).isSameAs(lines);
        assertThat(lines.lines).containsExactly("INFO Reading 1 file(s) with device code");
    }

    @Test
    void aPrefixedLogIsNotPrefixedTwice() {
        LogLines lines = new LogLines();

        ModuleLog.of(ModuleLog.of(lines, true, "kernels"), true, "kernels").info("line");

        assertThat(lines.lines).containsExactly("INFO [kernels] line");
    }
}
