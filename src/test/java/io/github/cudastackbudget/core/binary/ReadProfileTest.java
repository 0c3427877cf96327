package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The read profile (a measurement aid, off unless {@code -DcudaStackBudget.readProfile=true}): on, it counts exactly the
 * entries a read decoded, by kind and compression, with their stored and decoded bytes, and starts again from zero
 * after each line; off, a read adds nothing.
 */
class ReadProfileTest {

    private static final Pattern COUNTS = Pattern.compile(
            "entries (\\d+) \\(PTX (\\d+), Zstandard (\\d+), LZ4 (\\d+)\\), stored (\\d+) B, decoded (\\d+) B");

    @Test
    void offAReadAddsNothing() throws Exception {
        assertThat(ReadProfile.ENABLED).as("the tests run without -DcudaStackBudget.readProfile").isFalse();
        new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES)
                .read(NativeTestFiles.testCuda("libframes_zstd.so"));
        String line = ReadProfile.line();
        assertThat(line).contains("entries 0 (PTX 0, Zstandard 0, LZ4 0), stored 0 B, decoded 0 B")
                .contains("decompress 0,").contains("cubin parse 0,");
    }

    @Test
    void onItCountsWhatTheReadDecoded() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String[] files = {"libframes_zstd.so", "libframes_lz4.so", "libframes_nocomp.so", "libmixedptx.so"};
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-DcudaStackBudget.readProfile=true", "-cp",
                System.getProperty("java.class.path"), ProfileMain.class.getName(),
                NativeTestFiles.testCuda(files[0]).toString(), NativeTestFiles.testCuda(files[1]).toString(),
                NativeTestFiles.testCuda(files[2]).toString(), NativeTestFiles.testCuda(files[3]).toString())
                .redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        String[] lines = output.strip().split("\n");
        assertThat(lines).as(output).hasSize(3);
        // what the listings hold, counted by the child from the images it read
        String[] expected = lines[0].split(" ");
        Matcher first = COUNTS.matcher(lines[1]);
        assertThat(first.find()).as(lines[1]).isTrue();
        assertThat(first.group(1)).isEqualTo(expected[0]);
        assertThat(first.group(2)).isEqualTo(expected[1]);
        assertThat(first.group(3)).isEqualTo(expected[2]);
        assertThat(first.group(4)).isEqualTo(expected[3]);
        assertThat(Long.parseLong(first.group(5))).as("stored bytes").isPositive();
        assertThat(Long.parseLong(first.group(6))).as("decoded bytes: compressed entries decode to more")
                .isGreaterThan(Long.parseLong(first.group(5)));
        assertThat(Long.parseLong(expected[2])).as("Zstandard entries in libframes_zstd.so").isPositive();
        assertThat(Long.parseLong(expected[3])).as("LZ4 entries in libframes_lz4.so").isPositive();
        assertThat(Long.parseLong(expected[1])).as("PTX entries in libmixedptx.so").isPositive();
        assertThat(lines[2]).as("the second line starts from zero")
                .contains("entries 0 (PTX 0, Zstandard 0, LZ4 0), stored 0 B, decoded 0 B");
    }

    /** Reads the files on two threads; prints the listings' own counts, then two profile lines. */
    static final class ProfileMain {
        public static void main(String[] args) throws Exception {
            DeviceCodeReader reader = new DeviceCodeReader(2, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
            long entries = 0;
            long ptx = 0;
            long zstd = 0;
            long lz4 = 0;
            for (String file : args) {
                for (DeviceCodeListing.Block block : reader.read(Path.of(file)).blocks()) {
                    for (DeviceImage image : block.images()) {
                        FatbinEntry entry = image.entry();
                        if (entry == null) {
                            continue;
                        }
                        entries++;
                        ptx += entry.isPtx() ? 1 : 0;
                        zstd += entry.compression() == FatbinEntry.Compression.ZSTD ? 1 : 0;
                        lz4 += entry.compression() == FatbinEntry.Compression.LZ4 ? 1 : 0;
                    }
                }
            }
            System.out.println(entries + " " + ptx + " " + zstd + " " + lz4);
            System.out.println(ReadProfile.line());
            System.out.println(ReadProfile.line());
        }
    }
}
