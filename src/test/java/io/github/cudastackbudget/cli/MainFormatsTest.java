package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --formats} on the command line (issue 12's outputs), over the nvcc-built libframes.so. */
class MainFormatsTest {

    private static final Path LIBRARY = Path.of("target/test-cuda/libframes.so");

    @TempDir
    Path tmp;

    @Test
    void formatsSelectsTheReportsWritten() throws Exception {
        Path out = tmp.resolve("out");
        assertThat(Main.parse(new String[] {"--formats", "junit,sarif", LIBRARY.toString()}).options().output()
                .formats()).isEqualTo(List.of("junit,sarif"));

        int status = Main.run(new String[] {"-q", "--engine", "native", "--devices", "h200-141gb",
            "--max-reservation", "1 GiB", "--formats", "junit,sarif,markdown", "--output", out.toString(),
            LIBRARY.toString()});

        assertThat(status).isEqualTo(1);
        try (var files = Files.list(out)) {
            assertThat(files.map(path -> path.getFileName().toString()).sorted()).containsExactly(
                    "TEST-cuda-stack-budget.xml", "cuda-stack-budget.md", "cuda-stack-budget.sarif");
        }
    }

    @Test
    void anUnknownFormatIsMisuseNamingTheFlag() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        int status;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            status = Main.run(new String[] {"-q", "--engine", "native", "--formats", "json,yaml", "--output",
                tmp.resolve("out").toString(), LIBRARY.toString()});
        } finally {
            System.setErr(original);
        }

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("cuda-stack-budget: --formats 'json,yaml': 'yaml' "
                + "is not a report format; use a comma-separated list of json, txt, html, markdown, junit, sarif "
                + "(default html,json,txt)" + System.lineSeparator());
    }
}
