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

    /**
     * The dictionary and the encoding find tokens as ranges of the names (issue 11); they must give what cutting every
     * token as a String gives (the reference below: the first implementation), on random names made of identifiers,
     * qualifiers, digits and punctuation, with and without a slicing of the work.
     */
    @Test
    void theRangeScanGivesWhatCuttingEveryTokenGives() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        String[] parts = {"at::", "native::", "detail", "float", "double", "unrolled_elementwise_kernel", "::", "<", ">",
            "(", ")", ", ", "int", "_Z", "x9", "0", "12345", " ", "::::", "a_b_c_d", "Kernel", "_", "cuda::"};
        for (int round = 0; round < 20; round++) {
            List<String> names = new ArrayList<>();
            int count = round < 10 ? 50 : 5000; // the larger ones are cut into slices on a machine with several cores
            for (int n = 0; n < count; n++) {
                StringBuilder name = new StringBuilder();
                for (int p = random.nextInt(30); p >= 0; p--) {
                    name.append(parts[random.nextInt(parts.length)]);
                }
                names.add(name.toString());
            }
            List<String> tokens = KernelData.dictionary(names);
            assertThat(tokens).isEqualTo(referenceDictionary(names));
            Map<String, Character> codes = new java.util.HashMap<>();
            for (int i = 0; i < tokens.size(); i++) {
                codes.put(tokens.get(i), (char) (KernelData.FIRST_CODE + i));
            }
            for (String name : names) {
                assertThat(KernelData.encode(name, codes)).isEqualTo(referenceEncode(name, codes));
            }
        }
    }

    private static List<String> referenceDictionary(List<String> suffixes) {
        Map<String, int[]> counts = new java.util.HashMap<>();
        for (String suffix : suffixes) {
            int at = 0;
            while (at < suffix.length()) {
                int end = referenceTokenEnd(suffix, at);
                if (end - at >= 5) {
                    counts.computeIfAbsent(suffix.substring(at, end), key -> new int[1])[0]++;
                }
                at = Math.max(end, at + 1);
            }
        }
        List<Map.Entry<String, Long>> saving = new ArrayList<>();
        counts.forEach((token, count) -> {
            long bytes = token.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            long saved = count[0] * (bytes - 3) - (bytes + 3);
            if (saved > 0) {
                saving.add(Map.entry(token, saved));
            }
        });
        saving.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return saving.stream().map(Map.Entry::getKey).limit(KernelData.MAX_TOKENS).toList();
    }

    private static String referenceEncode(String text, Map<String, Character> codes) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < text.length()) {
            int end = referenceTokenEnd(text, at);
            if (end > at) {
                Character code = end - at >= 5 ? codes.get(text.substring(at, end)) : null;
                out.append(code != null ? String.valueOf(code) : text.substring(at, end));
                at = end;
            } else {
                out.append(text.charAt(at++));
            }
        }
        return out.toString();
    }

    private static int referenceTokenEnd(String text, int at) {
        if (!Character.isLetter(text.charAt(at)) && text.charAt(at) != '_' || text.charAt(at) > 'z') {
            return at;
        }
        int end = at + 1;
        while (end < text.length() && (text.charAt(end) <= 'z' && Character.isLetterOrDigit(text.charAt(end))
                || text.charAt(end) == '_')) {
            end++;
        }
        if (text.startsWith("::", end)) {
            end += 2;
        }
        return end;
    }

    @Test
    void aNameWithAPrivateUseCharacterTurnsTheDictionaryOff() {
        assertThat(KernelData.dictionary(List.of("onnxruntime::a", "onnxruntime::b", "onnxruntime::\uE123"))).isEmpty();
    }
}
