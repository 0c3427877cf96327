package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.baseline.BaselineOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 12: {@code --baseline}, {@code --max-growth} and {@code --ignore-missing-baseline} on the command line. */
class MainBaselineTest {

    @TempDir
    Path tmp;

    @Test
    void theFlagsReachTheOptions() {
        BaselineOptions baseline = Main.parse(new String[] {"--baseline", "old.json", "--max-growth", "10%",
            "--ignore-missing-baseline", "lib.so"}).options().baseline();

        assertThat(baseline).isEqualTo(new BaselineOptions(Path.of("old.json"), "10%", true));
        assertThat(Main.parse(new String[] {"lib.so"}).options().baseline().baseline()).isNull();
    }

    @Test
    void aGrowthOverMaxGrowthExitsWithOneAndNamesTheFlags() throws Exception {
        String library = Path.of("target/test-cuda/libframes.so").toString();
        String jit = Path.of("target/test-cuda/libjitmixed.so").toString();
        Path earlier = tmp.resolve("earlier");
        assertThat(run("--engine", "native", "--devices", "h200-141gb", "--no-cache", "--no-detect", "-q",
                "--output", earlier.toString(), library)).isZero();

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int status;
        try {
            status = run("--engine", "native", "--devices", "h200-141gb", "--no-cache", "--no-detect", "-q",
                    "--output", tmp.resolve("later").toString(), "--baseline",
                    earlier.resolve("cuda-stack-budget.json").toString(), "--max-growth", "10%", library, jit);
        } finally {
            System.setErr(saved);
        }

        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("VIOLATION: h200-141gb: the reservation grew from ")
                .contains("more than --max-growth 10% allows");
        // a missing baseline names the flag that lets it be missing
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            status = run("--engine", "native", "--devices", "h200-141gb", "--no-cache", "--no-detect", "-q",
                    "--output", tmp.resolve("later").toString(), "--baseline", tmp.resolve("none.json").toString(),
                    library);
        } finally {
            System.setErr(saved);
        }
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cuda-stack-budget: --baseline "
                + tmp.resolve("none.json") + " does not exist").contains("or set --ignore-missing-baseline where");
    }

    private static int run(String... args) {
        PrintStream saved = System.out;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            return Main.run(args);
        } finally {
            System.setOut(saved);
        }
    }
}
