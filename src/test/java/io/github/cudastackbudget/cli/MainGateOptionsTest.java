package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.text.Option;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate's flags: {@code --suppressions FILE} and {@code --fail-on-unused-suppressions} (rules are POM-only). */
class MainGateOptionsTest {

    private static final String FILE = "target/test-cuda/libframes.so";

    @TempDir
    Path tmp;

    @Test
    void theFlagsAreParsed() {
        CheckOptions none = Main.parse(new String[] {FILE}).options();
        assertThat(none.gate().suppressions()).isNull();
        CheckOptions options = Main.parse(new String[] {"--suppressions", "s.xml", "--fail-on-unused-suppressions",
            FILE}).options();
        assertThat(options.gate().suppressions()).isEqualTo(Path.of("s.xml"));
        assertThat(options.gate().failOnUnusedSuppressions()).isTrue();
        assertThat(options.gate().rules()).isEmpty();
    }

    @Test
    void theFlagsNameTheOptionsInMessages() {
        assertThat(CliFrontend.INSTANCE.name(Option.SUPPRESSIONS)).isEqualTo("--suppressions");
        assertThat(CliFrontend.INSTANCE.howToSet(Option.FAIL_ON_UNUSED_SUPPRESSIONS, "true"))
                .isEqualTo("--fail-on-unused-suppressions");
        assertThat(CliFrontend.INSTANCE.name(Option.RULES)).contains("POM only");
    }

    @Test
    void aSuppressionTurnsTheExitStatusGreenAndAnUnusedOneFailsWithTheFlag() throws Exception {
        String[] base = {"--devices", "h200-141gb", "--no-detect", "--engine", "native", "--max-reservation", "2 GiB",
            "-q", FILE};
        Path file = Files.writeString(tmp.resolve("suppressions.xml"), "<suppressions><suppress>"
                + "<kernel>void frameKernel&lt;2550&gt;(int*, int)</kernel><reason>a test kernel</reason></suppress>"
                + "<suppress><kernel>none*</kernel><reason>unused</reason></suppress></suppressions>");

        assertThat(run(tmp.resolve("a"), base)).as("2,759,589,888 B on the H200 is over 2 GiB").isEqualTo(1);
        String[] suppressed = concat(new String[] {"--suppressions", file.toString()}, base);
        assertThat(run(tmp.resolve("b"), suppressed)).isZero();
        assertThat(errors).contains("WARNING: " + file + ": suppression[2] (kernel 'none*', line 1) matches no "
                + "kernel on any device: remove it (--fail-on-unused-suppressions fails the build on it)");
        assertThat(run(tmp.resolve("c"), concat(new String[] {"--fail-on-unused-suppressions"}, suppressed)))
                .isEqualTo(1);
    }

    private String errors = "";

    private int run(Path out, String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return Main.run(concat(new String[] {"--output", out.toString()}, args));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
            errors = err.toString(StandardCharsets.UTF_8);
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
