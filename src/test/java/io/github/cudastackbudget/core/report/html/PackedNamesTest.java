package io.github.cudastackbudget.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.records.ReportFunctions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page's names (issue 11): front-coded, the rests deflated in chunks; decoded the way page.js decodes them
 * ({@link HtmlReportWriterTest#names}), they are every name of the model, on the real recorded libraries, on 130k
 * records, and on random names with non-ASCII text, surrogate pairs and empty names.
 */
class PackedNamesTest {

    @TempDir
    Path tmp;

    @Test
    void theDecodedDataBlockHoldsEveryNameOfTheRecordedLibrariesDeflated() throws Exception {
        ReportModel model = ReportModel.of(ReportSamples.recordedLibraries(tmp).result());
        JsonNode data = data(model);
        TreeSet<String> expected = new TreeSet<>();
        ReportFunctions.ofRecords(model.kernels()).list().forEach(function -> expected.add(function.displayName()));
        assertThat(HtmlReportWriterTest.names(data)).containsExactlyElementsOf(expected);
        assertThat(data.has("ns")).isFalse();
        assertThat(data.get("nz").size()).isEqualTo(1);

        long plain = 0;
        String previous = "";
        for (String name : expected) {
            plain += name.substring(KernelData.sharedPrefix(previous, name)).getBytes(StandardCharsets.UTF_8).length;
            previous = name;
        }
        assertThat((long) data.get("nz").get(0).textValue().length()).as("deflated rests against plain ones")
                .isLessThan(plain / 4);
    }

    @Test
    void manyNamesComeInSeveralChunksThatDependOnTheNamesAlone() throws Exception {
        ReportModel scaled = ReportSamples.scaled(tmp.resolve("scaled"), ReportSamples.SCALE_COPIES);
        List<String> names = sortedNames(scaled);
        KernelData.Names packed = KernelData.Names.of(names);
        assertThat(packed.deflated()).hasSizeBetween(2, KernelData.Names.MAX_CHUNKS);
        assertThat(decode(packed)).containsExactlyElementsOf(names);
        // the same names, the same chunks (the page is byte-identical on every machine and every run)
        assertThat(KernelData.Names.of(new ArrayList<>(names)).deflated()).isEqualTo(packed.deflated());
    }

    @Test
    void randomNamesRoundTrip() throws Exception {
        Random random = new Random(11);
        String[] pieces = {"at::native::", "void ", "cutlass::gemm::", "<float>", "(int, long)", "\u00e9t\u00e9",
            "\u4e2d\u6587", "\ud83d\ude80", "_Z3fooIiEvv", "", "x", "::", "\u00ff", "\ud801\udc37"};
        for (int round = 0; round < 30; round++) {
            TreeSet<String> set = new TreeSet<>();
            int count = random.nextInt(round < 3 ? 3 : 400);
            for (int i = 0; i < count; i++) {
                StringBuilder name = new StringBuilder();
                for (int p = random.nextInt(8); p > 0; p--) {
                    name.append(pieces[random.nextInt(pieces.length)]);
                }
                set.add(name.toString());
            }
            List<String> names = new ArrayList<>(set);
            KernelData.Names packed = KernelData.Names.of(names);
            assertThat(packed.deflated()).as("round %d", round).isNotNull();
            assertThat(decode(packed)).as("round %d", round).containsExactlyElementsOf(names);
            for (int i = 1; i < names.size(); i++) {
                assertThat(packed.shared()[i]).isEqualTo(KernelData.sharedPrefix(names.get(i - 1), names.get(i)));
            }
        }
    }

    @Test
    void aLargeNameNeverLeavesAnEmptyChunk() throws Exception {
        // a name larger than a chunk's share takes the running total past several shares at once; an empty chunk
        // would read back as one more (empty) name
        String large = "z" + "x".repeat(3 * KernelData.Names.CHUNK_BYTES);
        for (List<String> names : List.of(List.of("a(int)", "b(int)", "c(int)", large),
                List.of("a" + "y".repeat(3 * KernelData.Names.CHUNK_BYTES), "b(int)", "c(int)", "d(int)"),
                List.of("a(int)", large))) {
            KernelData.Names packed = KernelData.Names.of(names);
            assertThat(packed.deflated()).as("chunks of %d names", names.size()).isNotEmpty()
                    .allSatisfy(chunk -> assertThat(HtmlReportWriterTest.inflate(java.util.Base64.getDecoder()
                            .decode(chunk))).isNotNull());
            assertThat(decode(packed)).containsExactlyElementsOf(names);
        }
    }

    @Test
    void noNamesAndOneEmptyName() throws Exception {
        assertThat(KernelData.Names.of(List.of()).deflated()).isEmpty();
        assertThat(decode(KernelData.Names.of(List.of()))).isEmpty();
        assertThat(decode(KernelData.Names.of(List.of("")))).containsExactly("");
        assertThat(decode(KernelData.Names.of(List.of("", "a")))).containsExactly("", "a");
    }

    @Test
    void aNameWithTheSeparatorLeavesTheRestsPlain() throws Exception {
        // only a report read back from JSON can hold it: ELF names end at a NUL
        List<String> names = List.of("k(int)", "k\u0000(long)", "kernel");
        KernelData.Names packed = KernelData.Names.of(names);
        assertThat(packed.deflated()).isNull();
        assertThat(packed.suffixes()).containsExactly("k(int)", "\u0000(long)", "ernel");
        assertThat(decode(packed)).containsExactlyElementsOf(names);
    }

    private static List<String> decode(KernelData.Names packed) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode data = mapper.createObjectNode();
        com.fasterxml.jackson.databind.node.ArrayNode np = data.putArray("np");
        for (int shared : packed.shared()) {
            np.add(shared);
        }
        if (packed.deflated() != null) {
            packed.deflated().forEach(data.putArray("nz")::add);
        } else {
            packed.suffixes().forEach(data.putArray("ns")::add);
        }
        return HtmlReportWriterTest.names(data);
    }

    private static List<String> sortedNames(ReportModel model) {
        TreeSet<String> names = new TreeSet<>();
        model.kernels().forEach(row -> names.add(row.displayName()));
        return new ArrayList<>(names);
    }

    private static JsonNode data(ReportModel model) throws Exception {
        return new ObjectMapper().readTree(KernelData.json(model).replace("<\\/", "</"));
    }
}
