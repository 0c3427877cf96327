package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line over real nvcc-built binaries (target/test-cuda), with the native engine (no toolkit needed). */
class MainTest {

    private static final Path LIBRARY = Path.of("target/test-cuda/libframes.so");

    @TempDir
    Path tmp;

    @Test
    void aJarArgumentIsReadInPlaceAndABudgetFailureExitsWithOne() throws Exception {
        Path jar = tmp.resolve("app.jar");
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.putNextEntry(new ZipEntry("native/libframes.so"));
            zip.write(Files.readAllBytes(LIBRARY));
            zip.closeEntry();
        }
        Path out = tmp.resolve("out");

        int status = Main.run(new String[] {"-q", "--engine", "native", "--devices", "h200-141gb",
            "--max-reservation", "1 GiB", "--output", out.toString(), jar.toString()});

        assertThat(status).isEqualTo(1);
        assertThat(Files.readString(out.resolve("cuda-stack-budget.json")))
                .contains("\"app.jar!/native/libframes.so\"").contains("\"reservationBytes\" : 2759589888");
    }

    @Test
    void aFileWithinBudgetExitsWithZero() throws Exception {
        int status = Main.run(new String[] {"-q", "--devices", "h200-141gb", "--max-reservation", "3 GiB",
            "--output", tmp.resolve("out").toString(), LIBRARY.toString()});

        assertThat(status).isZero();
    }

    @Test
    void anUnknownEngineIsMisuse() {
        int status = Main.run(new String[] {"-q", "--engine", "magic", "--devices", "h200-141gb", "--output",
            tmp.resolve("out").toString(), LIBRARY.toString()});

        assertThat(status).isEqualTo(2);
    }
}
