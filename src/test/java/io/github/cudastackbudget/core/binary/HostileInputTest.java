package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fuzz campaign's findings in the binary readers (src/test/resources/.../ParserFuzzTestInputs/{elf,ar,nativeRead}/
 * regression-*, also replayed by ParserFuzzTest) with the exact one-line messages they now give, and the defects of
 * issue 10 found by hand: an extended e_shstrndx beyond the table, a quadratic PTX scan, raw bytes in messages.
 */
class HostileInputTest {

    private static final Path FINDINGS = Path.of("src", "test", "resources", "io", "github", "cudastackbudget", "fuzz",
            "ParserFuzzTestInputs");

    @TempDir
    Path tmp;

    private static ByteRegion finding(String target, String name) throws Exception {
        return ByteRegion.of("fuzz", ByteBuffer.wrap(Files.readAllBytes(FINDINGS.resolve(target).resolve(name))));
    }

    @Test
    void sectionNameOfRawBytesIsQuotedOnOneLine() throws Exception {
        // regression-section-name-lines-07c2d0c6af8c: section 0's name is 588 bytes of the file, line breaks included
        ByteRegion region = finding("elf", "regression-section-name-lines-07c2d0c6af8c");
        ElfFile elf = ElfFile.readAnyByteOrder(region);
        assertThatThrownBy(() -> elf.contents(elf.sections().get(0))).isInstanceOf(BinaryFormatException.class)
                .hasMessageStartingWith("fuzz: at offset 0x0: section 0 '\\x81\\xa4\\xc0\\x8b\\xf4d\\x91\\x1e %")
                .hasMessageEndingWith("... (508 more characters)' (1407387768455168 bytes at 0x0) reaches beyond the "
                        + "end of the 24872-byte image (truncated?)")
                .hasMessageNotContaining("\n").hasMessageNotContaining("\r");
    }

    @Test
    void bsdMemberNameWithALineBreakIsQuoted() throws Exception {
        // regression-member-name-lines-619a458a766b
        assertThatThrownBy(() -> ArArchive.members(finding("ar", "regression-member-name-lines-619a458a766b")))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessage("fuzz: at offset 0x8: malformed BSD member name '#1/       h>\\n#1/'");
    }

    @Test
    void memberSizeFieldOfRawBytesIsQuoted() throws Exception {
        // regression-member-size-lines-041a1b16d2c0 (ar) and regression-member-size-lines-08f84ede6871 (nativeRead)
        assertThatThrownBy(() -> ArArchive.members(finding("ar", "regression-member-size-lines-041a1b16d2c0")))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessage("fuzz: at offset 0x38: archive member size '3   `\\n\\x00' is not a size that fits the "
                        + "72-byte archive (truncated?)");
        ByteRegion region = finding("nativeRead", "regression-member-size-lines-08f84ede6871");
        assertThatThrownBy(() -> new DeviceCodeReader(1, 1 << 20).read("fuzz", "fuzz", region))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessage("fuzz: at offset 0x38: archive member size '`\\n\\xff\\xff\\xbf' is not a size that fits "
                        + "the 79-byte archive (truncated?)");
    }

    @Test
    void memberNamesWithControlCharactersAreQuotedWhereverTheyAreShown() throws Exception {
        byte[] archive = new ArBuilder().bsdMember("k\n.o", new byte[] {1, 2}).buildRaw();
        List<ArArchive.Member> members = ArArchive.members(ByteRegion.of("lib.a", ByteBuffer.wrap(archive)));
        assertThat(members).extracting(ArArchive.Member::name).containsExactly("k\\n.o");
    }

    @Test
    void extendedShstrndxBeyondTheTableNamesSectionZerosLink() throws Exception {
        // issue 10: e_shstrndx SHN_XINDEX with section 0's sh_link 0xFFFFFFFF (an IndexOutOfBoundsException once)
        byte[] cubin = Files.readAllBytes(NativeTestFiles.testCuda("frames_sm90.cubin"));
        ByteBuffer header = ByteBuffer.wrap(cubin).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = header.getLong(0x28);
        int sections = header.getShort(0x3C);
        header.putShort(0x3E, (short) 0xFFFF).putInt((int) shoff + 0x28, 0xFFFFFFFF);
        Path file = Files.write(tmp.resolve("frames_sm90.cubin"), cubin);
        String message = file + ": at offset 0x" + Long.toHexString(shoff + 0x28) + ": section name string table "
                + "index 4294967295 (e_shstrndx SHN_XINDEX: section 0's sh_link) is not one of the " + sections
                + " sections";
        assertThatThrownBy(() -> CubinReader.arch(file)).isInstanceOf(BinaryFormatException.class).hasMessage(message);
        assertThatThrownBy(() -> new DeviceCodeReader(1, 1 << 20).read(file)).hasMessage(message);
        DeviceCodeProbe probe = DeviceCodeDetector.probe(file);
        assertThat(probe.unreadable()).isNotNull();
        assertThat(probe.unreadable().message()).isEqualTo(message);
    }

    @Test
    void extendedSectionCountThatLiesIsOneLine() throws Exception {
        // e_shnum 0: the count is section 0's sh_size; a huge one must not be believed
        byte[] cubin = Files.readAllBytes(NativeTestFiles.testCuda("frames_sm90.cubin"));
        ByteBuffer header = ByteBuffer.wrap(cubin).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = header.getLong(0x28);
        header.putShort(0x3C, (short) 0).putLong((int) shoff + 0x20, 0x7FFF_FFFF_FFFF_FFFFL);
        assertThatThrownBy(() -> ElfFile.read(ByteRegion.of("x.cubin", ByteBuffer.wrap(cubin))))
                .isInstanceOf(BinaryFormatException.class)
                .hasMessage("x.cubin: at offset 0x" + Long.toHexString(shoff + 0x20) + ": 9223372036854775807 section "
                        + "headers of 64 bytes at 0x" + Long.toHexString(shoff) + " do not fit the " + cubin.length
                        + "-byte image (truncated?)");
    }

    @Test
    void ptxScanOfOneLongLineOfEntriesIsLinear() {
        // issue 10: the scan looked for '.extern' from the line start at each '.entry': quadratic on one long line
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            text.append(".entry k").append(i).append("( ");
        }
        ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII));
        List<String> names = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> PtxEntryNames.scan(bytes));
        assertThat(names).hasSize(200_000).startsWith("k0", "k1").endsWith("k199999");
        // '.extern' before '.entry' on the same line still makes it a declaration, also far back on the line
        String declared = ".extern " + "x ".repeat(1000) + ".entry ext(\n.visible .entry real(\n";
        assertThat(PtxEntryNames.scan(ByteBuffer.wrap(declared.getBytes(StandardCharsets.US_ASCII))))
                .containsExactly("real");
    }

    @Test
    void everyMessageIsOneLineWhateverAReaderQuotes() {
        BinaryFormatException e = new BinaryFormatException("lib.a(a\nb.o)", 8, "name 'x\r\ny\u2028'");
        assertThat(e.getMessage()).isEqualTo("lib.a(a\\nb.o): at offset 0x8: name 'x\\r\\ny\\u2028'");
    }
}
