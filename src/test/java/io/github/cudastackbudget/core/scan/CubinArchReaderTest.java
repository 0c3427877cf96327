package io.github.cudastackbudget.core.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.GpuArch;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CubinArchReaderTest {

    /** Built by src/test/cuda/build-test-binaries.sh at generate-test-resources. */
    private static final Path TEST_CUDA = Path.of("target/test-cuda");

    @TempDir
    Path tmp;

    private static Path real(String name) {
        Path file = TEST_CUDA.resolve(name);
        assertThat(file).as("%s is built by src/test/cuda/build-test-binaries.sh (mvn generate-test-resources)", file)
                .isRegularFile();
        return file;
    }

    /** The nvcc-built cubins kept as test resources (see README.md beside them). */
    private static Path resource(String name) throws URISyntaxException {
        URL url = CubinArchReaderTest.class.getResource(name);
        assertThat(url).as("test resource %s next to CubinArchReaderTest", name).isNotNull();
        return Path.of(url.toURI());
    }

    private Path truncated(Path source, int length) throws IOException {
        byte[] bytes = Files.readAllBytes(source);
        assertThat(bytes.length).isGreaterThan(length);
        return Files.write(tmp.resolve("truncated-" + length + ".cubin"), Arrays.copyOf(bytes, length));
    }

    @Test
    void nvccSm90CubinIsSm90() throws IOException {
        GpuArch arch = CubinArchReader.read(real("frames_sm90.cubin"));

        assertThat(arch).isEqualTo(GpuArch.parse("sm_90"));
        assertThat(arch.variant()).isEqualTo(ArchVariant.BASE);
        assertThat(arch.sassLabel()).isEqualTo("sm_90");
    }

    @Test
    void archSpecificCubinsCarryTheA() throws Exception {
        assertThat(CubinArchReader.read(resource("nostack_sm90a.cubin")).sassLabel()).isEqualTo("sm_90a");
        assertThat(CubinArchReader.read(resource("nostack_sm120a.cubin")).sassLabel()).isEqualTo("sm_120a");
    }

    @Test
    void familyCubinReadsAsItsBaseArch() throws Exception {
        // a bare cubin does not record the f variant (docs/cuda-binary-format.md 4.1)
        assertThat(CubinArchReader.read(resource("nostack_sm100f.cubin"))).isEqualTo(GpuArch.parse("sm_100"));
    }

    @Test
    void sm90AndSm90aCubinsShareTheirEFlags() throws Exception {
        // why the a variant has to come from .nv.compat: the header flags are the same
        assertThat(eFlags(real("frames_sm90.cubin"))).isEqualTo(eFlags(resource("nostack_sm90a.cubin")))
                .isEqualTo(0x06005A04);
    }

    private static int eFlags(Path cubin) throws IOException {
        byte[] header = new byte[64];
        try (InputStream in = Files.newInputStream(cubin)) {
            assertThat(in.readNBytes(header, 0, 64)).isEqualTo(64);
        }
        return ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(0x30);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 10, 63, 64, 200})
    void truncatedCubinThrows(int length) throws IOException {
        Path cut = truncated(real("frames_sm90.cubin"), length);

        assertThatThrownBy(() -> CubinArchReader.read(cut)).isInstanceOf(IOException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void cubinCutBeforeItsSectionHeadersThrows() throws IOException {
        Path source = real("frames_sm90.cubin");
        long sectionTable = ByteBuffer.wrap(Files.readAllBytes(source)).order(ByteOrder.LITTLE_ENDIAN).getLong(0x28);
        Path cut = truncated(source, (int) sectionTable + 10);

        assertThatThrownBy(() -> CubinArchReader.read(cut)).isInstanceOf(IOException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void hostElfIsNotACubin() {
        assertThatThrownBy(() -> CubinArchReader.read(real("libframes.so"))).isInstanceOf(IOException.class)
                .hasMessageContaining("not a cubin");
    }

    @Test
    void textIsNotACubin() throws IOException {
        Path text = Files.writeString(tmp.resolve("fake.cubin"), "this is not an ELF file at all, just some text that is"
                + " longer than an ELF header so that nothing is truncated\n");

        assertThatThrownBy(() -> CubinArchReader.read(text)).isInstanceOf(IOException.class)
                .hasMessageContaining("not a 64-bit ELF cubin");
    }

    @Test
    void missingFileThrows() {
        assertThatThrownBy(() -> CubinArchReader.read(tmp.resolve("none.cubin"))).isInstanceOf(IOException.class);
    }

    @Test
    void oldLayoutTakesTheSmFromTheLowByteAndTheAFromBit0x800() throws IOException {
        byte[] bytes = Files.readAllBytes(real("frames_sm90.cubin"));
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        header.put(8, (byte) 7);                       // ELF ABI version 7: the v1 e_flags layout
        header.putInt(0x30, 0x00480546);               // an sm_70 cubin's flags (docs/cuda-binary-format.md 4.1)
        Path sm70 = Files.write(tmp.resolve("sm70.cubin"), bytes);
        header.putInt(0x30, 0x00000D5A);               // 0x5A = 90, 0x800 = a, 0x400 64-bit, 0x100 texture mode
        Path sm90a = Files.write(tmp.resolve("sm90a.cubin"), bytes);

        assertThat(CubinArchReader.read(sm70)).isEqualTo(GpuArch.parse("sm_70"));
        assertThat(CubinArchReader.read(sm90a)).isEqualTo(GpuArch.parse("sm_90a"));
    }
}
