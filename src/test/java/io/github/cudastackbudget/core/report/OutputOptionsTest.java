package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutputOptionsTest {

    @Test
    void noFormatsMeansTheDefaultThree() {
        assertThat(OutputOptions.DEFAULT.selected("formats")).containsExactly(ReportFormat.JSON, ReportFormat.TXT,
                ReportFormat.HTML);
        assertThat(OutputOptions.of("  ", null).selected("formats")).containsExactly(ReportFormat.JSON,
                ReportFormat.TXT, ReportFormat.HTML);
        assertThat(OutputOptions.of(OutputOptions.DEFAULT_FORMATS, null).selected("formats"))
                .isEqualTo(ReportFiles.DEFAULT_FORMATS);
    }

    @Test
    void formatsAreReadCommaSeparatedAnyCaseInTheFixedOrder() {
        assertThat(OutputOptions.of(" SARIF, junit ,markdown,json,json", null).selected("formats"))
                .containsExactly(ReportFormat.JSON, ReportFormat.MARKDOWN, ReportFormat.JUNIT, ReportFormat.SARIF);
        assertThat(new OutputOptions(List.of("txt", "html,sarif"), null).selected("formats"))
                .containsExactly(ReportFormat.TXT, ReportFormat.HTML, ReportFormat.SARIF);
    }

    @Test
    void anUnknownFormatIsOneLineNamingTheOptionAndTheAllowedValues() {
        assertThatThrownBy(() -> OutputOptions.of("json,xml", null).selected("--formats"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("--formats 'json,xml': 'xml' is not a report format; use a comma-separated list of "
                        + "json, txt, html, markdown, junit, sarif (default html,json,txt)");
    }

    @Test
    void everyFormatHasItsDocumentedFileName() {
        assertThat(List.of(ReportFormat.values()).stream().map(ReportFormat::fileName)).containsExactly(
                "cuda-stack-budget.json", "cuda-stack-budget.txt", "cuda-stack-budget.html", "cuda-stack-budget.md",
                "TEST-cuda-stack-budget.xml", "cuda-stack-budget.sarif");
    }
}
