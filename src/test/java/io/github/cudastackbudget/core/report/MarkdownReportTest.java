package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {

    private static ReportModel model;

    @BeforeAll
    static void check(@TempDir Path work) throws Exception {
        model = OutputsFixture.model(work);
    }

    private static List<String> lines(String markdown) {
        return List.of(markdown.split("\n", -1));
    }

    @Test
    void theVerdictAndOneTableRowPerDeviceWithReservationBudgetWorstKernelArchAndLibrary() {
        List<String> lines = lines(MarkdownReport.render(model, Frontend.PARAMETERS, List.of(), true));

        assertThat(lines.get(0)).isEqualTo("## CUDA stack budget: FAIL");
        assertThat(lines).contains("3 device(s): 1 pass, 1 fail, 1 skipped; 5 functions in 1 file(s).",
                "| Device | Verdict | Reservation | Budget | Worst kernel | Arch | Library |",
                "| --- | --- | ---: | ---: | --- | --- | --- |",
                "| h200-141gb | FAIL | 2.57 GiB | 1.00 GiB | void frameKernel&lt;2550&gt;(int\\*, int) | sm\\_90a | "
                        + "libframes.so |",
                "| l4 | PASS | 867.28 MiB | 1.00 GiB | void frameKernel&lt;2550&gt;(int\\*, int) | sm\\_80 | "
                        + "libframes.so |");
        assertThat(lines).anyMatch(line -> line.startsWith("| t4 | SKIPPED | | | no embedded SASS runs on sm\\_75"));
    }

    @Test
    void violationsFailedAndWarnedGateChecksAndWarningsHaveTheirSections() {
        List<String> lines = lines(MarkdownReport.render(model, Frontend.PARAMETERS, List.of(), true));

        assertThat(lines).contains("### Violations", "### Gate checks", "### Warnings",
                "| WARN | suppression legacy-kernel | suppression legacy-kernel matched nothing; remove it |",
                "1 more gate check(s) passed.",
                "- device l4: no sm\\_89 image embedded; the compatible sm\\_80 image is used instead");
        assertThat(lines).anyMatch(line -> line.startsWith("- h200-141gb: stack reservation 2.57 GiB "
                + "(2,759,589,888 B) exceeds maxReservation 1.00 GiB"));
        assertThat(lines).noneMatch(line -> line.contains("baseline growth"));
    }

    @Test
    void everyValueIsEscapedSoNothingEndsACellOrBecomesMarkup() {
        String markdown = MarkdownReport.render(model, Frontend.PARAMETERS, List.of(), true);

        assertThat(markdown).contains("| FAIL | rule h200-frame | rule h200-frame: frame 10,208 B &gt; 8,192 B of "
                + "void frameKernel&lt;2550&gt;(int\\*, int) \\[sm\\_90a\\] in libframes.so &lt;&amp;&gt; \"quoted\" "
                + "\\| piped \\*starred\\* |");
        assertThat(MarkdownReport.escape("a|b\nc<d>`e`_f_#g\\")).isEqualTo("a\\|b c&lt;d&gt;\\`e\\`\\_f\\_\\#g\\\\");
    }

    @Test
    void theOtherReportsAreLinkedInTheFileAndNamedInTheStepSummary() {
        List<String> reports = List.of("cuda-stack-budget.json", "TEST-cuda-stack-budget.xml");

        assertThat(MarkdownReport.render(model, Frontend.PARAMETERS, reports, true)).endsWith(
                "\nReports: [cuda-stack-budget.json](cuda-stack-budget.json), "
                        + "[TEST-cuda-stack-budget.xml](TEST-cuda-stack-budget.xml)\n");
        assertThat(MarkdownReport.render(model, Frontend.PARAMETERS, List.of("/ci/out/cuda-stack-budget.json"), false))
                .endsWith("\nReports: `/ci/out/cuda-stack-budget.json`\n");
    }

    @Test
    void aPassingCheckWithoutGateChecksSaysPassAndHasNoEmptySections() {
        ReportModel passing = new ReportModel(model.schemaVersion(), model.engine(), model.deviceOrigin(),
                model.filesProbed(), model.libraries(), model.devices().subList(1, 2), model.kernels(), List.of(),
                List.of(), null, model.filesWithDeviceCode());

        String markdown = MarkdownReport.render(passing, Frontend.PARAMETERS, List.of(), true);

        assertThat(markdown).startsWith("## CUDA stack budget: PASS\n");
        assertThat(markdown).doesNotContain("###");
    }

    @Test
    void aCheckThatCouldNotRunSaysSo() {
        assertThat(MarkdownReport.error("cuobjdump failed on lib_x.so", List.of("cuda-stack-budget.json"), true))
                .isEqualTo("## CUDA stack budget: ERROR\n\nThe check could not run: cuobjdump failed on lib\\_x.so\n\n"
                        + "No figures: the reports of this run hold only this error.\n\n"
                        + "Reports: [cuda-stack-budget.json](cuda-stack-budget.json)\n");
    }
}
