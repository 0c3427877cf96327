package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cuobjdump that misbehaves (issue 10): hangs, floods its output, prints junk, crashes or exits 0 with an error,
 * on {@code --version} as on the file. Each is one clear error naming the tool or the file, within the configured
 * timeout, and never a wait for the timeout when the output is already known to be bad.
 */
class CuobjdumpMisbehaviourTest {

    private static final Duration GENEROUS = Duration.ofSeconds(120);

    @TempDir
    Path tmp;

    private Path script(String body) throws IOException {
        return RecordedCuobjdump.executable(tmp.resolve("bin").resolve("cuobjdump"), "#!/bin/sh\n" + body + "\n");
    }

    /** A stand-in whose --version replays the real tool's text and whose other calls run {@code body}. */
    private Path tool(String body) throws IOException {
        return script("if [ \"$1\" = --version ]; then\n  cat <<'VERSION'\n" + RecordedCuobjdump.VERSION_TEXT
                + "\nVERSION\n  exit 0\nfi\n" + body);
    }

    private static long secondsSince(long start) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void versionThatHangsIsStoppedAtTheConfiguredTimeout() throws Exception {
        // regression: --version had its own fixed 30 s limit and ignored the configured one
        Path cuobjdump = script("exec sleep 60");
        long start = System.nanoTime();

        assertThatThrownBy(() -> CuobjdumpEngine.using(cuobjdump, Duration.ofSeconds(1), CuobjdumpEngineTest.PROPERTIES))
                .isInstanceOf(EngineException.class)
                .hasMessage("cuobjdump '" + cuobjdump + "' did not answer --version within 1 s: check that it is a "
                        + "working cuobjdump, or raise the limit (-DcudaStackBudget.timeout=60)");
        assertThat(secondsSince(start)).isLessThan(15);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void versionThatFloodsOneEndlessLineIsStopped() throws Exception {
        Path cuobjdump = script("exec tr '\\000' x < /dev/zero");
        long start = System.nanoTime();

        assertThatThrownBy(() -> CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS))
                .isInstanceOf(EngineException.class)
                .hasMessage("cuobjdump '" + cuobjdump + "' printed a line longer than 1048576 bytes for --version and "
                        + "was stopped: point it at the cuobjdump of a CUDA toolkit, e.g. "
                        + "cuobjdump=/usr/local/cuda/bin/cuobjdump");
        assertThat(secondsSince(start)).isLessThan(30);
    }

    @Test
    void versionThatPrintsSomethingElseIsNotTakenForCuobjdump() throws Exception {
        Path cuobjdump = script("printf 'GNU coreutils 9.4\\r\\n\\001junk\\n'");

        assertThatThrownBy(() -> CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS))
                .isInstanceOf(EngineException.class)
                .hasMessage("cuobjdump '" + cuobjdump + "' printed no cuobjdump version for --version ('GNU coreutils "
                        + "9.4'): point it at the cuobjdump of a CUDA toolkit, e.g. "
                        + "cuobjdump=/usr/local/cuda/bin/cuobjdump");
    }

    @Test
    void versionThatPrintsNothingIsNotTakenForCuobjdump() throws Exception {
        Path cuobjdump = script("exit 0");

        assertThatThrownBy(() -> CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("printed no cuobjdump version for --version (nothing)");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void outputThatFloodsOneEndlessLineIsStoppedNamingTheFile() throws Exception {
        Path cuobjdump = tool("exec tr '\\000' x < /dev/zero");
        Path libframes = RecordedCuobjdump.testCuda("libframes.so");
        CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);
        long start = System.nanoTime();

        assertThatThrownBy(() -> engine.read(DeviceCodeDetector.probe(libframes)))
                .isInstanceOf(EngineException.class)
                .hasMessageStartingWith(libframes + ": cuobjdump printed a line longer than 1048576 bytes and was "
                        + "stopped; the figures cannot be trusted");
        assertThat(secondsSince(start)).isLessThan(30);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void endlessJunkIsRefusedAtTheFirstBadLineWithoutWaitingForTheTimeout() throws Exception {
        // before issue 10 the tool went on printing until the timeout (600 s by default) and only then the error came
        Path cuobjdump = tool("while :; do printf '\\nFatbin elf code:\\n================\\narch = sm_90\\n"
                + "code version = [1,8]\\n\\nResource usage:\\n Function _Z3badPi:\\n  REG:x STACK:y\\n'; done");
        Path libframes = RecordedCuobjdump.testCuda("libframes.so");
        CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);
        long start = System.nanoTime();

        assertThatThrownBy(() -> engine.read(DeviceCodeDetector.probe(libframes)))
                .isInstanceOf(EngineException.class)
                .hasMessageStartingWith(libframes + ": cuobjdump printed output this plugin cannot read")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "\r"));
        assertThat(secondsSince(start)).isLessThan(30);
    }

    @Test
    void toolThatCrashesNamesTheFileAndTheSignal() throws Exception {
        Path cuobjdump = tool("echo 'Segmentation fault' >&2\nkill -SEGV $$");
        Path libframes = RecordedCuobjdump.testCuda("libframes.so");
        CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);

        assertThatThrownBy(() -> engine.read(DeviceCodeDetector.probe(libframes)))
                .isInstanceOf(EngineException.class)
                .hasMessage(libframes + ": cuobjdump failed (exit 139): Segmentation fault; the file has device code, "
                        + "so the figures cannot be trusted");
    }

    @Test
    void exitZeroWithAnErrorAfterPartOfTheOutputIsAnError() throws Exception {
        // the recorded text of one real library, then an error on stderr, exit 0: the output may be cut short
        Path recording = RecordedCuobjdump.fixture(RecordedCuobjdump.TORCHAUDIO);
        Path cuobjdump = tool("gzip -dc '" + recording + "'\necho \"cuobjdump error   : out of memory while reading '$2'\" >&2\n"
                + "exit 0");
        Path libframes = RecordedCuobjdump.testCuda("libframes.so");
        CuobjdumpEngine engine = CuobjdumpEngine.using(cuobjdump, GENEROUS, Frontend.PARAMETERS);

        assertThatThrownBy(() -> engine.read(DeviceCodeDetector.probe(libframes)))
                .isInstanceOf(EngineException.class)
                .hasMessage(libframes + ": cuobjdump exited 0 but reported an error ('cuobjdump error   : out of "
                        + "memory while reading '" + libframes + "''); the figures cannot be trusted");
    }
}
