package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.report.html.LaunchedSamples;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The site page of a launched-mode check over the REAL launch logs recorded on the H200 ({@link LaunchedSamples}),
 * rendered through Doxia's XHTML5 sink from the JSON like the report goal does.
 */
class LaunchedSiteReportRendererTest {

    private static final Pattern TABLE = Pattern.compile("<table[^>]*>(.*?)</table>", Pattern.DOTALL);
    private static final Pattern ROW = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL);
    private static final Pattern CELL = Pattern.compile("<t[dh][^>]*>(.*?)</t[dh]>", Pattern.DOTALL);

    @TempDir
    static Path tmp;

    private static CheckRunner.Outcome outcome;
    private static String page;

    @BeforeAll
    static void renderTheRecordedLaunches() throws Exception {
        outcome = LaunchedSamples.probeAndTorch(tmp.resolve("run"));
        page = SiteReportRendererTest.render(ReportModel.read(outcome.reports().get(0)), 25);
    }

    private static String text(String html) {
        return html.replaceAll("<[^>]+>", "").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&#39;", "'").replace("&amp;", "&").trim();
    }

    /** Every table of the page as rows of cell texts (header row included). */
    private static List<List<List<String>>> tables() {
        List<List<List<String>>> tables = new ArrayList<>();
        Matcher table = TABLE.matcher(page);
        while (table.find()) {
            List<List<String>> rows = new ArrayList<>();
            Matcher row = ROW.matcher(table.group(1));
            while (row.find()) {
                List<String> cells = new ArrayList<>();
                Matcher cell = CELL.matcher(row.group(1));
                while (cell.find()) {
                    cells.add(text(cell.group(1)));
                }
                rows.add(cells);
            }
            tables.add(rows);
        }
        return tables;
    }

    private static List<List<String>> tableWithHeader(String first, int index) {
        return tables().stream().filter(t -> t.get(0).get(0).equals(first) && t.get(0).size() > 1).toList()
                .get(index);
    }

    @Test
    void thePageSaysTheHeadlineIsTheLaunchedFigure() {
        assertThat(text(page)).contains("Launched mode: the headline reservations and verdicts are those of the 9 "
                + "kernel(s) the launch log names (5 found in the scanned libraries, 4 in none). The static bound, "
                + "over every kernel a device could run, is shown next to them.");
        List<List<String>> devices = tableWithHeader("Device", 0);
        assertThat(devices.get(0)).containsExactly("Device", "Verdict", "Reservation (launched)", "Static bound",
                "Over default", "Budget", "Share of budget", "Worst kernel", "Notes");
        // the human figure and the exact bytes share a cell (a line break between them)
        assertThat(devices.get(1).subList(2, 4)).containsExactly("3.09 GiB3,321,888,768 B",
                "3.09 GiB (3,321,888,768 B)");
        assertThat(devices.get(2).subList(2, 4)).containsExactly("0 B0 B", "867.28 MiB (909,410,304 B)");
        assertThat(text(page)).contains("Launched reservation 3.09 GiB (3,321,888,768 B) = 270,336 threads x 12,288 B")
                .contains("Static bound (every kernel this device runs, launched or not; not judged): 867.28 MiB "
                        + "(909,410,304 B); static worst kernel void frameKernel<2550>(int*, int) [sm_80] in "
                        + "libframes.so, 10,200 B per thread.")
                .contains("the static bound would be");
    }

    @Test
    void theLaunchedKernelsTableCarriesTheRecordedDynamicSharedMemory() {
        List<List<String>> launched = tables().stream().filter(t -> t.get(0).contains("Max dynamic shared (B)")
                && t.get(0).size() == 9).findFirst().orElseThrow();
        assertThat(launched.get(0)).containsExactly("Kernel", "Library", "Arch", "STACK (B)", "SHARED (B)",
                "Max dynamic shared (B)", "Shared per block (B)", "REG", "Launched under");
        assertThat(launched.subList(1, launched.size())).extracting(row -> String.join(" | ", row.subList(0, 7)))
                .containsExactlyInAnyOrder(
                        "void frameKernel<12288>(int*, int) | launch-probe | sm_90 | 12,288 | 1,024 | 2,048 | 3,072",
                        "void frameKernel<4096>(int*, int) | launch-probe | sm_90 | 4,096 | 1,024 | 8,192 | 9,216",
                        "void frameKernel<2048>(int*, int) | launch-probe | sm_90 | 2,048 | 1,024 | 1,024 | 2,048",
                        "sharedKernel(int*) | launch-probe | sm_90 | 0 | 1,024 | 2,304 | 3,328",
                        "emptyKernel() | launch-probe | sm_90 | 0 | 1,024 | 0 | 1,024");
        assertThat(launched).anySatisfy(row -> assertThat(row.get(8)).isEqualTo("probe-t12k"));
        assertThat(text(page)).contains("Launched kernels: none of them has an image this device runs.")
                .contains("Launched functions that cannot run on this device (no usable SASS or PTX) (5):");
    }

    @Test
    void theLaunchLogSectionListsUnmatchedKernelsAndTheLibraryFoundThroughIt() {
        assertThat(text(page)).contains("4 in none (frames not counted).")
                .contains("Libraries found through the library log (outside the configured file sets, scanned "
                        + "because the run loaded them) (1):")
                .contains(tmp.resolve("run/gpu-run/bin/launch-probe").toString())
                .contains("launch-probe (found through the library log)");
        List<List<String>> unmatched = tables().stream().filter(t -> t.get(0).size() == 3
                && t.get(0).get(1).equals("Max dynamic shared (B)")).findFirst().orElseThrow();
        assertThat(unmatched).hasSize(5);
        assertThat(unmatched.subList(1, 5)).allSatisfy(row -> assertThat(row.get(1)).isEqualTo("0"))
                .anySatisfy(row -> assertThat(row).satisfies(r -> {
                    assertThat(r.get(0)).contains("CalcIgamma<double>");
                    assertThat(r.get(2)).isEqualTo("igamma");
                }));
    }

    @Test
    void theSameReportGivesTheSamePage() throws Exception {
        assertThat(SiteReportRendererTest.render(ReportModel.read(outcome.reports().get(0)), 25)).isEqualTo(page);
    }
}
