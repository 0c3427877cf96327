package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
                .contains("\"app.jar!/native/libframes.so\"").contains("\"reservationBytes\": 2759589888");
    }

    @Test
    void aFileWithinBudgetExitsWithZero() throws Exception {
        int status = Main.run(new String[] {"-q", "--devices", "h200-141gb", "--max-reservation", "3 GiB",
            "--output", tmp.resolve("out").toString(), LIBRARY.toString()});

        assertThat(status).isZero();
    }

    @Test
    void platformsLeavingTheLibraryOutPassAndAnUnknownPlatformIsMisuseNamingTheFlag() throws Exception {
        Path out = tmp.resolve("out");
        assertThat(Main.parse(new String[] {"--platforms", "linux-x86_64,windows", LIBRARY.toString()}).options()
                .platforms()).isEqualTo("linux-x86_64,windows");

        int status = Main.run(new String[] {"-q", "--engine", "native", "--devices", "h200-141gb",
            "--max-reservation", "1 GiB", "--platforms", "windows", "--output", out.toString(), LIBRARY.toString()});

        assertThat(status).as("libframes.so (linux-x86_64) is over 1 GiB but not gated").isZero();
        assertThat(Files.readString(out.resolve("cuda-stack-budget.json"))).contains("\"gated\":false");
        assertThat(errorOf("--platforms", "win64", "--devices", "h200-141gb", "--output", out.toString(),
                LIBRARY.toString())).startsWith("cuda-stack-budget: --platforms 'win64' is not a platform (given: "
                        + "'win64'): use a comma-separated list of linux, windows, mac or system-processor").hasLineCount(1);
    }

    @Test
    void anUnknownEngineIsMisuse() {
        int status = Main.run(new String[] {"-q", "--engine", "magic", "--devices", "h200-141gb", "--output",
            tmp.resolve("out").toString(), LIBRARY.toString()});

        assertThat(status).isEqualTo(2);
    }

    private static String errorOf(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run(args)).as("misuse").isEqualTo(2);
        } finally {
            System.setErr(saved);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void usageErrorsNameTheFlags() {
        assertThat(errorOf("--timeout", "0", LIBRARY.toString()))
                .isEqualTo("cuda-stack-budget: --timeout 0 must be at least 1 second\n");
        assertThat(errorOf("--top", "many", LIBRARY.toString()))
                .isEqualTo("cuda-stack-budget: --top 'many' is not a whole number\n");
        assertThat(errorOf("--device", "gpu", LIBRARY.toString())).isEqualTo(
                "cuda-stack-budget: --device 'gpu': use NAME:COMPUTE_CAPABILITY:MAX_RESIDENT_THREADS\n");
        assertThat(errorOf(LIBRARY.toString(), "--max-stack")).isEqualTo("cuda-stack-budget: --max-stack needs a value\n");
        assertThat(errorOf("--library-log", "x", LIBRARY.toString()))
                .isEqualTo("cuda-stack-budget: --library-log needs --launch-log\n");
        assertThat(errorOf("--maxReservation", "1GiB", LIBRARY.toString()))
                .startsWith("cuda-stack-budget: unknown option --maxReservation\nusage: cuda-stack-budget");
    }

    @Test
    void theOptionsGoToTheCoreWithTheCommandLinesWords() {
        Main.Command command = Main.parse(new String[] {"--devices", "l4", "--max-reservation", "2%", "--timeout", "30",
            "--no-detect", "-q", LIBRARY.toString()});

        assertThat(command.quiet()).isTrue();
        assertThat(command.options().frontend()).isSameAs(CliFrontend.INSTANCE);
        assertThat(command.options().devicePresets()).isEqualTo("l4");
        assertThat(command.options().maxReservation()).isEqualTo("2%");
        assertThat(command.options().timeout()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(command.options().detectLocalDevices()).isFalse();
        assertThat(command.options().libraryFiles()).containsExactly(LIBRARY);
        assertThat(command.options().outputDirectory()).isEqualTo(Path.of("cuda-stack-budget"));
        assertThat(command.options().top()).isEqualTo(25);
        assertThat(command.options().engine()).isEqualTo("auto");
        assertThat(Main.parse(new String[] {"-h"})).as("--help").isNull();
    }
}
