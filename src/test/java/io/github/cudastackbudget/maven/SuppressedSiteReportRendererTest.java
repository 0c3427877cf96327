package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.gate.GateOptions;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The site page lists the kernels a suppression took out of the verdicts, read back from the check's JSON. */
class SuppressedSiteReportRendererTest {

    @TempDir
    Path tmp;

    @Test
    void theSitePageListsTheSuppressedKernelsWithTheirReason() throws Exception {
        Path file = Files.writeString(tmp.resolve("suppressions.xml"), "<suppressions><suppress>"
                + "<kernel>void frameKernel&lt;2550&gt;*</kernel><device>h200*</device>"
                + "<reason>a test kernel &amp; its scratch</reason><until>2099-12-31</until></suppress></suppressions>");
        CheckOptions options = CheckOptions.builder().libraryFiles(List.of(RecordedCuobjdump.testCuda("libframes.so")))
                .engine("native").devicePresets("h200-141gb,l4").detectLocalDevices(false)
                .outputDirectory(tmp.resolve("out")).environment(Map.of("PATH", System.getenv().getOrDefault("PATH", "")))
                .gate(new GateOptions(file, false)).build();
        CheckRunner.Outcome outcome = CheckRunner.run(options, CheckListener.SILENT);

        String page = SiteReportRendererTest.render(ReportModel.read(outcome.reports().get(0)), 25);

        assertThat(page).contains("Suppressed kernels").contains("a test kernel &amp; its scratch")
                .contains("suppression[1] void frameKernel&lt;2550&gt;* (until 2099-12-31)")
                .contains("void frameKernel&lt;2550&gt;(int*, int)").contains("2,759,589,888 B");
        // only the H200's: the L4 is outside the entry's device pattern
        assertThat(page.split("Alone it would reserve", -1)).hasSize(2);
        assertThat(page).doesNotContain("909,410,304 B)</td>");
        // the suppression entry is a gate check, listed as JUnit, SARIF and the other pages list it
        assertThat(page).contains("Gate checks").contains("1 check(s): 0 failed, 0 warned, 1 passed.")
                .contains("suppression[1] void frameKernel&lt;2550&gt;*</td>");
    }

    @Test
    void withoutSuppressedKernelsThereIsNoSection() throws Exception {
        CheckOptions options = CheckOptions.builder().libraryFiles(List.of(RecordedCuobjdump.testCuda("libframes.so")))
                .engine("native").devicePresets("l4").detectLocalDevices(false).outputDirectory(tmp.resolve("out"))
                .environment(Map.of()).build();
        CheckRunner.Outcome outcome = CheckRunner.run(options, CheckListener.SILENT);

        assertThat(SiteReportRendererTest.render(ReportModel.read(outcome.reports().get(0)), 25))
                .doesNotContain("Suppressed kernels");
    }
}
