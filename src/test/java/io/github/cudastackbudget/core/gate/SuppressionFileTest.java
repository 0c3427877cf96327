package io.github.cudastackbudget.core.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuppressionFileTest {

    @TempDir
    Path tmp;

    private Path file(String xml) throws Exception {
        return Files.writeString(tmp.resolve("suppressions.xml"), xml);
    }

    private List<Suppression> read(String xml) throws Exception {
        return SuppressionFile.read(file(xml), "suppressions");
    }

    @Test
    void readsEveryFieldWithItsLine() throws Exception {
        List<Suppression> entries = read("""
                <?xml version="1.0" encoding="UTF-8"?>
                <suppressions xmlns="https://github.com/cuda-stack-budget/suppressions/1.0">
                  <!-- the tile kernel, until the rewrite -->
                  <suppress>
                    <kernel>demo::stageTiles*</kernel>
                    <library>libstackdemo.so</library>
                    <device>h200-*</device>
                    <reason>
                      tile staging needs the scratch;
                      rewritten in 2.0
                    </reason>
                    <until>2027-06-30</until>
                  </suppress>
                  <suppress>
                    <kernel>_Z11frameKernelILi2550EEvPii</kernel>
                    <reason>a test kernel</reason>
                  </suppress>
                </suppressions>
                """);

        assertThat(entries).hasSize(2);
        Suppression first = entries.get(0);
        assertThat(first.index()).isEqualTo(1);
        assertThat(first.line()).isEqualTo(4);
        assertThat(first.kernel().text()).isEqualTo("demo::stageTiles*");
        assertThat(first.library().text()).isEqualTo("libstackdemo.so");
        assertThat(first.device().text()).isEqualTo("h200-*");
        assertThat(first.reason()).isEqualTo("tile staging needs the scratch; rewritten in 2.0");
        assertThat(first.until()).isEqualTo(LocalDate.of(2027, 6, 30));
        Suppression second = entries.get(1);
        assertThat(second.index()).isEqualTo(2);
        assertThat(second.line()).isEqualTo(14);
        assertThat(second.library()).isNull();
        assertThat(second.device()).isNull();
        assertThat(second.until()).isNull();
        assertThat(second.label()).isEqualTo("suppression[2] (kernel '_Z11frameKernelILi2550EEvPii', line 14)");
    }

    @Test
    void anEmptyFileOfEntriesIsNoEntry() throws Exception {
        assertThat(read("<suppressions/>")).isEmpty();
    }

    @Test
    void aMissingFileNamesItAndTheOption() {
        Path missing = tmp.resolve("none.xml");
        assertThatThrownBy(() -> SuppressionFile.read(missing, "suppressions"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("suppressions file " + missing + " does not exist: create it, or set suppressions to an "
                        + "existing file");
    }

    @Test
    void eachMistakeIsOneLineNamingTheFileAndTheLine() throws Exception {
        Path path = tmp.resolve("suppressions.xml");
        assertProblem("<suppressions>\n  <suppress>\n    <reason>r</reason>\n  </suppress>\n</suppressions>",
                path + ", line 4: suppression[1] (line 2) has no <kernel>");
        assertProblem("<suppressions>\n  <suppress>\n    <kernel>k</kernel>\n  </suppress>\n</suppressions>",
                path + ", line 4: suppression[1] (line 2) has no <reason>");
        assertProblem("<suppressions>\n  <suppress><kernel>k</kernel><reason> </reason></suppress>\n</suppressions>",
                path + ", line 2: suppression[1] (line 2) has no <reason>");
        assertProblem("<suppressions><suppress><kernel>k</kernel><reason>r</reason>\n<until>30.06.2027</until>"
                + "</suppress></suppressions>", path + ", line 2: suppression[1] (line 1): <until> '30.06.2027' is "
                        + "not a date yyyy-MM-dd");
        assertProblem("<suppressions>\n<suppress><kernel>k</kernel><reason>r</reason><expires>x</expires></suppress>"
                + "</suppressions>", path + ", line 2: <expires> in <suppress> is unknown");
        assertProblem("<suppressions>\n<suppress><kernel>k</kernel><kernel>j</kernel></suppress></suppressions>",
                path + ", line 2: <kernel> is given twice");
        assertProblem("<suppressionz/>", path + ", line 1: the root element is <suppressionz>, not <suppressions>");
        assertProblem("<suppressions>\n<entry/></suppressions>", path + ", line 2: <entry> in <suppressions>");
        assertProblem("<suppressions>\n<suppress><kernel>k<b>x</b></kernel></suppress></suppressions>",
                path + ", line 2: <b> inside <kernel>");
        // cut short: the parser's own message, with its line
        assertProblem("<suppressions>\n<suppress>\n<kernel>k</kernel><reason>r</reason>\n</suppress>\n",
                path + ", line 5: ");
        assertProblem("not xml at all", path + ", line 1: ");
    }

    @Test
    void anExternalEntityIsRefusedAndNeverRead() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "TOP-SECRET");
        Path path = tmp.resolve("suppressions.xml");
        String xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE suppressions [\n  <!ENTITY xxe SYSTEM \"" + secret.toUri()
                + "\">\n]>\n<suppressions><suppress><kernel>&xxe;</kernel><reason>r</reason></suppress>"
                + "</suppressions>";

        assertThatThrownBy(() -> read(xxe))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith(path + ", line 2: ")
                .hasMessageContaining("DOCTYPE")
                .hasMessageNotContaining("TOP-SECRET")
                .hasMessageNotContaining("\n");
    }

    @Test
    void billionLaughsIsRefusedAtTheDoctype() throws Exception {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
        for (int i = 1; i < 10; i++) {
            xml.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i == 1 ? "" : i - 1) + ";").repeat(10))
                    .append("\">\n");
        }
        xml.append("]>\n<suppressions><suppress><kernel>&lol9;</kernel><reason>r</reason></suppress></suppressions>");
        String text = xml.toString();

        assertThatThrownBy(() -> read(text))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith(tmp.resolve("suppressions.xml") + ", line 2: ")
                .hasMessageNotContaining("\n");
    }

    private void assertProblem(String xml, String start) throws Exception {
        Path path = file(xml);
        assertThatThrownBy(() -> SuppressionFile.read(path, "suppressions"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith(start)
                .hasMessageNotContaining("\n");
    }
}
