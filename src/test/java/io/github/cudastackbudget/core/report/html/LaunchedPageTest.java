package io.github.cudastackbudget.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standalone page of a launched-mode check over the REAL launch logs recorded on the H200 ({@link LaunchedSamples}):
 * the headline says it is the launched figure, the static bound sits next to it, each device lists its launched
 * kernels with the dynamic shared memory of the recorded log, and the launch log's section lists the kernels in no
 * scanned library and the library found through the library log.
 */
class LaunchedPageTest {

    private static final Pattern ROW = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL);
    private static final Pattern CELL = Pattern.compile("<td[^>]*>(.*?)</td>", Pattern.DOTALL);

    @TempDir
    static Path tmp;

    private static CheckRunner.Outcome outcome;
    private static ReportModel model;
    private static String page;

    @BeforeAll
    static void renderTheRecordedLaunches() throws Exception {
        outcome = LaunchedSamples.probeAndTorch(tmp.resolve("run"));
        model = ReportModel.read(outcome.reports().get(0));
        page = Files.readString(outcome.reports().get(2));
    }

    static String text(String html) {
        return html.replaceAll("<[^>]+>", "").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&#39;", "'").replace("&amp;", "&");
    }

    /** The HTML of the element that starts at {@code start} up to its closing {@code end}. */
    static String between(String html, String start, String end) {
        int from = html.indexOf(start);
        assertThat(from).as("page holds %s", start).isNotNegative();
        return html.substring(from, html.indexOf(end, from) + end.length());
    }

    /** The text of every body row's cells of the first table after {@code start}. */
    static List<List<String>> rows(String html, String start) {
        String table = between(between(html, start, "</table>"), "<tbody>", "</tbody>");
        List<List<String>> rows = new ArrayList<>();
        Matcher row = ROW.matcher(table);
        while (row.find()) {
            List<String> cells = new ArrayList<>();
            Matcher cell = CELL.matcher(row.group(1));
            while (cell.find()) {
                cells.add(text(cell.group(1)).trim());
            }
            rows.add(cells);
        }
        return rows;
    }

    @Test
    void checkWritesTheLaunchedPageFromTheSameJson() {
        assertThat(outcome.reports().get(2)).hasFileName(HtmlReportWriter.FILE_NAME);
        assertThat(page).isEqualTo(HtmlReportWriter.render(model, 25));
        assertThat(HtmlReportWriter.render(model, 25)).isEqualTo(page);
    }

    @Test
    void theGlanceSaysTheHeadlineIsTheLaunchedFigureAndGivesTheStaticBound() {
        String glance = text(between(page, "<section id=\"glance\">", "</section>"));
        assertThat(glance).contains("Launched mode. Headline figures and verdicts are the reservation of the 9 kernels "
                + "the launch log names (5 found in the scanned libraries, 4 in none).");
        assertThat(glance).contains("h200-141gb PASS (near) 3.09 GiB (3,321,888,768 B) reserved: 88.4% of its "
                + "3.50 GiB budget");
        assertThat(glance).contains("Worst launched void frameKernel<12288>(int*, int) [sm_90] in launch-probe, "
                + "12,288 B per thread.");
        assertThat(glance).contains("Static bound 867.28 MiB (909,410,304 B) if every kernel it runs were launched; "
                + "worst void frameKernel<2550>(int*, int) [sm_80] in libframes.so, 10,200 B per thread.");
        assertThat(glance).contains("l4 PASS 0 B reserved");
        assertThat(glance).contains("If the static worst kernel, void frameKernel<2550>(int*, int), shrank to ");
    }

    @Test
    void theDeviceTableGivesTheLaunchedReservationAndTheStaticBound() {
        String table = between(page, "<section id=\"devices\">", "</section>");
        assertThat(text(between(table, "<thead>", "</thead>"))).startsWith("DeviceVerdictReservation (launched)"
                + "Static boundBudget");
        List<List<String>> rows = rows(table, "<table");
        assertThat(rows.get(0).subList(2, 4)).containsExactly("3.09 GiB", "3.09 GiB");
        assertThat(rows.get(1).subList(2, 4)).containsExactly("0 B", "867.28 MiB");
        assertThat(table).contains("data-sort=\"909410304\"");
    }

    @Test
    void eachDeviceListsItsLaunchedKernelsWithTheRecordedDynamicSharedMemory() {
        String h200 = between(page, "<section class=\"device\" id=\"device-0\">", "</section>");
        assertThat(text(h200)).contains("Launched reservation3.09 GiB (3,321,888,768 B) = 270,336 threads × 12,288 B")
                .contains("Static bound3.09 GiB (3,321,888,768 B) = 270,336 threads × 12,288 B: every kernel this "
                        + "device runs, launched or not (not judged)")
                .contains("Worst launched kernel").contains("Launched kernels: 5")
                .contains("Every kernel this device runs, launched or not (the static bound)");
        List<List<String>> rows = rows(h200, "<table class=\"launched sortable\">");
        // Kernel, Library, Arch, STACK, SHARED, Max dynamic shared, Shared per block, REG, Launched under
        assertThat(rows).extracting(row -> String.join(" | ", row.subList(0, 7))).containsExactlyInAnyOrder(
                "void frameKernel<12288>(int*, int) | launch-probe | sm_90 | 12,288 | 1,024 | 2,048 | 3,072",
                "void frameKernel<4096>(int*, int) | launch-probe | sm_90 | 4,096 | 1,024 | 8,192 | 9,216",
                "void frameKernel<2048>(int*, int) | launch-probe | sm_90 | 2,048 | 1,024 | 1,024 | 2,048",
                "sharedKernel(int*) | launch-probe | sm_90 | 0 | 1,024 | 2,304 | 3,328",
                "emptyKernel() | launch-probe | sm_90 | 0 | 1,024 | 0 | 1,024");
        assertThat(rows).filteredOn(row -> row.get(0).equals("void frameKernel<4096>(int*, int)")).singleElement()
                .satisfies(row -> assertThat(row.subList(7, 9)).containsExactly("31", "phase-4k"));
        assertThat(rows).filteredOn(row -> row.get(0).equals("sharedKernel(int*)")).singleElement()
                .satisfies(row -> assertThat(row.get(8)).isEqualTo("worker-0 worker-1 worker-2 worker-3 worker-4 "
                        + "worker-5 worker-6 worker-7"));
        assertThat(h200).contains("title=\"_Z11frameKernelILi4096EEvPii\"");

        String l4 = between(page, "<section class=\"device\" id=\"device-1\">", "</section>");
        assertThat(text(l4)).contains("Launched kernels: 0").contains("None of the launched kernels has an image this "
                + "device runs.").contains("Launched functions that cannot run on this device (neither loadable SASS "
                + "nor usable PTX): 5").contains("Launched reservation0 B: no launched kernel this device runs has a "
                + "stack frame").contains("Static bound867.28 MiB (909,410,304 B) = 89,088 threads × 10,208 B");
    }

    @Test
    void theLaunchLogSectionListsUnmatchedKernelsAndTheLibraryFoundThroughTheLibraryLog() {
        String section = between(page, "<section id=\"launched\">", "</section>");
        assertThat(text(section)).contains("Statusok: complete, the launched figures are the headline")
                .contains("Kernels9 launched: 5 found in the scanned libraries, 4 in none (frames not counted)")
                .contains("Found through the library log" + tmp.resolve("run/gpu-run/bin/launch-probe"))
                .contains("Launched kernels in no scanned library: 4");
        List<List<String>> unmatched = rows(section, "<table class=\"launched unmatched sortable\">");
        assertThat(unmatched).hasSize(4).allSatisfy(row -> assertThat(row.get(1)).isEqualTo("0"))
                .anySatisfy(row -> {
                    assertThat(row.get(0)).contains("CalcIgamma<double>");
                    assertThat(row.get(2)).isEqualTo("igamma");
                });
        String libraries = between(page, "<section id=\"libraries\">", "</section>");
        assertThat(rows(libraries, "<table")).filteredOn(row -> row.get(0).startsWith("launch-probe")).singleElement()
                .satisfies(row -> assertThat(row.get(0)).startsWith("launch-probelibrary log"));
    }

    @Test
    void theLaunchedPageStaysOfflineAndItsStylesComeOnlyWithLaunchData() {
        assertThat(page).contains("Content-Security-Policy\" content=\"default-src 'none';");
        assertThat(Pattern.compile("(?i)<(img|link|iframe|object|embed|audio|video|source|base)\\b").matcher(page).find())
                .as("an element that loads something").isFalse();
        assertThat(Pattern.compile("(?i)\\s(src|href|action|xlink:href|srcset)=\"(?!#)").matcher(page).find())
                .as("an attribute that points outside the page").isFalse();
        assertThat(page).contains(HtmlReportWriter.resource("launched.css"));
        String plain = HtmlReportWriter.render(new ReportModel(model.schemaVersion(),
                model.engine(), model.deviceOrigin(), model.filesProbed(), model.libraries(), model.devices().stream()
                        .map(d -> new io.github.cudastackbudget.core.report.model.DeviceReport(d.name(), d.preset(),
                                d.computeCapability(), d.targetArch(), d.maxResidentThreads(),
                                d.multiProcessorCount(), d.memoryBytes(), d.figuresSource(), d.status(), d.skipReason(),
                                d.chosenArch(), d.fellBack(), d.imageCounts(), d.reservationBytes(),
                                d.staticReservationBytes(), d.incrementBytes(), d.budgetBytes(), d.worstKernel(),
                                d.worstLocalKernel(), d.nextWorstKernel(), d.reservationIfWorstShrinksBytes(),
                                d.selectedKernels(), d.unknownStack(), d.jit(), d.cannotRun(), d.ambiguous(),
                                d.violations(), null)).toList(), model.kernels(), model.violations(), model.warnings()), 25);
        assertThat(plain).doesNotContain(HtmlReportWriter.resource("launched.css"), "Launch log", "Launched kernels",
                "Static bound", "launched mode");
    }
}
