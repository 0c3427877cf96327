package io.github.cudastackbudget.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The run-at-a-time escapes (issue 11: the cold page writer spent a fifth of its time in them) against the
 * char-at-a-time versions they replaced, kept here as oracles, on random text dense in the characters they treat.
 */
class EscapeDifferentialTest {

    private static final String ALPHABET = "<</!sScCrRiIpPtT>&\"'a _:\uD83D\uDE00\u00e9";

    private static String randomText(Random random) {
        int length = random.nextInt(40);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            if (random.nextInt(8) == 0) {
                text.append(random.nextBoolean() ? "<script" : "</SCRIPT");
            } else {
                text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
        }
        return text.toString();
    }

    @Test
    void bothEscapesAgreeWithTheirOraclesOnRandomText() {
        Random random = new Random(11);
        for (int i = 0; i < 50_000; i++) {
            String text = randomText(random);
            assertThat(KernelData.scriptSafe(new StringBuffer(text))).as(text).isEqualTo(scriptSafeOracle(text));
            assertThat(Html.escape(text)).as(text).isEqualTo(escapeOracle(text));
        }
        assertThat(Html.escape(null)).isEmpty();
        assertThat(KernelData.scriptSafe("")).isEmpty();
        assertThat(KernelData.scriptSafe("<")).isEqualTo("<");
    }

    /** The char-at-a-time scriptSafe of 36aa2ec. */
    private static String scriptSafeOracle(CharSequence json) {
        StringBuilder out = new StringBuilder();
        int length = json.length();
        for (int i = 0; i < length; i++) {
            char c = json.charAt(i);
            char next = i + 1 < length ? json.charAt(i + 1) : 0;
            if (c == '<' && next == '/') {
                out.append("<\\/");
                i++;
            } else if (c == '<' && next == '!') {
                out.append("\\u003c");
            } else if (c == '<' && json.length() >= i + 7 && json.subSequence(i + 1, i + 7).toString()
                    .equalsIgnoreCase("script")) {
                out.append('<').append(next == 's' ? "\\u0073" : "\\u0053");
                i++;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The char-at-a-time Html.escape of 36aa2ec. */
    private static String escapeOracle(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
