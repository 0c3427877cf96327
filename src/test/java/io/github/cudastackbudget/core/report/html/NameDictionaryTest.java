package io.github.cudastackbudget.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.records.ReportFunctions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page's name dictionary (issue 11: the standalone page of libtorch_cuda.so was 12.4 MB, the target 12 MB): the
 * data block decoded the way page.js decodes it gives back every name, on the real recorded libraries.
 */
class NameDictionaryTest {

    @TempDir
    Path tmp;

    @Test
    void theDecodedDataBlockHoldsEveryNameAndIsSmaller() throws Exception {
        ReportModel model = ReportModel.of(ReportSamples.recordedLibraries(tmp).result());
        String block = KernelData.json(model);
        JsonNode data = new ObjectMapper().readTree(block.replace("<\\/", "</"));

        TreeSet<String> expected = new TreeSet<>();
        ReportFunctions.ofRecords(model.kernels()).list().forEach(function -> expected.add(function.displayName()));
        assertThat(HtmlReportWriterTest.names(data)).containsExactlyElementsOf(expected);
        assertThat(data.get("nt").size()).isPositive();

        long plain = 0;
        long coded = 0;
        for (int n = 0; n < data.get("ns").size(); n++) {
            coded += data.get("ns").get(n).asText().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        String previous = "";
        for (String name : expected) {
            plain += name.substring(KernelData.sharedPrefix(previous, name)).length();
            previous = name;
        }
        long dictionary = 0;
        for (JsonNode token : data.get("nt")) {
            dictionary += token.asText().length() + 3;
        }
        assertThat(coded + dictionary).as("front-coded names with the dictionary against without").isLessThan(plain);
    }

    @Test
    void tokensAreIdentifiersWithTheirQualifierAndOnlyThoseThatSaveBytes() {
        List<String> suffixes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            suffixes.addAll(List.of("onnxruntime::cuda::Kernel<float>(int)", "onnxruntime::cuda::Kernel<double>(int)",
                    "onnxruntime::cuda::Other<float>(int)", "x"));
        }
        // savings: each occurrence saves its UTF-8 length minus 3, the dictionary entry costs the length plus 3;
        // "int" is under the minimum length, "x" not a token worth a code
        assertThat(KernelData.dictionary(suffixes))
                .containsExactly("onnxruntime::", "cuda::", "Kernel", "float", "double", "Other");
        assertThat(KernelData.dictionary(suffixes.subList(0, 3))).containsExactly("onnxruntime::");
        Map<String, Character> codes = Map.of("onnxruntime::", '\uE000', "Kernel", '\uE001');
        assertThat(KernelData.encode("onnxruntime::cuda::Kernel<float>(int)", codes))
                .isEqualTo("\uE000cuda::\uE001<float>(int)");
    }

    @Test
    void aNameWithAPrivateUseCharacterTurnsTheDictionaryOff() {
        assertThat(KernelData.dictionary(List.of("onnxruntime::a", "onnxruntime::b", "onnxruntime::\uE123"))).isEmpty();
    }
}
