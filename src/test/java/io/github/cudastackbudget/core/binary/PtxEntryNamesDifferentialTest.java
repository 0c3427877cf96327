package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast PTX scan (issue 11) gives exactly the names of the byte-at-a-time scan it replaced
 * ({@link PtxEntryNamesReference}): on the real PTX of the nvcc-built test libraries, on those texts cut and spliced,
 * and on seeded random texts built from the tokens the rules look at. The fuzz target {@code Ptx} checks the same
 * equality on every input it makes.
 */
class PtxEntryNamesDifferentialTest {

    private static final String[] TOKENS = {".entry", ".extern", ".visible", ".weak", ".func", "//", "/*", "*/", "/",
        "*", ".", "\n", "\r\n", " ", "\t", "(", ")", ";", "\0", "_Z3fooPi", "k", ".entryX", ".ent", "ry", "x.entry",
        "\n.entry ", "// .globl k\n", ".param .u64 p", "{", "}"};

    /** The real PTX texts of the test binaries (every PTX entry of every file, decompressed). */
    static List<byte[]> realPtx() throws Exception {
        List<byte[]> texts = new ArrayList<>();
        EntryDecompressor decompressor = new EntryDecompressor(EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        for (String name : List.of("libframes.so", "libframes_lz4.so", "libframes_zstd.so", "libframes_nocomp.so",
                "libmixedptx.so", "libframes_debug.so", "libframes_rdc.so")) {
            Path file = NativeTestFiles.testCuda(name);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteRegion region = ByteRegion.map(file.toString(), channel);
                ElfFile elf = ElfFile.read(region);
                for (ElfFile.Section section : DeviceCodeSections.of(elf).toRead()) {
                    for (FatbinWalker.Entry entry : FatbinWalker.entries(region.sub(section.offset(), section.size(),
                            file.toString()))) {
                        if (entry.header().isPtx()) {
                            ByteBuffer payload = decompressor.payload(entry, file.toString());
                            byte[] bytes = new byte[payload.remaining()];
                            payload.get(bytes);
                            texts.add(bytes);
                        }
                    }
                }
            }
        }
        return texts;
    }

    private static void assertSame(byte[] text) {
        assertThat(PtxEntryNames.scan(ByteBuffer.wrap(text)))
                .as(() -> new String(text, StandardCharsets.ISO_8859_1))
                .isEqualTo(PtxEntryNamesReference.scan(ByteBuffer.wrap(text)));
    }

    @Test
    void realPtxGivesTheSameNames() throws Exception {
        List<byte[]> texts = realPtx();
        assertThat(texts).as("PTX entries in the test binaries").hasSizeGreaterThanOrEqualTo(5);
        int names = 0;
        for (byte[] text : texts) {
            assertSame(text);
            names += PtxEntryNames.scan(ByteBuffer.wrap(text)).size();
        }
        assertThat(names).as("kernel names found").isGreaterThan(10);
    }

    @Test
    void cutAndSplicedRealPtxGivesTheSameNames() throws Exception {
        List<byte[]> texts = realPtx();
        Random random = new Random(11);
        for (int round = 0; round < 3_000; round++) {
            byte[] a = texts.get(random.nextInt(texts.size()));
            byte[] b = texts.get(random.nextInt(texts.size()));
            int cut = random.nextInt(a.length + 1);
            int from = random.nextInt(b.length + 1);
            int take = random.nextInt(Math.min(4_000, b.length - from) + 1);
            byte[] spliced = new byte[cut + take];
            System.arraycopy(a, 0, spliced, 0, cut);
            System.arraycopy(b, from, spliced, cut, take);
            assertSame(spliced);
        }
    }

    @Test
    void randomTokenTextsGiveTheSameNames() {
        Random random = new Random(2026_12_02L);
        for (int round = 0; round < 100_000; round++) {
            StringBuilder text = new StringBuilder();
            int tokens = random.nextInt(24);
            for (int k = 0; k < tokens; k++) {
                text.append(TOKENS[random.nextInt(TOKENS.length)]);
            }
            assertSame(text.toString().getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void aBufferWithAPositionAnOffsetOrNoArrayIsReadFromItsPosition() {
        byte[] text = "junk .entry skipped(\n.visible .entry first(\n.entry second(".getBytes(StandardCharsets.US_ASCII);
        int at = 13; // inside "skipped"
        ByteBuffer positioned = ByteBuffer.wrap(text).position(at);
        ByteBuffer sliced = ByteBuffer.wrap(text, at, text.length - at).slice();
        ByteBuffer direct = ByteBuffer.allocateDirect(text.length).put(text).flip().position(at);
        List<String> expected = PtxEntryNamesReference.scan(ByteBuffer.wrap(text).position(at));
        assertThat(expected).containsExactly("first", "second");
        assertThat(PtxEntryNames.scan(positioned)).isEqualTo(expected);
        assertThat(PtxEntryNames.scan(sliced)).isEqualTo(expected);
        assertThat(PtxEntryNames.scan(direct)).isEqualTo(expected);
        assertThat(direct.position()).as("the buffer is not moved").isEqualTo(at);
    }

    /**
     * Regression (found 2026-12-04 while trying the JDK's string search for the scan, which was slower cold and not kept): a {@code y} that ends no
     * {@code .entry} on the same line as a kernel, after an {@code .extern} on an earlier line, left the fast scan with
     * the earlier line's start, so it took the {@code .extern} for this line's and dropped the kernel.
     */
    @Test
    void aLoneYBeforeAnEntryDoesNotHideTheLineBreakBeforeIt() {
        for (String text : new String[] {".extern .func a;\nmy .entry k(", ".extern .func a;\n ntid.y .entry k(",
            ".extern .func a;\r\nry .entry k(", "x\n.extern y .entry k(", ".extern\nry\n.entry k(",
            ".extern .func a;\nmy /* y */ .entry k(", ".extern .func a;\nyy .entry k(\n.extern y .entry j("}) {
            assertSame(text.getBytes(StandardCharsets.ISO_8859_1));
        }
        assertThat(PtxEntryNames.scan(ByteBuffer.wrap(".extern .func a;\nmy .entry k(".getBytes(
                StandardCharsets.ISO_8859_1)))).containsExactly("k");
    }

    /** Texts of one to three MiB with candidates far apart and close together, and an .entry at every offset near 1 MiB. */
    @Test
    void candidatesAcrossTheSearchWindowsGiveTheSameNames() {
        Random random = new Random(2026_12_04L);
        for (int round = 0; round < 40; round++) {
            StringBuilder text = new StringBuilder();
            int size = (1 << 20) * (1 + random.nextInt(3)) + random.nextInt(4096);
            while (text.length() < size) {
                int gap = random.nextInt(3) == 0 ? random.nextInt(8) : random.nextInt(200_000);
                text.append("x".repeat(gap)).append(TOKENS[random.nextInt(TOKENS.length)]);
                if (random.nextBoolean()) {
                    text.append(" k").append(text.length()).append('(');
                }
            }
            assertSame(text.toString().getBytes(StandardCharsets.ISO_8859_1));
        }
        for (int end = (1 << 20) - 8; end <= (1 << 20) + 2; end++) {
            String text = " ".repeat(end - 1) + "\n.entry k(";
            assertSame(text.getBytes(StandardCharsets.ISO_8859_1));
            assertThat(PtxEntryNames.scan(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1))))
                    .containsExactly("k");
        }
    }
}
