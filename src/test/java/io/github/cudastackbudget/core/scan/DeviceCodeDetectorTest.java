package io.github.cudastackbudget.core.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceCodeDetectorTest {

    /** Built by src/test/cuda/build-test-binaries.sh at generate-test-resources. */
    private static final Path TEST_CUDA = Path.of("target/test-cuda");

    private static Path real(String name) {
        Path file = TEST_CUDA.resolve(name);
        assertThat(file)
                .as("%s is built by src/test/cuda/build-test-binaries.sh (mvn generate-test-resources)", file)
                .isRegularFile();
        return file;
    }

    @TempDir
    Path tmp;

    private Path write(String name, byte[] content) throws IOException {
        return Files.write(tmp.resolve(name), content);
    }

    @Nested
    class RealNvccBinaries {

        @Test
        void sharedLibraryHasNvFatbin() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("libframes.so"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).isEqualTo("ELF64 with .nv_fatbin");
            assertThat(probe.membersWithDeviceCode()).isEmpty();
            assertThat(probe.file()).isEqualTo(real("libframes.so"));
        }

        @Test
        void objectHasNvFatbin() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("frames.o"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).isEqualTo("ELF64 with .nv_fatbin");
        }

        @Test
        void relocatableDeviceCodeObjectHasNvRelfatbin() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("frames_rdc.o"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).isEqualTo("ELF64 with __nv_relfatbin");
        }

        @Test
        void archiveListsOnlyTheMemberWithDeviceCode() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("libframes.a"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.membersWithDeviceCode()).containsExactly("frames.o");
            assertThat(probe.detail()).isEqualTo("ar archive, 1 of 2 ELF members with device code");
        }

        @Test
        void cubinIsDeviceCode() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("frames_sm90.cubin"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.CUBIN);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).contains("EM_CUDA");
        }

        @Test
        void fatbinIsDeviceCode() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("frames.fatbin"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.FATBIN);
            assertThat(probe.hasDeviceCode()).isTrue();
        }

        @Test
        void hostOnlyLibraryHasNoDeviceCode() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("libhostonly.so"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("no .nv_fatbin/__nv_relfatbin section");
        }

        @Test
        void ptxasTextIsNotABinary() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("ptxas-info.txt"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.UNKNOWN);
            assertThat(probe.hasDeviceCode()).isFalse();
        }
    }

    @Nested
    class NotRecognised {

        @Test
        void emptyFile() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("empty", new byte[0]));

            assertThat(probe.kind()).isEqualTo(BinaryKind.UNKNOWN);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("not an ELF file, fatbin or ar archive");
        }

        @Test
        void randomBytes() throws IOException {
            byte[] random = new byte[4096];
            new Random(42).nextBytes(random);
            random[0] = 0; // no magic by chance

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("random.bin", random));

            assertThat(probe.kind()).isEqualTo(BinaryKind.UNKNOWN);
            assertThat(probe.hasDeviceCode()).isFalse();
        }

        @Test
        void textFileMentioningTheSectionName() throws IOException {
            Path text = write("notes.txt", "the .nv_fatbin section holds __nv_relfatbin\n".getBytes(StandardCharsets.US_ASCII));

            DeviceCodeProbe probe = DeviceCodeDetector.probe(text);

            assertThat(probe.kind()).isEqualTo(BinaryKind.UNKNOWN);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("not an ELF file, fatbin or ar archive");
        }

        @Test
        void threeMagicBytesAreNotEnough() throws IOException {
            DeviceCodeProbe elf = DeviceCodeDetector.probe(write("elf3", new byte[] {0x7F, 'E', 'L'}));
            DeviceCodeProbe fatbin = DeviceCodeDetector.probe(write("fat3", new byte[] {0x50, (byte) 0xED, 0x55}));

            assertThat(elf.kind()).isEqualTo(BinaryKind.UNKNOWN);
            assertThat(fatbin.kind()).isEqualTo(BinaryKind.UNKNOWN);
        }

        @Test
        void missingFileIsAnIoError() {
            assertThatThrownBy(() -> DeviceCodeDetector.probe(tmp.resolve("does-not-exist.so")))
                    .isInstanceOf(NoSuchFileException.class);
        }
    }

    @Nested
    class MalformedElf {

        @ParameterizedTest
        @ValueSource(ints = {10, 40, 63})
        void truncatedHeader(int length) throws IOException {
            byte[] prefix = Arrays.copyOf(Files.readAllBytes(real("libframes.so")), length);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("truncated.so", prefix));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("truncated ELF header");
        }

        @Test
        void sectionHeaderOffsetPastEndOfFile() throws IOException {
            byte[] elf = Files.readAllBytes(real("frames.o"));
            ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(0x28, elf.length + 1000L); // e_shoff

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad-shoff.o", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("section header table beyond end of file (truncated?)");
        }

        @Test
        void hugeSectionHeaderOffsetDoesNotOverflow() throws IOException {
            byte[] elf = Files.readAllBytes(real("frames.o"));
            ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(0x28, -8L); // 0xFFFF...F8

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("huge-shoff.o", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("section header table beyond end of file (truncated?)");
        }

        @Test
        void realLibraryTruncatedToHalf() throws IOException {
            byte[] whole = Files.readAllBytes(real("libframes.so"));

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("half.so", Arrays.copyOf(whole, whole.length / 2)));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("section header table beyond end of file (truncated?)");
        }

        @Test
        void stringTablePastEndOfFile() throws IOException {
            byte[] elf = new ElfBuilder().section(".nv_fatbin").build();
            ElfBuilder.patchStringTableOffset(elf, elf.length + 5L);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad-strtab.o", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("section name string table beyond end of file (truncated?)");
        }

        @Test
        void stringTableIndexOutOfRange() throws IOException {
            byte[] elf = new ElfBuilder().section(".nv_fatbin").build();
            ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putShort(0x3E, (short) 99); // e_shstrndx

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad-shstrndx.o", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).startsWith("no section name string table");
        }

        @Test
        void noSectionHeaderTable() throws IOException {
            byte[] elf = Arrays.copyOf(Files.readAllBytes(real("libhostonly.so")), 64);
            ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(0x28, 0L);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("no-shdr.so", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("no section header table");
        }

        @Test
        void unsupportedClass() throws IOException {
            byte[] elf = new ElfBuilder().section(".nv_fatbin").build();
            elf[4] = 7;

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("class7.o", elf));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("unsupported ELF class 7");
        }
    }

    @Nested
    class SyntheticElf {

        @Test
        void extendedSectionNumbering() throws IOException {
            byte[] elf = new ElfBuilder().section(".text").section(".nv_fatbin").extendedNumbering().build();
            ByteBuffer header = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(header.getShort(0x3C)).as("e_shnum").isZero();
            assertThat(header.getShort(0x3E) & 0xFFFF).as("e_shstrndx").isEqualTo(0xFFFF);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("extended.o", elf));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).isEqualTo("ELF64 with .nv_fatbin");
        }

        @Test
        void extendedSectionNumberingWithoutDeviceCode() throws IOException {
            byte[] elf = new ElfBuilder().section(".text").section(".data").extendedNumbering().build();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("extended-host.o", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("no .nv_fatbin/__nv_relfatbin section");
        }

        @Test
        void bigEndianElf64() throws IOException {
            byte[] elf = new ElfBuilder().order(ByteOrder.BIG_ENDIAN).section(".text").section("__nv_relfatbin").build();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("big-endian.o", elf));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).isEqualTo("ELF64 with __nv_relfatbin");
        }

        @Test
        void bigEndianElf64WithExtendedNumbering() throws IOException {
            byte[] elf = new ElfBuilder().order(ByteOrder.BIG_ENDIAN).section(".nv_fatbin").extendedNumbering().build();

            assertThat(DeviceCodeDetector.probe(write("big-extended.o", elf)).hasDeviceCode()).isTrue();
        }

        @Test
        void elf32HostObject() throws IOException {
            byte[] elf = new ElfBuilder().elf32().section(".nv_fatbin").build();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("elf32.o", elf));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).isEqualTo("ELF32 with .nv_fatbin");
        }

        @Test
        void elf32Cubin() throws IOException {
            byte[] elf = new ElfBuilder().elf32().machine(190).build();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("elf32.cubin", elf));

            assertThat(probe.kind()).isEqualTo(BinaryKind.CUBIN);
            assertThat(probe.hasDeviceCode()).isTrue();
        }

        @Test
        void bigEndianCubin() throws IOException {
            byte[] elf = new ElfBuilder().order(ByteOrder.BIG_ENDIAN).machine(190).build();

            assertThat(DeviceCodeDetector.probe(write("be.cubin", elf)).kind()).isEqualTo(BinaryKind.CUBIN);
        }

        @Test
        void sectionNamesMustMatchExactly() throws IOException {
            byte[] elf = new ElfBuilder()
                    .section(".nv_fatbin_extra")
                    .section("x.nv_fatbin")
                    .section("__nv_relfatbin2")
                    .section(".nv_fatbi")
                    .build();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("near-miss.o", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
        }

        @Test
        void sectionNameMayPointIntoTheMiddleOfAString() throws IOException {
            // sh_name may point at the suffix of a longer name (string table tail merging)
            byte[] elf = new ElfBuilder().section("x.nv_fatbin").sectionNamedAtSuffixOfPrevious(1).build();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("tail-merged.o", elf));

            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.detail()).isEqualTo("ELF64 with .nv_fatbin");
        }

        @Test
        void sectionNameOnlyInFileDataIsNotASection() throws IOException {
            byte[] elf = new ElfBuilder().section(".rodata").payload(".nv_fatbin\0__nv_relfatbin\0").build();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("name-in-data.o", elf));

            assertThat(probe.hasDeviceCode()).isFalse();
        }
    }

    @Nested
    class Archives {

        @Test
        void gnuLongMemberNames() throws IOException {
            byte[] fatbinObject = new ElfBuilder().section(".nv_fatbin").build();
            byte[] rdcObject = new ElfBuilder().section("__nv_relfatbin").build();
            byte[] hostObject = new ElfBuilder().section(".text").build();
            byte[] archive = new ArBuilder()
                    .gnuSymbolTable()
                    .gnuMember("a_rather_long_object_name_with_kernels.o", fatbinObject)
                    .gnuMember("short.o", hostObject)
                    .gnuMember("odd.txt", "odd\n\n".getBytes(StandardCharsets.US_ASCII)) // 5 bytes: padding
                    .gnuMember("another_very_long_name_for_rdc_code.o", rdcObject)
                    .gnuMember("kernels.o", fatbinObject)
                    .buildGnu();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("liblong.a", archive));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.membersWithDeviceCode()).containsExactly(
                    "a_rather_long_object_name_with_kernels.o", "another_very_long_name_for_rdc_code.o", "kernels.o");
            assertThat(probe.detail()).isEqualTo("ar archive, 3 of 4 ELF members with device code");
        }

        @Test
        void bsdMemberNames() throws IOException {
            byte[] fatbinObject = new ElfBuilder().section(".nv_fatbin").build();
            byte[] hostObject = new ElfBuilder().section(".text").build();
            byte[] archive = new ArBuilder()
                    .bsdMember("__.SYMDEF SORTED", new byte[8])
                    .bsdMember("host_only.o", hostObject)
                    .bsdMember("device_code_with_a_long_name.o", fatbinObject)
                    .buildRaw();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("libbsd.a", archive));

            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.membersWithDeviceCode()).containsExactly("device_code_with_a_long_name.o");
        }

        @Test
        void archiveWithoutDeviceCode() throws IOException {
            byte[] archive = new ArBuilder()
                    .gnuMember("host.o", new ElfBuilder().section(".text").build())
                    .gnuMember("libhostonly.so", Files.readAllBytes(real("libhostonly.so")))
                    .buildGnu();

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("libhost.a", archive));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.membersWithDeviceCode()).isEmpty();
            assertThat(probe.detail()).isEqualTo("ar archive, no member with device code (2 ELF members)");
        }

        @Test
        void truncatedArchiveKeepsWhatItFound() throws IOException {
            byte[] whole = Files.readAllBytes(real("libframes.a"));
            byte[] cut = Arrays.copyOf(whole, whole.length - 100); // cuts into the last member

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("cut.a", cut));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.membersWithDeviceCode()).containsExactly("frames.o");
            assertThat(probe.detail()).contains("extends beyond end of file (truncated?)");
        }

        @Test
        void memberTruncatedInsideItsSectionHeaders() throws IOException {
            byte[] whole = Files.readAllBytes(real("frames.o"));
            byte[] archive = new ArBuilder().gnuMember("frames.o", whole).buildGnu();
            byte[] cut = Arrays.copyOf(archive, archive.length - 200); // section headers sit at the end

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("cut-member.a", cut));

            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).contains("truncated");
        }

        @Test
        void malformedMemberHeader() throws IOException {
            byte[] archive = "!<arch>\nthis is not a member header at all, just some text here.....\n"
                    .getBytes(StandardCharsets.US_ASCII);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad.a", archive));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).contains("malformed member header at offset 8");
        }
    }

    @Test
    void probeCopiesTheMemberList() {
        List<String> members = new ArrayList<>(List.of("a.o"));
        DeviceCodeProbe probe = new DeviceCodeProbe(Path.of("x.a"), BinaryKind.AR_ARCHIVE, true, "d", members);
        members.add("b.o");

        assertThat(probe.membersWithDeviceCode()).containsExactly("a.o");
        assertThatThrownBy(() -> probe.membersWithDeviceCode().add("c.o"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    /**
     * Writes minimal ELF files: header, optional payload, section-name string table and section
     * headers (null section, the named sections, then {@code .shstrtab}).
     */
    static final class ElfBuilder {
        private ByteOrder order = ByteOrder.LITTLE_ENDIAN;
        private boolean elf64 = true;
        private int machine = 62; // EM_X86_64
        private boolean extended;
        private byte[] payload = new byte[0];
        private final List<String> names = new ArrayList<>();
        /** For each section: -1 for its own name, else "suffix of the previous name, skipping n chars". */
        private final List<Integer> suffixOf = new ArrayList<>();

        ElfBuilder order(ByteOrder value) {
            order = value;
            return this;
        }

        ElfBuilder elf32() {
            elf64 = false;
            return this;
        }

        ElfBuilder machine(int value) {
            machine = value;
            return this;
        }

        ElfBuilder extendedNumbering() {
            extended = true;
            return this;
        }

        ElfBuilder payload(String text) {
            payload = text.getBytes(StandardCharsets.US_ASCII);
            return this;
        }

        ElfBuilder section(String name) {
            names.add(name);
            suffixOf.add(-1);
            return this;
        }

        ElfBuilder sectionNamedAtSuffixOfPrevious(int skip) {
            names.add(null);
            suffixOf.add(skip);
            return this;
        }

        byte[] build() {
            int headerSize = elf64 ? 64 : 52;
            int shentsize = elf64 ? 64 : 40;

            ByteArrayOutputStream strtab = new ByteArrayOutputStream();
            strtab.write(0);
            int[] nameOffsets = new int[names.size() + 1];
            int previous = 0;
            for (int i = 0; i < names.size(); i++) {
                if (suffixOf.get(i) >= 0) {
                    nameOffsets[i] = previous + suffixOf.get(i);
                } else {
                    nameOffsets[i] = strtab.size();
                    strtab.writeBytes((names.get(i) + "\0").getBytes(StandardCharsets.US_ASCII));
                }
                previous = nameOffsets[i];
            }
            nameOffsets[names.size()] = strtab.size();
            strtab.writeBytes(".shstrtab\0".getBytes(StandardCharsets.US_ASCII));

            int payloadOffset = headerSize;
            int strtabOffset = payloadOffset + payload.length;
            int shoff = align8(strtabOffset + strtab.size());
            int sectionCount = names.isEmpty() && machine == 190 ? 0 : names.size() + 2;
            int shstrndx = sectionCount == 0 ? 0 : names.size() + 1;

            ByteBuffer out = ByteBuffer.allocate(shoff + sectionCount * shentsize).order(order);
            out.put(new byte[] {0x7F, 'E', 'L', 'F', (byte) (elf64 ? 2 : 1),
                (byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 2), 1});
            out.putShort(16, (short) 1); // e_type ET_REL
            out.putShort(18, (short) machine);
            out.putInt(20, 1); // e_version
            if (elf64) {
                out.putLong(0x28, sectionCount == 0 ? 0 : shoff);
                out.putShort(0x34, (short) headerSize);
            } else {
                out.putInt(0x20, sectionCount == 0 ? 0 : shoff);
                out.putShort(0x28, (short) headerSize);
            }
            int fieldBase = elf64 ? 0x3A : 0x2E;
            out.putShort(fieldBase, (short) shentsize);
            out.putShort(fieldBase + 2, (short) (extended ? 0 : sectionCount));
            out.putShort(fieldBase + 4, (short) (extended ? 0xFFFF : shstrndx));
            out.put(payloadOffset, payload);
            out.put(strtabOffset, strtab.toByteArray());

            for (int i = 0; i < sectionCount; i++) {
                int at = shoff + i * shentsize;
                if (i == 0) {
                    if (extended) {
                        putWord(out, at + (elf64 ? 0x20 : 0x14), sectionCount); // sh_size
                        out.putInt(at + (elf64 ? 0x28 : 0x18), shstrndx); // sh_link
                    }
                    continue;
                }
                boolean isStrtab = i == shstrndx;
                out.putInt(at, nameOffsets[i - 1]); // sh_name
                out.putInt(at + 4, isStrtab ? 3 : 1); // sh_type STRTAB / PROGBITS
                putWord(out, at + (elf64 ? 0x18 : 0x10), isStrtab ? strtabOffset : payloadOffset); // sh_offset
                putWord(out, at + (elf64 ? 0x20 : 0x14), isStrtab ? strtab.size() : payload.length); // sh_size
            }
            return out.array();
        }

        private void putWord(ByteBuffer out, int at, long value) {
            if (elf64) {
                out.putLong(at, value);
            } else {
                out.putInt(at, (int) value);
            }
        }

        /** Points the {@code .shstrtab} section's sh_offset (little-endian ELF64, last section) elsewhere. */
        static void patchStringTableOffset(byte[] elf, long offset) {
            ByteBuffer buffer = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
            long shoff = buffer.getLong(0x28);
            int shstrndx = buffer.getShort(0x3E);
            buffer.putLong((int) shoff + shstrndx * 64 + 0x18, offset);
        }

        private static int align8(int value) {
            return (value + 7) & ~7;
        }
    }

    /** Writes {@code ar} archives in GNU ({@code //} long names) or BSD ({@code #1/NN}) style. */
    static final class ArBuilder {
        private final List<String> names = new ArrayList<>();
        private final List<byte[]> contents = new ArrayList<>();
        private final ByteArrayOutputStream raw = new ByteArrayOutputStream();
        private boolean symbolTable;

        ArBuilder gnuSymbolTable() {
            symbolTable = true;
            return this;
        }

        ArBuilder gnuMember(String name, byte[] content) {
            names.add(name);
            contents.add(content);
            return this;
        }

        ArBuilder bsdMember(String name, byte[] content) {
            byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
            byte[] padded = Arrays.copyOf(nameBytes, (nameBytes.length + 3) & ~3); // NUL padded, like macOS ar
            header(raw, "#1/" + padded.length, padded.length + content.length);
            raw.writeBytes(padded);
            raw.writeBytes(content);
            pad(raw, padded.length + content.length);
            return this;
        }

        byte[] buildRaw() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(raw.toByteArray());
            return out.toByteArray();
        }

        byte[] buildGnu() {
            ByteArrayOutputStream longNames = new ByteArrayOutputStream();
            List<String> headerNames = new ArrayList<>();
            for (String name : names) {
                if (name.length() > 15) {
                    headerNames.add("/" + longNames.size());
                    longNames.writeBytes((name + "/\n").getBytes(StandardCharsets.US_ASCII));
                } else {
                    headerNames.add(name + "/");
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
            if (symbolTable) {
                member(out, "/", new byte[] {0, 0, 0, 0}); // big-endian count 0
            }
            if (longNames.size() > 0) {
                member(out, "//", longNames.toByteArray());
            }
            for (int i = 0; i < names.size(); i++) {
                member(out, headerNames.get(i), contents.get(i));
            }
            return out.toByteArray();
        }

        private static void member(ByteArrayOutputStream out, String headerName, byte[] content) {
            header(out, headerName, content.length);
            out.writeBytes(content);
            pad(out, content.length);
        }

        private static void header(ByteArrayOutputStream out, String name, long size) {
            String header = String.format("%-16s%-12s%-6s%-6s%-8s%-10s`\n", name, "0", "0", "0", "644", size);
            assertThat(header).hasSize(60);
            out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
        }

        private static void pad(ByteArrayOutputStream out, long length) {
            if ((length & 1) != 0) {
                out.write('\n');
            }
        }
    }
}
