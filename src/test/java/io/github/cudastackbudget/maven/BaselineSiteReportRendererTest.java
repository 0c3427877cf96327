package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.baseline.BaselineOptions;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.ByteSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: the baseline section of both pages, from the JSON report of a check compared with an earlier one over
 * real test-cuda libraries (libframes.so, then libframes.so and libjitmixed.so).
 */
class BaselineSiteReportRendererTest {

    @TempDir
    Path tmp;

    private CheckOptions.Builder options(String out, String... libraries) {
        return CheckOptions.builder().libraryFiles(java.util.Arrays.stream(libraries).map(RecordedCuobjdump::testCuda)
                        .toList()).engine("native").devicePresets("h200-141gb,l4").detectLocalDevices(false)
                .useCache(false).environment(Map.of("PATH", System.getenv().getOrDefault("PATH", "")))
                .outputDirectory(tmp.resolve(out));
    }

    @Test
    void bothPagesShowOldNewAndDeltaPerDeviceAndTheOverallFigure() throws Exception {
        CheckRunner.run(options("earlier", "libframes.so").build(), CheckListener.SILENT);
        Path baseline = tmp.resolve("earlier").resolve(CheckRunner.JSON_REPORT);
        CheckRunner.Outcome outcome = CheckRunner.run(options("later", "libframes.so", "libjitmixed.so")
                .baseline(new BaselineOptions(baseline, "10%", false, "app-1.0.json")).build(), CheckListener.SILENT);
        ReportModel model = ReportModel.read(tmp.resolve("later").resolve(CheckRunner.JSON_REPORT));
        long old = model.baseline().devices().get(0).previousBytes();
        long now = model.baseline().devices().get(0).currentBytes();

        String site = SiteReportRendererTest.render(model, 5).replace("&lt;", "<").replace("&gt;", ">")
                .replaceAll("<td[^>]*>", "<td>").replace("\n", "");
        assertThat(site).contains("Baseline</h2>").contains("Compared with app-1.0.json.")
                .contains("<td>h200-141gb</td><td>" + ByteSize.format(old) + "</td><td>" + ByteSize.format(now)
                        + "</td><td>+" + ByteSize.format(now - old) + " (+60.7%)</td><td>10% (+"
                        + ByteSize.format(old / 10) + ")</td><td><b>FAIL</b></td>")
                .contains("jitFrame<16400>(char*, int)</code> [sm_90] in libjitmixed.so, new since the baseline")
                .contains("<td>overall (the largest reservation)</td>");
        assertThat(site.indexOf("Baseline</h2>")).isLessThan(site.indexOf("Libraries</h2>"));

        String page = Files.readString(tmp.resolve("later").resolve("cuda-stack-budget.html"));
        assertThat(page).contains("<section id=\"baseline\">\n<h2>Baseline</h2>")
                .contains("<p class=\"meta\">Compared with app-1.0.json.</p>")
                .contains("<tr class=\"fail\"><td>h200-141gb</td>")
                .contains("<span class=\"badge fail\">FAIL</span>")
                .contains("in libjitmixed.so, new since the baseline</span>")
                .contains("<b>overall</b>");
        // the L4 did not grow: a pass, no kernel named
        assertThat(page).contains("<tr><td>l4</td>").contains("<span class=\"badge pass\">PASS</span>");
        assertThat(outcome.failed()).isTrue();
    }

    @Test
    void withoutABaselineNeitherPageHasTheSection() throws Exception {
        CheckRunner.run(options("plain", "libframes.so").build(), CheckListener.SILENT);
        ReportModel model = ReportModel.read(tmp.resolve("plain").resolve(CheckRunner.JSON_REPORT));

        assertThat(SiteReportRendererTest.render(model, 5)).doesNotContain("Baseline");
        assertThat(Files.readString(tmp.resolve("plain").resolve("cuda-stack-budget.html")))
                .doesNotContain("id=\"baseline\"");
    }
}
