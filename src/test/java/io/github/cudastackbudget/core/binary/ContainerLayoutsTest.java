package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Layouts real tools produce around the fatbin bytes: extended ELF section numbering (GNU as), archives with long
 * member names (GNU ar), zero padding between containers. The device code inside is the real nvcc-built frames.fatbin,
 * whose real cuobjdump text is recorded.
 */
class ContainerLayoutsTest {

    @TempDir
    Path tmp;

    private final DeviceCodeReader reader = new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);

    private static void run(Path directory, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s: %s", String.join(" ", command), output).isZero();
    }

    @Test
    void hostObjectWithExtendedSectionNumbering() throws Exception {
        // 65,300 sections before .nv_fatbin: e_shnum == 0, e_shstrndx == SHN_XINDEX, a symbol with SHN_XINDEX
        StringBuilder assembly = new StringBuilder(2_000_000);
        for (int i = 0; i < 65_300; i++) {
            assembly.append(".section .s").append(i).append(",\"a\"\n.byte 1\n");
        }
        assembly.append(".section .nv_fatbin,\"a\"\n.balign 8\n.globl fatbin_start\nfatbin_start:\n.incbin \"")
                .append(NativeTestFiles.testCuda("frames.fatbin")).append("\"\n");
        Files.writeString(tmp.resolve("many.s"), assembly);
        run(tmp, "as", "-o", "many.o", "many.s");
        Path object = tmp.resolve("many.o");

        try (FileChannel channel = FileChannel.open(object, StandardOpenOption.READ)) {
            ElfFile elf = ElfFile.read(ByteRegion.map(object.toString(), channel));
            ElfFile.Section fatbin = elf.sections().stream().filter(s -> s.name().equals(".nv_fatbin"))
                    .findFirst().orElseThrow();
            assertThat(elf.sections()).hasSizeGreaterThan(65_300);
            assertThat(fatbin.index()).isGreaterThan(0xFF00);
            ElfFile.Symbols symbols = elf.symbols();
            int symbol = -1;
            for (int i = 0; i < symbols.count(); i++) {
                if (symbols.name(i).equals("fatbin_start")) {
                    symbol = i;
                }
            }
            assertThat(symbols.sectionIndex(symbol)).as("st_shndx SHN_XINDEX resolved").isEqualTo(fatbin.index());
        }
        DeviceCodeListing listing = reader.read("frames.fatbin", "many.o", mapped(object));
        assertThat(ResourceUsageText.toText(listing)).isEqualTo(NativeTestFiles.recording("frames.fatbin"));
    }

    @Test
    void zeroPaddingBetweenContainersIsSkipped() throws Exception {
        byte[] fatbin = Files.readAllBytes(NativeTestFiles.testCuda("frames.fatbin"));
        assertThat(fatbin.length % 8).isZero();
        ByteArrayOutputStream padded = new ByteArrayOutputStream();
        padded.write(fatbin);
        padded.write(new byte[16]);
        padded.write(fatbin);
        padded.write(new byte[8]);
        Path file = Files.write(tmp.resolve("twice.fatbin"), padded.toByteArray());

        String once = NativeTestFiles.recording("frames.fatbin");
        assertThat(ResourceUsageText.toText(reader.read(file))).isEqualTo(once + once);
    }

    @Test
    void archiveWithLongMemberNames() throws Exception {
        Path member = Files.copy(NativeTestFiles.testCuda("frames.o"),
                tmp.resolve("a_member_name_longer_than_sixteen_bytes.o"));
        Files.copy(NativeTestFiles.testCuda("frames.o"), tmp.resolve("short.o"));
        Files.writeString(tmp.resolve("notes.txt"), "not an object\n");
        run(tmp, "ar", "rcs", "liblong.a", "short.o", member.getFileName().toString(), "notes.txt");
        Path archive = tmp.resolve("liblong.a");

        DeviceCodeListing listing = reader.read(archive);

        assertThat(listing.kind()).isEqualTo(BinaryKind.AR_ARCHIVE);
        assertThat(listing.blocks()).extracting(DeviceCodeListing.Block::member)
                .containsExactly("short.o", "a_member_name_longer_than_sixteen_bytes.o", "notes.txt");
        assertThat(listing.blocks()).extracting(DeviceCodeListing.Block::label).containsExactly("liblong.a(short.o)",
                "liblong.a(a_member_name_longer_than_sixteen_bytes.o)", "liblong.a(notes.txt)");
        assertThat(listing.blocks().get(2).images()).isEmpty();
        assertThat(DeviceCodeDetector.probe(archive).membersWithDeviceCode())
                .containsExactly("short.o", "a_member_name_longer_than_sixteen_bytes.o");
        // each object member prints what cuobjdump printed for frames.o, after its member line; a member that is not
        // an object gets a bare member line like the recorded host-only object (cuobjdump was not recorded on one)
        String object = NativeTestFiles.recording("frames.o");
        assertThat(ResourceUsageText.toText(listing)).isEqualTo(
                "\nmember " + archive + ":short.o:\n" + object
                + "\nmember " + archive + ":a_member_name_longer_than_sixteen_bytes.o:\n" + object
                + "\nmember " + archive + ":notes.txt:\n");
    }

    @Test
    void bsdArchiveWithItsSymbolTableAndLongNames() throws Exception {
        // the BSD layout (macOS ar, llvm-ar --format=bsd): names "#1/<length>" stored before the body, a
        // "__.SYMDEF SORTED" symbol table; written here byte by byte around the real frames.o
        byte[] object = Files.readAllBytes(NativeTestFiles.testCuda("frames.o"));
        ByteArrayOutputStream archive = new ByteArrayOutputStream();
        archive.write("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
        bsdMember(archive, "__.SYMDEF SORTED", new byte[] {8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        bsdMember(archive, "a_long_bsd_member_name_frames.o", object);
        Path file = Files.write(tmp.resolve("libbsd.a"), archive.toByteArray());

        DeviceCodeListing listing = reader.read(file);

        assertThat(listing.blocks()).extracting(DeviceCodeListing.Block::member)
                .containsExactly("a_long_bsd_member_name_frames.o");
        assertThat(ResourceUsageText.toText(listing)).isEqualTo("\nmember " + file
                + ":a_long_bsd_member_name_frames.o:\n" + NativeTestFiles.recording("frames.o"));
    }

    private static void bsdMember(ByteArrayOutputStream archive, String name, byte[] body) throws Exception {
        byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
        int padded = (nameBytes.length + 3) / 4 * 4;
        String header = String.format("%-16s%-12s%-6s%-6s%-8s%-10s`\n", "#1/" + padded, "0", "0", "0", "644",
                padded + body.length);
        archive.write(header.getBytes(StandardCharsets.US_ASCII));
        archive.write(Arrays.copyOf(nameBytes, padded));
        archive.write(body);
        if ((padded + body.length) % 2 != 0) {
            archive.write('\n');
        }
    }

    @Test
    void elf32HostObject() throws Exception {
        Files.writeString(tmp.resolve("small.s"), ".section .nv_fatbin,\"a\"\n.balign 8\n.incbin \""
                + NativeTestFiles.testCuda("frames.fatbin") + "\"\n");
        run(tmp, "as", "--32", "-o", "small.o", "small.s");
        Path object = tmp.resolve("small.o");
        try (FileChannel channel = FileChannel.open(object, StandardOpenOption.READ)) {
            assertThat(ElfFile.read(ByteRegion.map(object.toString(), channel)).isElf64()).isFalse();
        }
        DeviceCodeListing listing = reader.read("frames.fatbin", "small.o", mapped(object));
        assertThat(ResourceUsageText.toText(listing)).isEqualTo(NativeTestFiles.recording("frames.fatbin"));
    }

    @Test
    void entriesOfEveryKindCarryTheirHeaderFields() throws Exception {
        DeviceCodeListing listing = reader.read(NativeTestFiles.testCuda("libframes_debug.so"));
        List<DeviceImage> images = listing.blocks().get(0).images();
        assertThat(images).extracting(image -> image.entry().headerSize())
                .allSatisfy(size -> assertThat(size).isGreaterThan(0x40));
        assertThat(images).extracting(image -> image.entry().archLabel())
                .contains("sm_100f", "sm_120a");
        assertThat(images).filteredOn(DeviceImage::isPtx).singleElement().satisfies(ptx -> {
            assertThat(ptx.entry().ptxasOptions()).contains("-g");
            assertThat(ptx.entry().identifier()).endsWith("frames.cu");
            assertThat(ptx.ptxEntries()).hasSize(5);
        });
    }

    private static ByteRegion mapped(Path file) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return ByteRegion.map(file.toString(), channel);
        }
    }
}
