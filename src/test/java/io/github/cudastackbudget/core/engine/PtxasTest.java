package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.EntryDecompressor;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real ptxas of the build machine (CI has the CUDA 13 toolkit on the PATH) on the PTX the plugin's reader takes
 * out of the nvcc-built PTX-only library, against the {@code nvcc -Xptxas -v} log recorded for the same PTX; and what
 * happens when ptxas is missing, fails or hangs.
 */
class PtxasTest {

    private static final Path TEST_CUDA = Path.of("target", "test-cuda");

    @TempDir
    Path dir;

    private static Ptxas realPtxas() throws Exception {
        Path found = Ptxas.locate(null, System.getenv()).orElseThrow(() -> new AssertionError(
                "ptxas on the PATH or in $CUDA_HOME/bin: the build needs the CUDA toolkit"));
        return Ptxas.of(found, Duration.ofSeconds(60));
    }

    private Path ptxOf(String library) throws Exception {
        List<ByteBuffer> modules = new ArrayList<>();
        new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES).ptxModules(TEST_CUDA.resolve(library),
                (label, target) -> true, (label, target, offset, text) -> modules.add(text));
        assertThat(modules).as("one compute_80 PTX entry in " + library).hasSize(1);
        Path ptx = dir.resolve(library + ".ptx");
        byte[] bytes = new byte[modules.get(0).remaining()];
        modules.get(0).duplicate().get(bytes);
        Files.write(ptx, bytes);
        return ptx;
    }

    @Test
    void itsVersionIsRead() throws Exception {
        Ptxas ptxas = realPtxas();

        assertThat(ptxas.version()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(ptxas.version()).startsWith(ptxas.release() + ".");
        assertThat(ptxas.description()).isEqualTo("ptxas " + ptxas.version());
    }

    @Test
    void theFramesOfTheTakenOutPtxEqualTheRecordedNvccLog() throws Exception {
        Ptxas ptxas = realPtxas();
        Path ptx = ptxOf("libjitptx.so");
        for (String sm : List.of("sm_90", "sm_100", "sm_120")) {
            Ptxas.Result result = ptxas.compile(ptx, sm, dir.resolve("out.cubin"), Duration.ofSeconds(120));

            assertThat(result.failure()).isNull();
            List<PtxasOutput.Function> recorded = PtxasOutput.parse(Files.readAllLines(
                    TEST_CUDA.resolve("jitframes-ptxas-" + sm + ".txt")));
            assertThat(result.functions()).as(sm).hasSize(6)
                    .containsExactlyInAnyOrderElementsOf(recorded.stream().map(f -> new PtxasOutput.Function(f.name(),
                            f.target(), f.frame(), f.stackUnknown(), f.registers(), f.spillStores())).toList());
        }
    }

    @Test
    void ptxItCannotCompileIsOneLineWithPtxassOwnError() throws Exception {
        Path ptx = dir.resolve("broken.ptx");
        Files.writeString(ptx, ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k( {\n");

        Ptxas.Result result = realPtxas().compile(ptx, "sm_90", dir.resolve("out.cubin"), Duration.ofSeconds(60));

        assertThat(result.functions()).isEmpty();
        assertThat(result.failure()).startsWith("ptxas failed (exit status ").doesNotContain("\n");
    }

    @Test
    void aPtxasThatHangsIsStoppedAtTheTimeout() throws Exception {
        Path hanging = dir.resolve("ptxas");
        Files.writeString(hanging, "#!/bin/sh\nsleep 60\n");
        Files.setPosixFilePermissions(hanging, PosixFilePermissions.fromString("rwxr-xr-x"));
        long start = System.nanoTime();

        Ptxas.Result result = new Ptxas(hanging, "13.0.88", "13.0").compile(dir.resolve("m.ptx"), "sm_90",
                dir.resolve("out.cubin"), Duration.ofSeconds(1));

        assertThat(result.failure()).isEqualTo("ptxas ran longer than the timeout of 1 s");
        assertThat((System.nanoTime() - start) / 1_000_000_000L).isLessThan(30);
    }

    @Test
    void noPtxasOnThePathIsEmptyAndAConfiguredOneThatIsNoExecutableIsRefused() throws Exception {
        assertThat(Ptxas.locate(null, Map.of("PATH", dir.toString(), "CUDA_HOME", dir.toString()))
                .filter(path -> !path.startsWith("/usr/local/cuda"))).isEmpty();
        assertThatThrownBy(() -> Ptxas.locate(dir.resolve("nothing").toString(), Map.of()))
                .isInstanceOf(Ptxas.Unavailable.class).hasMessage("ptxas '" + dir.resolve("nothing")
                        + "' is not an executable file");
    }

    @Test
    void aToolThatIsNoPtxasIsRefusedByItsVersionLine() throws Exception {
        Path other = dir.resolve("ptxas");
        Files.writeString(other, "#!/bin/sh\necho something else\n");
        Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThatThrownBy(() -> Ptxas.of(other, Duration.ofSeconds(10))).isInstanceOf(Ptxas.Unavailable.class)
                .hasMessageContaining("printed no 'release N.N, VN.N.N' line");
    }
}
