package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.report.html.HtmlReportWriter;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone page lists the gate checks (failed first), escaped; a page without checks has no such section. */
class GateChecksHtmlTest {

    private static ReportModel model;

    @BeforeAll
    static void check(@TempDir Path work) throws Exception {
        model = OutputsFixture.model(work);
    }

    @Test
    void theGateChecksSectionListsEveryCheckFailedFirstEscaped() {
        String page = HtmlReportWriter.render(model, 25);
        String section = page.substring(page.indexOf("<section id=\"gate-checks\">"),
                page.indexOf("</section>", page.indexOf("<section id=\"gate-checks\">")));

        assertThat(section).contains("<p class=\"meta\">1 failed, 1 warned, 1 passed.</p>");
        assertThat(section.indexOf(">FAIL<")).isLessThan(section.indexOf(">WARN<"));
        assertThat(section.indexOf(">WARN<")).isLessThan(section.indexOf(">PASS<"));
        assertThat(section).contains("<tr class=\"fail\"><td><span class=\"badge fail\">FAIL</span></td><td>rule "
                + "<b>h200-frame</b></td><td>rule h200-frame: frame 10,208 B &gt; 8,192 B of void "
                + "frameKernel&lt;2550&gt;(int*, int) [sm_90a] in libframes.so &lt;&amp;&gt; &quot;quoted&quot; | piped "
                + "*starred*</td></tr>");
        assertThat(section).contains("<span class=\"badge near\">WARN</span></td><td>suppression <b>legacy-kernel</b>");
    }

    @Test
    void aPageWithoutGateChecksHasNoSection() {
        assertThat(HtmlReportWriter.render(OutputsFixture.withChecks(model, List.of()), 25))
                .doesNotContain("gate-checks");
    }
}
