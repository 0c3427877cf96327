package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Windows DLLs without MSVC: small PE images written by {@link PeBuilder} around the REAL nvcc-made
 * target/test-cuda/frames.fatbin and around a slice of the real ONNX Runtime 1.23.2 Windows fatbin (5 of the 184
 * containers of onnxruntime_providers_cuda.dll's {@code .nv_fatb}), compared with the REAL cuobjdump 13.0 text of the
 * same fatbins (src/test/resources/recorded); and every corrupt PE header or section refused with one clear line.
 */
class PeFileTest {

    private static final Path WINDOWS = Path.of("src", "test", "resources", "recorded", "windows");
    private static final Path SLICE = WINDOWS.resolve("onnxruntime_providers_cuda-slice.fatbin");

    @TempDir
    Path tmp;

    private final DeviceCodeReader reader = new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);

    private static byte[] frames() throws Exception {
        return Files.readAllBytes(NativeTestFiles.testCuda("frames.fatbin"));
    }

    private static byte[] code() {
        byte[] text = new byte[0x30];
        Arrays.fill(text, (byte) 0xC3);
        return text;
    }

    private Path write(String name, byte[] image) throws Exception {
        return Files.write(tmp.resolve(name), image);
    }

    private String text(Path file) throws Exception {
        return ResourceUsageText.toText(reader.read(file));
    }

    @Test
    void aPe32PlusDllAroundARealFatbinReadsAsCuobjdumpReadsTheFatbin() throws Exception {
        // the ONNX Runtime placement: .text first, .nv_fatb later, raw data padded to 0x200, VirtualSize exact
        Path dll = write("frames.dll", new PeBuilder().section(".text", code()).section(PeFile.NV_FATBIN, frames())
                .section(".nvFatBi", new byte[24]).build());

        assertThat(text(dll)).isEqualTo(NativeTestFiles.recording("frames.fatbin"));
        DeviceCodeListing listing = reader.read(dll);
        assertThat(listing.kind()).isEqualTo(BinaryKind.PE_IMAGE);
        assertThat(listing.label()).isEqualTo("frames.dll");
        DeviceCodeProbe probe = DeviceCodeDetector.probe(dll);
        assertThat(probe.kind()).isEqualTo(BinaryKind.PE_IMAGE);
        assertThat(probe.hasDeviceCode()).isTrue();
        assertThat(probe.detail()).isEqualTo("PE32+ (windows-x86_64) with .nv_fatb");
    }

    @Test
    void otherPlacementsReadTheSame() throws Exception {
        String expected = NativeTestFiles.recording("frames.fatbin");
        byte[] fatbin = frames();
        // .nv_fatb as the first section, its VirtualSize larger than the raw data (zero-filled memory, not in the file)
        Path first = write("first.dll", new PeBuilder().section(new PeBuilder.Section(PeFile.NV_FATBIN, fatbin,
                fatbin.length + 0x1000, PeBuilder.align(fatbin.length, 0x200))).section(".text", code()).build());
        // VirtualSize 0, as in object files: the raw size counts (zero padding after the containers is skipped)
        Path object = write("object.dll", new PeBuilder().section(".text", code())
                .section(new PeBuilder.Section(PeFile.NV_FATBIN, fatbin, 0, -1)).build());
        // a MinGW-style long name "/4" in the COFF string table
        Path longName = write("long.dll", new PeBuilder().longNames().section(".text", code())
                .section(PeFile.NV_FATBIN, fatbin).build());
        // a 32-bit PE32 image
        Path pe32 = write("pe32.dll", new PeBuilder().pe32(PeFile.MACHINE_I386).section(".text", code())
                .section(PeFile.NV_FATBIN, fatbin).build());
        for (Path dll : new Path[] {first, object, longName, pe32}) {
            assertThat(text(dll)).as(dll.getFileName().toString()).isEqualTo(expected);
        }
        assertThat(DeviceCodeDetector.probe(pe32).detail()).isEqualTo("PE32 (windows-x86) with .nv_fatb");
    }

    @Test
    void theRealWindowsFatbinSliceReadsAsCuobjdump13ReadsIt() throws Exception {
        // 5 containers (1.8 MB) of the real onnxruntime_providers_cuda.dll: LZ4 cubins for sm_75..sm_90 and PTX
        // entries whose options descriptor is the empty {0, 0} (cuobjdump prints no ptxasOptions line for them)
        String recorded = Files.readString(WINDOWS.resolve(SLICE.getFileName() + ".resource-usage.txt"),
                StandardCharsets.ISO_8859_1);
        assertThat(recorded).contains("host = windows").doesNotContain("ptxasOptions");
        assertThat(recorded.lines().filter(line -> line.startsWith(" Function ")).count()).isEqualTo(213);
        assertThat(text(SLICE)).isEqualTo(recorded);

        Path dll = write("onnxruntime_providers_cuda.dll", new PeBuilder().section(".text", code())
                .section(PeFile.NV_FATBIN, Files.readAllBytes(SLICE)).build());
        assertThat(text(dll)).isEqualTo(recorded);
    }

    @Test
    void aDllWithoutNvFatbHasNoDeviceCode() throws Exception {
        Path dll = write("host.dll", new PeBuilder().section(".text", code()).section(".rdata", new byte[64]).build());

        DeviceCodeProbe probe = DeviceCodeDetector.probe(dll);
        assertThat(probe.kind()).isEqualTo(BinaryKind.PE_IMAGE);
        assertThat(probe.hasDeviceCode()).isFalse();
        assertThat(probe.detail()).isEqualTo(DeviceCodeDetector.NO_PE_DEVICE_SECTION);
        assertThatThrownBy(() -> reader.read(dll)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(dll + ": no .nv_fatb section: the PE image holds no CUDA device code");
    }

    private Path corrupt(String name, PeBuilder builder, Consumer<ByteBuffer> edit) throws Exception {
        byte[] image = builder.build();
        edit.accept(ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN));
        return write(name, image);
    }

    private PeBuilder framesDll() throws Exception {
        return new PeBuilder().section(".text", code()).section(PeFile.NV_FATBIN, frames());
    }

    /**
     * The reader's one line, and the detector's verdict in the same words: these images hold the fatbin's magic, so
     * headers that cannot be read are device code that could not be read (issue 10), never "no device code".
     */
    private void refused(Path dll, String message) throws Exception {
        assertThatThrownBy(() -> reader.read(dll)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(dll + ": " + message);
        DeviceCodeProbe probe = DeviceCodeDetector.probe(dll);
        assertThat(probe.hasDeviceCode()).isTrue();
        assertThat(probe.unreadable()).isNotNull();
        assertThat(message).endsWith(probe.detail());
    }

    @Test
    void everyCorruptHeaderIsOneClearLine() throws Exception {
        int table = framesDll().sectionTableOffset();
        Path hostOnly = write("short.dll", new byte[] {'M', 'Z', 0, 0, 0, 0});
        assertThatThrownBy(() -> reader.read(hostOnly)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(hostOnly + ": at offset 0x0: truncated DOS header (6 of 64 bytes)");
        // no fatbin magic anywhere: a damaged host file, not device code
        assertThat(DeviceCodeDetector.probe(hostOnly).hasDeviceCode()).isFalse();
        assertThat(DeviceCodeDetector.probe(hostOnly).detail()).isEqualTo("truncated DOS header (6 of 64 bytes)");
        refused(corrupt("lfanew.dll", framesDll(), b -> b.putInt(0x3C, 0x7FFFFFF0)),
                "at offset 0x3c: DOS header points to the PE header at 0x7ffffff0, which is not a 4-byte aligned offset "
                        + "inside the " + Files.size(tmp.resolve("lfanew.dll")) + "-byte image (truncated or not a PE "
                        + "image?)");
        refused(corrupt("signature.dll", framesDll(), b -> b.putInt(0x80, 0x00004C45)),
                "at offset 0x80: expected the PE signature 'PE\\0\\0' (0x00004550), found 0x4c45");
        refused(corrupt("magic.dll", framesDll(), b -> b.putShort(0x98, (short) 0x107)),
                "at offset 0x98: optional header magic 0x107 (only 0x10b = PE32 and 0x20b = PE32+ are known)");
        refused(corrupt("optional.dll", framesDll(), b -> b.putShort(0x94, (short) 0)),
                "at offset 0x94: optional header of 0 bytes is too small for its magic (an image has one)");
        refused(corrupt("small-optional.dll", framesDll(), b -> b.putShort(0x94, (short) 100)),
                "at offset 0x94: optional header of 100 bytes is smaller than the 112 bytes of a PE32+ header");
        refused(corrupt("count.dll", framesDll(), b -> b.putShort(0x86, (short) 60000)),
                "at offset 0x86: 60000 section headers of 40 bytes at 0x" + Integer.toHexString(table) + " do not fit "
                        + "the " + Files.size(tmp.resolve("count.dll")) + "-byte image (truncated?)");
    }

    @Test
    void everyCorruptSectionIsOneClearLine() throws Exception {
        PeBuilder builder = framesDll();
        int fatbinHeader = builder.sectionTableOffset() + 40;
        Path beyond = corrupt("beyond.dll", builder, b -> b.putInt(fatbinHeader + 20, 0x10000000));
        assertThatThrownBy(() -> reader.read(beyond)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(beyond + ": at offset 0x" + Integer.toHexString(fatbinHeader + 16) + ": section 1 "
                        + "'.nv_fatb' (" + frames().length + " bytes at 0x10000000) reaches beyond the end of the "
                        + Files.size(beyond) + "-byte image (truncated?)");

        PeBuilder named = new PeBuilder().longNames().section(".text", code()).section(PeFile.NV_FATBIN, frames());
        int header = named.sectionTableOffset() + 40;
        Path badName = corrupt("name.dll", named, b -> b.put(header, "/999\0\0\0\0".getBytes(StandardCharsets.US_ASCII)));
        refused(badName, "at offset 0x" + Integer.toHexString(header) + ": section name '/999' is not inside the "
                + "19-byte string table at 0x" + Long.toHexString(Files.size(badName) - 19)); // ".text\0.nv_fatb\0" + its size

        // a corrupt fatbin inside .nv_fatb: the walker's message with the absolute offset in the DLL
        long section = builder.rawOffset(1);
        Path magic = corrupt("container.dll", framesDll(), b -> b.putInt((int) section, 0x12345678));
        assertThatThrownBy(() -> reader.read(magic)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(magic + ": at offset 0x" + Long.toHexString(section) + ": expected the fatbin container "
                        + "magic 0xBA55ED50, found 0x12345678");
    }
}
