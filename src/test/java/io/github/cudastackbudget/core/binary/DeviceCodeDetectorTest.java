package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

/**
 * The one device-code detector on real nvcc-built files and on synthetic layouts. Where a file cannot be read, the
 * detail is the reason the readers ({@link ElfFile}, {@link ArArchive}) give, so the check and DumpResourceUsage say
 * the same thing.
 */
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
            assertThat(probe.onlyRelocatableDeviceCode()).isFalse();
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
            assertThat(probe.onlyRelocatableDeviceCode()).isTrue();
        }

        @Test
        void libraryLinkedFromRelocatableObjectsHasBothSections() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("libframes_rdc.so"));

            assertThat(probe.detail()).isEqualTo("ELF64 with .nv_fatbin, __nv_relfatbin");
            assertThat(probe.onlyRelocatableDeviceCode()).isFalse();
        }

        @Test
        void archiveListsOnlyTheMemberWithDeviceCode() throws IOException {
            DeviceCodeProbe probe = DeviceCodeDetector.probe(real("libframes.a"));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.hasDeviceCode()).isTrue();
            assertThat(probe.membersWithDeviceCode()).containsExactly("frames.o");
            assertThat(probe.detail()).isEqualTo("ar archive, 1 of 2 ELF members with device code");
            assertThat(probe.onlyRelocatableDeviceCode()).isFalse();
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
            assertThat(probe.detail()).isEqualTo("not an ELF file, PE image, fatbin or ar archive");
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
            assertThat(probe.detail()).isEqualTo("not an ELF file, PE image, fatbin or ar archive");
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
            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).isEqualTo(length < 16 ? "truncated ELF header"
                    : "truncated ELF header (" + length + " of 64 bytes)");
        }

        @Test
        void sectionHeaderOffsetPastEndOfFile() throws IOException {
            byte[] elf = Files.readAllBytes(real("frames.o"));
            ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(0x28, elf.length + 1000L); // e_shoff

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad-shoff.o", elf));

            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).isEqualTo("section header table offset 0x" + Long.toHexString(elf.length + 1000L)
                    + " lies beyond the end of the " + elf.length + "-byte image (truncated?)");
        }

        @Test
        void hugeSectionHeaderOffsetDoesNotOverflow() throws IOException {
            byte[] elf = Files.readAllBytes(real("frames.o"));
            ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(0x28, -8L); // 0xFFFF...F8

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("huge-shoff.o", elf));

            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).isEqualTo("section header table offset 0xfffffffffffffff8 lies beyond the end of "
                    + "the " + elf.length + "-byte image (truncated?)");
        }

        @Test
        void realLibraryTruncatedToHalf() throws IOException {
            byte[] whole = Files.readAllBytes(real("libframes.so"));

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("half.so", Arrays.copyOf(whole, whole.length / 2)));

            assertThat(probe.kind()).isEqualTo(BinaryKind.HOST_ELF);
            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).startsWith("section header table offset 0x").endsWith("(truncated?)");
        }

        @Test
        void stringTablePastEndOfFile() throws IOException {
            byte[] elf = new ElfBuilder().section(".nv_fatbin").build();
            ElfBuilder.patchStringTableOffset(elf, elf.length + 5L);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad-strtab.o", elf));

            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).startsWith("section name string table (section 2, ")
                    .endsWith("reaches beyond the end of the " + elf.length + "-byte image (truncated?)");
        }

        @Test
        void stringTableIndexOutOfRange() throws IOException {
            byte[] elf = new ElfBuilder().section(".nv_fatbin").build();
            ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putShort(0x3E, (short) 99); // e_shstrndx

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad-shstrndx.o", elf));

            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).isEqualTo("section name string table index 99 is not one of the 3 sections");
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
            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).isEqualTo("unknown ELF class 7 (1 = ELF32 and 2 = ELF64 are known)");
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
            assertThat(probe.onlyRelocatableDeviceCode()).isTrue();
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
        void truncatedArchiveIsUnreadableDeviceCode() throws IOException {
            byte[] whole = Files.readAllBytes(real("libframes.a"));
            byte[] cut = Arrays.copyOf(whole, whole.length - 100); // cuts into the last member

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("cut.a", cut));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.isUnreadable()).isTrue();
            assertThat(probe.hasDeviceCode()).as("read (and refused) by the reader, never skipped").isTrue();
            assertThat(probe.detail()).isEqualTo("archive member size '1128' is not a size that fits the " + cut.length
                    + "-byte archive (truncated?)");
        }

        @Test
        void memberTruncatedInsideItsSectionHeaders() throws IOException {
            byte[] whole = Files.readAllBytes(real("frames.o"));
            byte[] archive = new ArBuilder().gnuMember("frames.o", whole).buildGnu();
            byte[] cut = Arrays.copyOf(archive, archive.length - 200); // section headers sit at the end

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("cut-member.a", cut));

            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).contains("truncated");
        }

        @Test
        void malformedMemberHeader() throws IOException {
            byte[] archive = "!<arch>\nthis is not a member header at all, just some text here.....\n"
                    .getBytes(StandardCharsets.US_ASCII);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(write("bad.a", archive));

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.isUnreadable()).as("issue 10: device code that cannot be read, never 'no device code'").isTrue();
            assertThat(probe.detail()).isEqualTo("archive member header does not end with the `\\n terminator");
            assertThat(probe.unreadable().message()).isEqualTo(probe.file() + ": at offset 0x42: archive member header "
                    + "does not end with the `\\n terminator");
        }
    }

    /** The detector and the native reader decide alike: the same rule, the same words for what they refuse. */
    @Nested
    class SameRuleAsTheReader {

        private final DeviceCodeReader reader = new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);

        @Test
        void thinArchiveGivesTheThinArchiveReason() throws IOException {
            // regression: the detector said "not an ELF file, fatbin or ar archive", the reader the thin reason
            Path thin = write("thin.a", "!<thin>\n".getBytes(StandardCharsets.US_ASCII));

            DeviceCodeProbe probe = DeviceCodeDetector.probe(thin);

            assertThat(probe.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
            assertThat(probe.hasDeviceCode()).isFalse();
            assertThat(probe.detail()).isEqualTo("a thin ar archive (!<thin>) holds only the names of its members; "
                    + "give the member files themselves");
            assertThatThrownBy(() -> reader.read(thin)).isInstanceOf(BinaryFormatException.class)
                    .hasMessage(thin + ": at offset 0x0: " + probe.detail());
        }

        @Test
        void thinArchiveWithMembersGivesTheSameReason() throws Exception {
            // what GNU ar rcT writes: member headers, no bodies
            byte[] thin = "!<thin>\nframes.o/       0           0     0     644     38096     `\n"
                    .getBytes(StandardCharsets.US_ASCII);

            assertThat(DeviceCodeDetector.probe(write("libthin.a", thin)).detail()).isEqualTo(ArArchive.THIN);
        }

        @Test
        void bigEndianElfIsDeviceCodeThatTheReaderRefusesClearly() throws IOException {
            // no CUDA host is big-endian: the section names say device code, the reader names the byte order
            Path file = write("big-endian.o", new ElfBuilder().order(ByteOrder.BIG_ENDIAN).section(".nv_fatbin").build());

            assertThat(DeviceCodeDetector.probe(file).hasDeviceCode()).isTrue();
            assertThatThrownBy(() -> reader.read(file)).isInstanceOf(BinaryFormatException.class)
                    .hasMessage(file + ": at offset 0x5: ELF data encoding 2 (only 1 = little-endian is read; CUDA "
                            + "device code is little-endian)");
        }

        @Test
        void fatbinMemberOfAnArchiveIsDeviceCodeAsTheReaderReadsIt() throws Exception {
            // regression: the detector looked at ELF members only, the reader (and the JAR-entry check) at fatbins too
            byte[] archive = new ArBuilder()
                    .gnuMember("host.o", new ElfBuilder().section(".text").build())
                    .gnuMember("frames.fatbin", Files.readAllBytes(real("frames.fatbin")))
                    .buildGnu();
            Path file = write("libfat.a", archive);

            DeviceCodeProbe probe = DeviceCodeDetector.probe(file);

            assertThat(probe.membersWithDeviceCode()).containsExactly("frames.fatbin");
            assertThat(probe.detail()).isEqualTo("ar archive, 1 of 2 ELF members with device code");
            assertThat(reader.read(file).blocks()).extracting(block -> block.images().isEmpty())
                    .containsExactly(true, false);
        }

        @ParameterizedTest
        @ValueSource(strings = {"libframes.so", "frames.o", "frames_rdc.o", "libframes.a", "frames_sm90.cubin",
            "frames.fatbin", "libhostonly.so", "libframes_rdc.so", "ptxas-info.txt"})
        void bytesInMemoryAreJudgedLikeTheFile(String name) throws IOException {
            // JAR entries are probed from their bytes
            Path file = real(name);
            DeviceCodeProbe fromFile = DeviceCodeDetector.probe(file);

            DeviceCodeProbe fromBytes = DeviceCodeDetector.probe(file, ByteRegion.of("app.jar!/" + name,
                    ByteBuffer.wrap(Files.readAllBytes(file))));

            assertThat(fromBytes).isEqualTo(fromFile);
        }

        @ParameterizedTest
        @ValueSource(strings = {"libframes.so", "frames.o", "frames_rdc.o", "libframes.a", "frames_sm90.cubin",
            "frames.fatbin", "libframes_rdc.so", "libmixedptx.so"})
        void everyFileTheDetectorKeepsTheReaderReadsAsTheSameKind(String name) throws Exception {
            Path file = real(name);

            assertThat(reader.read(file).kind()).isEqualTo(DeviceCodeDetector.probe(file).kind());
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
}
