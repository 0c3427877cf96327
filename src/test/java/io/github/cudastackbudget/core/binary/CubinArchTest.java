package io.github.cudastackbudget.core.binary;

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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one cubin-arch rule ({@link CubinReader#arch}), used by the native reader for bare cubins and by the cuobjdump
 * engine (cuobjdump prints no arch for a bare cubin): SM from e_flags by ELF ABI version, {@code a} from
 * {@code .nv.compat}; ABI versions other than 7 and 8, ELF32 and big-endian cubins are refused with the reason.
 */
class CubinArchTest {

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
        URL url = CubinArchTest.class.getResource(name);
        assertThat(url).as("test resource %s next to CubinArchTest", name).isNotNull();
        return Path.of(url.toURI());
    }

    private Path truncated(Path source, int length) throws IOException {
        byte[] bytes = Files.readAllBytes(source);
        assertThat(bytes.length).isGreaterThan(length);
        return Files.write(tmp.resolve("truncated-" + length + ".cubin"), Arrays.copyOf(bytes, length));
    }

    @Test
    void nvccSm90CubinIsSm90() throws Exception {
        GpuArch arch = CubinReader.arch(real("frames_sm90.cubin"));

        assertThat(arch).isEqualTo(GpuArch.parse("sm_90"));
        assertThat(arch.variant()).isEqualTo(ArchVariant.BASE);
        assertThat(arch.sassLabel()).isEqualTo("sm_90");
    }

    @Test
    void archSpecificCubinsCarryTheA() throws Exception {
        assertThat(CubinReader.arch(resource("nostack_sm90a.cubin")).sassLabel()).isEqualTo("sm_90a");
        assertThat(CubinReader.arch(resource("nostack_sm120a.cubin")).sassLabel()).isEqualTo("sm_120a");
    }

    @Test
    void familyCubinReadsAsItsBaseArch() throws Exception {
        // a bare cubin does not record the f variant (docs/cuda-binary-format.md 4.1)
        assertThat(CubinReader.arch(resource("nostack_sm100f.cubin"))).isEqualTo(GpuArch.parse("sm_100"));
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
    @CsvSource({"0, not an ELF file", "10, truncated ELF header", "63, truncated ELF header (63 of 64 bytes)",
        "64, (truncated?)", "200, (truncated?)"})
    void truncatedCubinThrows(int length, String reason) throws IOException {
        Path cut = truncated(real("frames_sm90.cubin"), length);

        assertThatThrownBy(() -> CubinReader.arch(cut)).isInstanceOf(BinaryFormatException.class)
                .hasMessageStartingWith(cut.toString()).hasMessageContaining(reason);
    }

    @Test
    void cubinCutBeforeItsSectionHeadersThrows() throws IOException {
        Path source = real("frames_sm90.cubin");
        long sectionTable = ByteBuffer.wrap(Files.readAllBytes(source)).order(ByteOrder.LITTLE_ENDIAN).getLong(0x28);
        Path cut = truncated(source, (int) sectionTable + 10);

        assertThatThrownBy(() -> CubinReader.arch(cut)).isInstanceOf(BinaryFormatException.class)
                .hasMessageContaining("(truncated?)");
    }

    @Test
    void hostElfIsNotACubin() {
        assertThatThrownBy(() -> CubinReader.arch(real("libframes.so"))).isInstanceOf(BinaryFormatException.class)
                .hasMessageContaining("device code ELF has e_machine 62, not 190 (EM_CUDA)");
    }

    @Test
    void textIsNotACubin() throws IOException {
        Path text = Files.writeString(tmp.resolve("fake.cubin"), "this is not an ELF file at all, just some text that is"
                + " longer than an ELF header so that nothing is truncated\n");

        assertThatThrownBy(() -> CubinReader.arch(text)).isInstanceOf(BinaryFormatException.class)
                .hasMessageContaining("not an ELF file (no 0x7F 'ELF' magic)");
    }

    @Test
    void missingFileThrows() {
        assertThatThrownBy(() -> CubinReader.arch(tmp.resolve("none.cubin"))).isInstanceOf(IOException.class);
    }

    @Test
    void oldLayoutTakesTheSmFromTheLowByteAndTheAFromBit0x800() throws Exception {
        byte[] bytes = Files.readAllBytes(real("frames_sm90.cubin"));
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        header.put(8, (byte) 7);                       // ELF ABI version 7: the v1 e_flags layout
        header.putInt(0x30, 0x00480546);               // an sm_70 cubin's flags (docs/cuda-binary-format.md 4.1)
        Path sm70 = Files.write(tmp.resolve("sm70.cubin"), bytes);
        header.putInt(0x30, 0x00000D5A);               // 0x5A = 90, 0x800 = a, 0x400 64-bit, 0x100 texture mode
        Path sm90a = Files.write(tmp.resolve("sm90a.cubin"), bytes);

        assertThat(CubinReader.arch(sm70)).isEqualTo(GpuArch.parse("sm_70"));
        assertThat(CubinReader.arch(sm90a)).isEqualTo(GpuArch.parse("sm_90a"));
    }

    /** Regression: the cuobjdump engine's arch reader once read any ABI version >= 8 as v2; the native reader refused. */
    @ParameterizedTest
    @ValueSource(ints = {6, 9, 0x41})
    void abiVersionsOtherThanSevenAndEightAreRefused(int version) throws IOException {
        byte[] bytes = Files.readAllBytes(real("frames_sm90.cubin"));
        bytes[8] = (byte) version;
        Path cubin = Files.write(tmp.resolve("abi" + version + ".cubin"), bytes);

        assertThatThrownBy(() -> CubinReader.arch(cubin)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(cubin + ": at offset 0x8: cubin ELF ABI version " + version
                        + " (known: 7 = CUDA ABI v1, 8 = CUDA ABI v2)");
    }

    @Test
    void bigEndianCubinIsRefused() throws IOException {
        byte[] bytes = Files.readAllBytes(real("frames_sm90.cubin"));
        bytes[5] = 2;
        Path cubin = Files.write(tmp.resolve("be.cubin"), bytes);

        assertThatThrownBy(() -> CubinReader.arch(cubin)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(cubin + ": at offset 0x5: ELF data encoding 2 (only 1 = little-endian is read; CUDA device "
                        + "code is little-endian)");
    }

    @Test
    void elf32CubinIsRefused() throws IOException {
        byte[] elf = new ElfBuilder().elf32().machine(190).build();
        Path cubin = Files.write(tmp.resolve("elf32.cubin"), elf);

        assertThatThrownBy(() -> CubinReader.arch(cubin)).isInstanceOf(BinaryFormatException.class)
                .hasMessageContaining("32-bit cubin (only ELF64 device code is known)");
    }
}
