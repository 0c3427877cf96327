package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.binary.NativeTestFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
}
