package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.binary.ElfBuilder;
import io.github.cudastackbudget.core.binary.NativeTestFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line printer on real files, against the real cuobjdump text recorded for them. */
class DumpResourceUsageTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return DumpResourceUsage.run(args, out, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void printsSeveralFilesLikeCuobjdump() throws Exception {
        Path library = NativeTestFiles.testCuda("libframes_lz4.so");
        Path cubin = NativeTestFiles.testCuda("frames_sm90.cubin");

        assertThat(run(library.toString(), cubin.toString())).isZero();

        assertThat(out.toString(StandardCharsets.ISO_8859_1)).isEqualTo(NativeTestFiles.recording("libframes_lz4.so")
                + NativeTestFiles.recording("frames_sm90.cubin"));
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void reportsAFileWithoutDeviceCodeAndGoesOn() throws Exception {
        Path hostOnly = NativeTestFiles.testCuda("libhostonly.so");
        Path cubin = NativeTestFiles.testCuda("frames_sm90.cubin");

        assertThat(run(hostOnly.toString(), cubin.toString())).isEqualTo(1);

        assertThat(out.toString(StandardCharsets.ISO_8859_1)).isEqualTo(NativeTestFiles.recording("frames_sm90.cubin"));
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("DumpResourceUsage: " + hostOnly
                + ": no .nv_fatbin or __nv_relfatbin section: the file holds no CUDA device code"
                + System.lineSeparator());
    }

    @Test
    void reportsAMissingFile() {
        assertThat(run("/nonexistent/libx.so")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("DumpResourceUsage: /nonexistent/libx.so: "
                + "cannot read: java.nio.file.NoSuchFileException");
    }

    @Test
    void explainsItsUsage() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("usage: DumpResourceUsage FILE...");
    }

    /**
     * What a new user sees for a file the readers cannot take: the check and this printer give the same reason
     * (regression: they had one reader each, and disagreed).
     */
    @Nested
    class SameReasonAsTheCheck {

        @TempDir
        Path tmp;

        private CheckRunner.Outcome check(Path library, String engine) throws CheckException {
            CheckOptions options = CheckOptions.builder().libraryFiles(List.of(library)).engine(engine)
                    .devicePresets("h200-141gb").detectLocalDevices(false).outputDirectory(tmp.resolve("out"))
                    .build();
            return CheckRunner.run(options, CheckListener.SILENT);
        }

        private String dumpError(Path file) {
            assertThat(run(file.toString())).isEqualTo(1);
            String line = err.toString(StandardCharsets.UTF_8);
            assertThat(line).startsWith("DumpResourceUsage: " + file + ": ").endsWith(System.lineSeparator());
            return line.substring(("DumpResourceUsage: " + file + ": ").length(), line.length()
                    - System.lineSeparator().length());
        }

        @Test
        void thinArchive() throws Exception {
            Path thin = Files.writeString(tmp.resolve("thin.a"), "!<thin>\n");
            String reason = "a thin ar archive (!<thin>) holds only the names of its members; give the member files "
                    + "themselves";

            assertThat(dumpError(thin)).isEqualTo("at offset 0x0: " + reason);
            assertThat(check(thin, "auto").result().warnings()).containsExactly("library '" + thin
                    + "' holds no CUDA device code (" + reason + "): nothing to check in it");
        }

        @Test
        void bigEndianElf() throws Exception {
            Path object = Files.write(tmp.resolve("big.o"), new ElfBuilder().order(ByteOrder.BIG_ENDIAN)
                    .section(".nv_fatbin").build());
            String reason = "at offset 0x5: ELF data encoding 2 (only 1 = little-endian is read; CUDA device code is "
                    + "little-endian)";

            assertThat(dumpError(object)).isEqualTo(reason);
            assertThatThrownBy(() -> check(object, "native")).isInstanceOf(CheckException.class)
                    .hasMessageStartingWith(object + ": " + reason + "; the native reader does not know this layout");
        }

        @Test
        void cubinOfAnUnknownAbiVersion() throws Exception {
            byte[] bytes = Files.readAllBytes(NativeTestFiles.testCuda("frames_sm90.cubin"));
            bytes[8] = 9;
            Path cubin = Files.write(tmp.resolve("frames_sm90.cubin"), bytes);
            String reason = "at offset 0x8: cubin ELF ABI version 9 (known: 7 = CUDA ABI v1, 8 = CUDA ABI v2)";

            assertThat(dumpError(cubin)).isEqualTo(reason);
            assertThatThrownBy(() -> check(cubin, "native")).isInstanceOf(CheckException.class)
                    .hasMessageStartingWith(cubin + ": " + reason + "; the native reader does not know this layout");
        }
    }
}
