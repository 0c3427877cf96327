package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's launched-mode options over the real nvcc-built libframes.so, with a stand-in that replays the real
 * cuobjdump 13.0 output recorded for it (src/test/resources/recorded/cuobjdump).
 */
class MainLaunchedModeTest {

    private static final Path RECORDINGS = Path.of("src/test/resources/recorded/cuobjdump").toAbsolutePath();

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private PrintStream savedErr;
    private PrintStream savedOut;
    private Path replay;
    private Path library;

    @BeforeEach
    void setUp() throws Exception {
        savedErr = System.err;
        savedOut = System.out;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        library = Files.copy(RecordedCuobjdump.testCuda("libframes.so"), tmp.resolve("libframes.so"));
        replay = RecordedCuobjdump.executable(tmp.resolve("cuobjdump"), "#!/bin/sh\n"
                + "# replays the REAL cuobjdump 13.0 output recorded for libframes.so\n"
                + "if [ \"$1\" = --version ]; then cat '" + RECORDINGS + "/cuobjdump-version.txt'; exit 0; fi\n"
                + "cat '" + RECORDINGS + "/libframes.so.resource-usage.txt'\n");
    }

    @AfterEach
    void restore() {
        System.setErr(savedErr);
        System.setOut(savedOut);
    }

    private int run(String... extra) {
        String[] base = {"--no-detect", "--devices", "h200-141gb", "--max-reservation", "2GiB", "--cuobjdump",
                replay.toString(), "--output", tmp.resolve("out").toString(), "-q", library.toString()};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(extra, 0, args, 0, extra.length);
        System.arraycopy(base, 0, args, extra.length, base.length);
        return Main.run(args);
    }

    @Test
    void launchLogTurnsAStaticFailureIntoALaunchedPass() throws Exception {
        assertThat(run()).as("static: 270,336 x 10,208 B > 2 GiB").isEqualTo(1);
        Path log = Files.writeString(tmp.resolve("launch.log"), "# cuda-stack-budget launch log 1\n# status: ok\n"
                + "_Z11frameKernelILi1024EEvPii\tmain\t0\n");
        assertThat(run("--launch-log", log.toString())).isZero();
        assertThat(Files.readString(tmp.resolve("out/cuda-stack-budget.json")))
                .contains("\"launchedReservationBytes\": 1107296256", "\"staticReservationBytes\": 2759589888");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("WARNING: the library log " + log + ".libraries");
    }

    @Test
    void missingLaunchLogAndLibraryLogWithoutLaunchLogAreMisuse() {
        assertThat(run("--launch-log", tmp.resolve("none.log").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cuda-stack-budget: the launch log "
                + tmp.resolve("none.log") + " (--launch-log) does not exist").doesNotContain("cudaStackBudget.");
        assertThat(run("--library-log", tmp.resolve("x").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--library-log needs --launch-log");
    }
}
