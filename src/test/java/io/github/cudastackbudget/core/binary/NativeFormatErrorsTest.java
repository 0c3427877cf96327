package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way the native reader refuses a layout it does not know, each shown on a REAL nvcc-built file with one field
 * changed: one error naming the file, the absolute offset and what was unexpected; never a skipped entry or a 0.
 */
class NativeFormatErrorsTest {

    @TempDir
    Path tmp;

    private final DeviceCodeReader reader = new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);

    /** Where things lie in a real file, found by walking it (the walk itself is checked by the golden tests). */
    private record Layout(long fatbinSection, List<FatbinEntry> entries) {
        FatbinEntry firstCubin() {
            return entries.stream().filter(entry -> !entry.isPtx()).findFirst().orElseThrow();
        }

        FatbinEntry firstPtx() {
            return entries.stream().filter(FatbinEntry::isPtx).findFirst().orElseThrow();
        }

        /** The first cubin entry that has functions (the leading ones of nvcc 13 libraries are empty). */
        FatbinEntry cubinWithFunctions(Path file) throws Exception {
            DeviceCodeListing listing = new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES).read(file);
            return listing.blocks().get(0).images().stream()
                    .filter(image -> !image.isPtx() && !image.resources().functions().isEmpty())
                    .map(DeviceImage::entry).findFirst().orElseThrow();
        }
    }

    private static Layout layout(Path file) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteRegion region = ByteRegion.map(file.toString(), channel);
            ElfFile elf = ElfFile.read(region);
            ElfFile.Section section = elf.sections().stream().filter(s -> s.name().equals(".nv_fatbin")).findFirst()
                    .orElseThrow();
            List<FatbinEntry> entries = new ArrayList<>();
            for (FatbinWalker.Entry entry : FatbinWalker.entries(region.sub(section.offset(), section.size(),
                    file.toString()))) {
                entries.add(entry.header());
            }
            return new Layout(section.offset(), entries);
        }
    }

    private Path corrupt(String name, Consumer<ByteBuffer> edit) throws Exception {
        return NativeTestFiles.corrupted(tmp, name, bytes -> edit.accept(ByteBuffer.wrap(bytes)
                .order(ByteOrder.LITTLE_ENDIAN)));
    }

    private void assertFails(Path file, long offset, String... fragments) {
        assertThatThrownBy(() -> reader.read(file))
                .isInstanceOf(BinaryFormatException.class)
                .satisfies(error -> {
                    BinaryFormatException format = (BinaryFormatException) error;
                    assertThat(format.getMessage()).startsWith(file.toString()).contains(fragments);
                    assertThat(format.getMessage()).doesNotContain("\n");
                    if (offset >= 0) {
                        assertThat(format.offset()).isEqualTo(offset);
                        assertThat(format.getMessage()).contains("at offset 0x" + Long.toHexString(offset) + ":");
                    }
                });
    }

    @Test
    void containerVersionOtherThanOne() throws Exception {
        Layout layout = layout(NativeTestFiles.testCuda("libframes.so"));
        Path file = corrupt("libframes.so", bytes -> bytes.putShort((int) layout.fatbinSection() + 4, (short) 2));
        assertFails(file, layout.fatbinSection() + 4, "fatbin container version 2 (only version 1 is known)");
    }

    @Test
    void containerHeaderSizeOtherThan0x10() throws Exception {
        Layout layout = layout(NativeTestFiles.testCuda("libframes.so"));
        Path file = corrupt("libframes.so", bytes -> bytes.putShort((int) layout.fatbinSection() + 6, (short) 0x18));
        assertFails(file, layout.fatbinSection() + 6, "fatbin container header size 0x18 (only 0x10 is known)");
    }

    @Test
    void garbageWhereAContainerShouldStart() throws Exception {
        Layout layout = layout(NativeTestFiles.testCuda("libframes.so"));
        Path file = corrupt("libframes.so", bytes -> bytes.putInt((int) layout.fatbinSection(), 0x12345678));
        assertFails(file, layout.fatbinSection(), "expected the fatbin container magic 0xBA55ED50, found 0x12345678");
    }

    @Test
    void containerLongerThanItsSection() throws Exception {
        Layout layout = layout(NativeTestFiles.testCuda("libframes.so"));
        Path file = corrupt("libframes.so", bytes -> bytes.putLong((int) layout.fatbinSection() + 8, 1L << 40));
        assertFails(file, layout.fatbinSection() + 8, "fatbin container declares 1099511627776 bytes of entries");
    }

    @Test
    void entryKindOtherThanPtxOrElf() throws Exception {
        FatbinEntry entry = layout(NativeTestFiles.testCuda("libframes.so")).firstCubin();
        Path file = corrupt("libframes.so", bytes -> bytes.putShort((int) entry.fileOffset(), (short) 4));
        assertFails(file, entry.fileOffset(), "fatbin entry kind 4 (only 1 = PTX and 2 = ELF cubin are known)");
    }

    @Test
    void entryHeaderSizeWithUnexplainedBytes() throws Exception {
        FatbinEntry entry = layout(NativeTestFiles.testCuda("libframes.so")).firstCubin();
        assertThat(entry.headerSize()).isEqualTo(0x40);
        Path file = corrupt("libframes.so", bytes -> bytes.putInt((int) entry.fileOffset() + 4, 0x50));
        assertFails(file, entry.fileOffset() + 4, "fatbin entry header size 0x50: bytes 0x40 to 0x50 are not "
                + "described by the descriptor or the identifier", "an unknown header layout");
    }

    @Test
    void entryHeaderSizeNotAMultipleOfEight() throws Exception {
        FatbinEntry entry = layout(NativeTestFiles.testCuda("libframes.so")).firstCubin();
        Path file = corrupt("libframes.so", bytes -> bytes.putInt((int) entry.fileOffset() + 4, 0x44));
        assertFails(file, entry.fileOffset() + 4, "fatbin entry header size 0x44 is not a multiple of 8");
    }

    @Test
    void ptxOptionsDescriptorOutsideTheHeader() throws Exception {
        FatbinEntry ptx = layout(NativeTestFiles.testCuda("libframes.so")).firstPtx();
        assertThat(ptx.headerSize()).isEqualTo(0x50);
        // the descriptor at 0x40 names {0x48, 4}: make it claim 64 bytes
        Path file = corrupt("libframes.so", bytes -> bytes.putInt((int) ptx.fileOffset() + 0x44, 64));
        assertFails(file, ptx.fileOffset() + 0x40, "fatbin entry descriptor names 64 bytes at 0x48");
    }

    @Test
    void unknownFlagBit() throws Exception {
        FatbinEntry entry = layout(NativeTestFiles.testCuda("libframes.so")).firstCubin();
        Path file = corrupt("libframes.so", bytes -> bytes.putLong((int) entry.fileOffset() + 0x28,
                entry.flags() | 0x4));
        assertFails(file, entry.fileOffset() + 0x28, "carry unknown bits 0x4 that may change the layout");
    }

    @Test
    void bothCompressionFlags() throws Exception {
        FatbinEntry entry = layout(NativeTestFiles.testCuda("libframes_zstd.so")).firstCubin();
        Path file = corrupt("libframes_zstd.so", bytes -> bytes.putLong((int) entry.fileOffset() + 0x28,
                entry.flags() | FatbinEntry.FLAG_LZ4));
        assertFails(file, entry.fileOffset() + 0x28, "name both LZ4 (0x2000) and Zstandard (0x8000) compression");
    }

    @Test
    void bothVariantFlags() throws Exception {
        FatbinEntry entry = layout(NativeTestFiles.testCuda("libframes.so")).firstCubin();
        Path file = corrupt("libframes.so", bytes -> bytes.putLong((int) entry.fileOffset() + 0x28,
                entry.flags() | FatbinEntry.FLAG_ARCH_SPECIFIC | FatbinEntry.FLAG_FAMILY));
        assertFails(file, entry.fileOffset() + 0x28, "both arch-specific (a) and family-specific (f)");
    }

    @Test
    void payloadLongerThanItsContainer() throws Exception {
        FatbinEntry entry = layout(NativeTestFiles.testCuda("libframes.so")).firstCubin();
        Path file = corrupt("libframes.so", bytes -> bytes.putLong((int) entry.fileOffset() + 8, 1L << 32));
        assertFails(file, entry.fileOffset() + 8, "fatbin entry payload of 4294967296 bytes does not fit");
    }

    @Test
    void corruptZstandardPayload() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        FatbinEntry entry = layout(real).cubinWithFunctions(real);
        assertThat(entry.compression()).isEqualTo(FatbinEntry.Compression.ZSTD);
        long payload = entry.fileOffset() + entry.headerSize();
        Path file = corrupt("libframes_zstd.so", bytes -> {
            for (int i = 8; i < 64; i++) {
                bytes.put((int) payload + i, (byte) 0xFF);
            }
        });
        assertFails(file, payload, "Zstandard decompression of the " + entry.compressedSize()
                + "-byte payload failed");
    }

    @Test
    void corruptLz4Payload() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_lz4.so");
        FatbinEntry entry = layout(real).cubinWithFunctions(real);
        assertThat(entry.compression()).isEqualTo(FatbinEntry.Compression.LZ4);
        long payload = entry.fileOffset() + entry.headerSize();
        // the first token promises 10 literals and a long match; pointing the match far back is invalid
        Path file = corrupt("libframes_lz4.so", bytes -> bytes.put((int) payload, (byte) 0xFF)
                .put((int) payload + 1, (byte) 0xFF));
        assertThatThrownBy(() -> reader.read(file)).isInstanceOf(BinaryFormatException.class)
                .hasMessageStartingWith(file.toString())
                .hasMessageContaining("at offset 0x" + Long.toHexString(payload) + ": LZ4 decompression");
    }

    @Test
    void compressedLengthNotExact() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_lz4.so");
        FatbinEntry entry = layout(real).cubinWithFunctions(real);
        long payload = entry.fileOffset() + entry.headerSize();
        // one byte short: the decoder must be fed the exact compressed length, and then fails
        Path file = corrupt("libframes_lz4.so", bytes -> bytes.putInt((int) entry.fileOffset() + 0x10,
                (int) entry.compressedSize() - 1));
        assertThatThrownBy(() -> reader.read(file)).isInstanceOf(BinaryFormatException.class)
                .hasMessageContaining("at offset 0x" + Long.toHexString(payload) + ": LZ4 decompression");
    }

    @Test
    void uncompressedSizeThatDoesNotMatch() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        FatbinEntry entry = layout(real).cubinWithFunctions(real);
        long declared = entry.uncompressedSize() + 8;
        Path file = corrupt("libframes_zstd.so", bytes -> bytes.putLong((int) entry.fileOffset() + 0x38, declared));
        assertFails(file, entry.fileOffset() + entry.headerSize(), "Zstandard decompression produced "
                + entry.uncompressedSize() + " bytes, the entry header declares " + declared);
    }

    @Test
    void entryLargerThanTheCap() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_zstd.so");
        FatbinEntry entry = layout(real).entries().get(0);
        DeviceCodeReader small = new DeviceCodeReader(1, 1000);
        assertThatThrownBy(() -> small.read(real)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(real + ": at offset 0x" + Long.toHexString(entry.fileOffset() + 0x38)
                        + ": fatbin entry declares " + entry.uncompressedSize()
                        + " uncompressed bytes, more than the 1000-byte limit per entry");
    }

    @Test
    void cubinAbiVersionNotSeen() throws Exception {
        Path file = corrupt("frames_sm90.cubin", bytes -> bytes.put(8, (byte) 9));
        assertFails(file, 8, "cubin ELF ABI version 9 (known: 7 = CUDA ABI v1, 8 = CUDA ABI v2)");
    }

    @Test
    void embeddedCubinAbiVersionNotSeen() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_nocomp.so");
        FatbinEntry entry = layout(real).cubinWithFunctions(real);
        long cubin = entry.fileOffset() + entry.headerSize();
        Path file = corrupt("libframes_nocomp.so", bytes -> bytes.put((int) cubin + 8, (byte) 6));
        assertThatThrownBy(() -> reader.read(file)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(file + " (" + entry.archLabel() + " cubin of the fatbin entry at 0x"
                        + Long.toHexString(entry.fileOffset()) + "): at offset 0x" + Long.toHexString(cubin + 8)
                        + ": cubin ELF ABI version 6 (known: 7 = CUDA ABI v1, 8 = CUDA ABI v2)");
    }

    @Test
    void embeddedCubinForAnotherMachine() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_nocomp.so");
        FatbinEntry entry = layout(real).cubinWithFunctions(real);
        long cubin = entry.fileOffset() + entry.headerSize();
        Path file = corrupt("libframes_nocomp.so", bytes -> bytes.putShort((int) cubin + 0x12, (short) 62));
        assertThatThrownBy(() -> reader.read(file)).isInstanceOf(BinaryFormatException.class)
                .hasMessageContaining("at offset 0x" + Long.toHexString(cubin + 0x12)
                        + ": device code ELF has e_machine 62, not 190 (EM_CUDA)");
    }

    @Test
    void embeddedPayloadThatIsNotAnElf() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes_nocomp.so");
        FatbinEntry entry = layout(real).cubinWithFunctions(real);
        long cubin = entry.fileOffset() + entry.headerSize();
        Path file = corrupt("libframes_nocomp.so", bytes -> bytes.putInt((int) cubin, 0));
        assertFails(file, cubin, "the cubin of this fatbin entry (kind 2) does not start with the ELF magic");
    }

    @Test
    void unknownInfoRecordFormat() throws Exception {
        Path real = NativeTestFiles.testCuda("frames_sm90.cubin");
        long info;
        try (FileChannel channel = FileChannel.open(real, StandardOpenOption.READ)) {
            ElfFile elf = ElfFile.read(ByteRegion.map(real.toString(), channel));
            info = elf.sections().stream().filter(s -> s.name().equals(".nv.info")).findFirst().orElseThrow()
                    .offset();
        }
        Path file = corrupt("frames_sm90.cubin", bytes -> bytes.put((int) info, (byte) 7));
        assertFails(file, info, ".nv.info record format 7 (known: 1 NVAL, 2 BVAL, 3 HVAL, 4 SVAL)");
    }

    @Test
    void infoRecordLongerThanItsSection() throws Exception {
        Path real = NativeTestFiles.testCuda("frames_sm90.cubin");
        long info;
        try (FileChannel channel = FileChannel.open(real, StandardOpenOption.READ)) {
            ElfFile elf = ElfFile.read(ByteRegion.map(real.toString(), channel));
            info = elf.sections().stream().filter(s -> s.name().equals(".nv.info")).findFirst().orElseThrow()
                    .offset();
        }
        Path file = corrupt("frames_sm90.cubin", bytes -> bytes.put((int) info, (byte) 4)
                .putShort((int) info + 2, (short) 0x7FFF));
        assertFails(file, info, "declares 32767 bytes but only");
    }

    @Test
    void bigEndianElf() throws Exception {
        Path file = corrupt("libframes.so", bytes -> bytes.put(5, (byte) 2));
        assertFails(file, 5, "ELF data encoding 2 (only 1 = little-endian is read");
    }

    @Test
    void truncatedLibrary() throws Exception {
        Path real = NativeTestFiles.testCuda("libframes.so");
        Layout layout = layout(real);
        byte[] bytes = Files.readAllBytes(real);
        Path file = Files.write(tmp.resolve("libframes.so"), Arrays.copyOf(bytes, (int) layout.fatbinSection() + 100));
        assertThatThrownBy(() -> reader.read(file)).isInstanceOf(BinaryFormatException.class)
                .hasMessageStartingWith(file.toString()).hasMessageContaining("truncated");
    }

    @Test
    void hostLibraryWithoutDeviceCode() {
        Path file = NativeTestFiles.testCuda("libhostonly.so");
        assertThatThrownBy(() -> reader.read(file)).isInstanceOf(BinaryFormatException.class)
                .hasMessage(file + ": no .nv_fatbin or __nv_relfatbin section: the file holds no CUDA device code");
    }

    @Test
    void thinArchive() throws Exception {
        Path file = Files.write(tmp.resolve("libthin.a"), "!<thin>\n".getBytes(StandardCharsets.US_ASCII));
        assertFails(file, 0, "a thin ar archive (!<thin>) holds only the names of its members");
    }

    @Test
    void archiveMemberSizeBeyondTheEnd() throws Exception {
        // the first member header starts at 8; its size field at 8 + 48
        Path file = corrupt("libframes.a", bytes -> bytes.put(8 + 48, (byte) '9').put(8 + 49, (byte) '9')
                .put(8 + 50, (byte) '9').put(8 + 51, (byte) '9').put(8 + 52, (byte) '9').put(8 + 53, (byte) '9')
                .put(8 + 54, (byte) '9').put(8 + 55, (byte) '9'));
        assertFails(file, 8 + 48, "archive member size '99999999");
    }

    @Test
    void neitherElfNorFatbinNorArchive() throws Exception {
        Path file = Files.write(tmp.resolve("notes.so"), "just text\n".getBytes(StandardCharsets.US_ASCII));
        assertFails(file, 0, "not an ELF file, PE image, fatbin or ar archive");
    }
}
