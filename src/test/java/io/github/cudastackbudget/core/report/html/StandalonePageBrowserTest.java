package io.github.cudastackbudget.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standalone page in real headless Chromium: loads from the file alone (no request leaves it), no console errors,
 * sorting and filtering the kernel tables work, for the recorded libraries and for a 130k-record report. Screenshots
 * go to target/screenshots. Runs in the "browser" surefire execution; fails (never skips) without Chromium.
 */
@Tag("browser")
class StandalonePageBrowserTest {

    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TempDir
    static Path tmp;

    private static Chromium chromium;
    private static ReportModel recorded;
    private static Path recordedPage;

    @BeforeAll
    static void startBrowser() throws Exception {
        CheckRunner.Outcome outcome = ReportSamples.recordedLibraries(tmp.resolve("recorded"));
        recorded = ReportModel.read(outcome.reports().get(0));
        recordedPage = outcome.reports().get(2);
        chromium = Chromium.launchForPages();
    }

    @AfterAll
    static void stopBrowser() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    /** Loads the page and asserts that only the page itself was requested and nothing went wrong. */
    static void loadCleanly(Path page) throws Exception {
        chromium.clearEvents();
        String url = page.toUri().toString();
        chromium.navigate(url);
        // the script inflates the names, then starts the tables: "true" once they sort and filter
        assertThat(chromium.waitFor("document.documentElement.getAttribute('data-csb-ready')",
                v -> !v.isNull() && !v.asText().isEmpty()).asText()).as("the tables started").isEqualTo("true");
        assertPageStayedOffline(url);
    }

    static void assertPageStayedOffline(String url) {
        assertThat(chromium.requestedUrls()).as("requests made by the page").containsOnly(url);
        assertThat(chromium.problems()).as("script errors, console errors, failed loads").isEmpty();
    }

    private static List<String> column(String table, int column) throws Exception {
        JsonNode values = chromium.evaluate("Array.from(document.querySelectorAll('" + table + " tbody tr'))"
                + ".map(function(r){return r.cells[" + column + "].textContent;})");
        List<String> out = new ArrayList<>();
        values.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static long number(String text) {
        return text.equals("UNKNOWN") ? Long.MAX_VALUE : Long.parseLong(text.replace(",", ""));
    }

    private static String countText(String table) throws Exception {
        return chromium.evaluate("document.querySelector('" + table + " .count').textContent").asText();
    }

    @Test
    void recordedLibrariesPageRendersOfflineAndItsTablesSortAndFilter() throws Exception {
        loadCleanly(recordedPage);
        chromium.screenshot(SCREENSHOTS.resolve("standalone-recorded-full.png"), true);
        chromium.screenshot(SCREENSHOTS.resolve("standalone-recorded-top.png"), false);
        for (String section : List.of("devices", "chart", "libraries", "device-3")) {
            chromium.screenshotOf("#" + section, SCREENSHOTS.resolve("standalone-recorded-" + section + ".png"));
        }

        assertThat(chromium.evaluate("document.title").asText()).isEqualTo("CUDA Stack Budget: 1 of 4 devices over budget");
        assertThat(chromium.evaluate("document.documentElement.classList.contains('js')").asBoolean()).isTrue();
        assertThat(chromium.evaluate("document.querySelectorAll('svg.chart g.device').length").asInt())
                .isEqualTo(recorded.devices().size());

        String table = "#device-0 .ktable";
        DeviceReport h200 = recorded.devices().get(0);
        List<KernelRow> selected = h200.selectedKernels();
        assertThat(column(table, 1)).hasSize(25).first().isEqualTo(h200.worstKernel().displayName());

        // REG: first click sorts descending, the second ascending; ties keep the stack order
        chromium.click(table + " th[data-key=reg] button");
        List<String> regs = column(table, 7);
        assertThat(regs).hasSize(25);
        assertThat(regs.stream().map(Long::parseLong).toList()).isSortedAccordingTo(Comparator.reverseOrder());
        assertThat(Long.parseLong(regs.get(0))).isEqualTo(selected.stream().mapToInt(KernelRow::registers).max().orElseThrow());
        assertThat(chromium.evaluate("document.querySelector('" + table + " th[data-key=reg]').getAttribute('aria-sort')")
                .asText()).isEqualTo("descending");
        chromium.click(table + " th[data-key=reg] button");
        regs = column(table, 7);
        assertThat(regs.stream().map(Long::parseLong).toList()).isSorted();
        assertThat(Long.parseLong(regs.get(0))).isEqualTo(selected.stream().mapToInt(KernelRow::registers).min().orElseThrow());

        // Kernel: ascending by name, the same order Java's String order gives (UTF-16 code units, stable)
        chromium.click(table + " th[data-key=name] button");
        List<String> expected = selected.stream().map(KernelRow::displayName).sorted().limit(25).toList();
        assertThat(column(table, 1)).containsExactlyElementsOf(expected);
        chromium.screenshot(SCREENSHOTS.resolve("standalone-recorded-sorted-by-name.png"), false);

        // filter: typed into the box, matched case-insensitively on name, library and arch
        chromium.type(table + " input.filter", "SendRecv");
        long matching = selected.stream().filter(k -> (k.displayName() + " " + k.library() + " " + k.arch())
                .toLowerCase(Locale.ROOT).contains("sendrecv")).count();
        assertThat(matching).isPositive();
        // keys arrive one by one: wait for the filter of the whole word (the debounce may fire in between)
        String count = chromium.waitFor("document.querySelector('" + table + " .count').textContent",
                v -> v.asText().endsWith("matching \"SendRecv\"")).asText();
        assertThat(count).isEqualTo("Showing " + Math.min(25, matching) + " of " + matching
                + " functions this device runs (" + String.format(Locale.ROOT, "%,d", h200.kernelsWithFrame().size())
                + " with a stack frame) matching \"SendRecv\"");
        assertThat(column(table, 1)).hasSize((int) Math.min(25, matching))
                .allSatisfy(name -> assertThat(name.toLowerCase(Locale.ROOT)).contains("sendrecv"));
        chromium.screenshotOf("#device-0", SCREENSHOTS.resolve("standalone-recorded-filtered.png"));

        // reset brings back the worst-first view; "Show more" adds rows
        chromium.click(table + " button.reset");
        assertThat(chromium.waitFor("document.querySelector('" + table + " .count').textContent",
                v -> !v.asText().contains("matching")).asText()).startsWith("Showing 25 of ");
        assertThat(column(table, 1).get(0)).isEqualTo(h200.worstKernel().displayName());
        chromium.click(table + " button.more");
        assertThat(column(table, 1)).hasSize(Math.min(275, selected.size()));

        // the small device table sorts in place
        chromium.click("table.summary th:nth-child(3) button");
        List<String> devices = column("table.summary", 0);
        assertThat(devices.get(devices.size() - 1)).startsWith("h200-141gb");
        assertPageStayedOffline(recordedPage.toUri().toString());
    }

    @Test
    void unknownStacksRankAboveEveryKnownFrame() throws Exception {
        CheckRunner.Outcome outcome = ReportSamples.testBinaries(tmp.resolve("binaries"));
        loadCleanly(outcome.reports().get(2));
        String table = "#kernels .ktable";
        List<String> stacks = column(table, 4);
        assertThat(stacks.get(0)).isEqualTo("UNKNOWN");
        assertThat(chromium.evaluate("document.querySelector('" + table + " tbody td.unknown').textContent").asText())
                .isEqualTo("UNKNOWN");
        chromium.click(table + " th[data-key=stack] button");
        chromium.click(table + " button.more");
        List<String> ascending = column(table, 4);
        assertThat(ascending.get(ascending.size() - 1)).isEqualTo("UNKNOWN");
        assertThat(ascending.stream().map(StandalonePageBrowserTest::number).toList()).isSorted();
        chromium.screenshot(SCREENSHOTS.resolve("standalone-test-binaries-top.png"), false);
        chromium.screenshotOf("#device-0", SCREENSHOTS.resolve("standalone-test-binaries-device.png"));
        assertPageStayedOffline(outcome.reports().get(2).toUri().toString());
    }

    @Test
    void aReportOf130kRecordsStaysResponsive() throws Exception {
        ReportModel scaled = ReportSamples.scaled(tmp.resolve("scaled"), ReportSamples.SCALE_COPIES);
        assertThat(scaled.recordCount()).isGreaterThanOrEqualTo(129_000);
        Path page = HtmlReportWriter.write(scaled, 25, tmp.resolve("scaled").resolve("out"));
        assertThat(Files.size(page)).as("page size").isLessThan(30L * 1024 * 1024);

        loadCleanly(page);
        chromium.screenshot(SCREENSHOTS.resolve("standalone-130k-top.png"), false);
        String table = "#kernels .ktable";
        assertThat(countText(table)).isEqualTo("Showing 25 of " + String.format(Locale.ROOT, "%,d",
                scaled.recordCount()) + " kernel records");
        List<String> stacks = column(table, 4);
        long worst = scaled.kernels().stream().mapToLong(k -> k.stackUnknown() ? Long.MAX_VALUE : k.stack()).max()
                .orElseThrow();
        assertThat(number(stacks.get(0))).isEqualTo(worst);

        chromium.type(table + " input.filter", "_v7 sm_90");
        long matching = scaled.kernels().stream().filter(k -> {
            String text = (k.displayName() + " " + k.library() + " " + k.arch()).toLowerCase(Locale.ROOT);
            return k.displayName().toLowerCase(Locale.ROOT).contains("_v7") || k.library().contains("_v7")
                    ? text.contains("sm_90") : false;
        }).count();
        String count = chromium.waitFor("document.querySelector('" + table + " .count').textContent",
                v -> v.asText().endsWith("matching \"_v7 sm_90\"")).asText();
        assertThat(count).isEqualTo("Showing 25 of " + String.format(Locale.ROOT, "%,d", matching)
                + " kernel records matching \"_v7 sm_90\"");
        chromium.click(table + " th[data-key=stack] button");
        List<String> ascending = column(table, 4);
        assertThat(ascending.stream().map(StandalonePageBrowserTest::number).toList()).isSorted();
        chromium.screenshotOf("#kernels", SCREENSHOTS.resolve("standalone-130k-filtered.png"));
        assertPageStayedOffline(page.toUri().toString());
    }

    /**
     * The launched-mode page of the REAL launch logs recorded on the H200 ({@link LaunchedSamples}): offline, the
     * launched-kernels table sorts by dynamic shared memory, screenshots of the glance, a device and the launch log.
     */
    @Test
    void launchedPageRendersOfflineAndItsLaunchedKernelsSort() throws Exception {
        Path page = LaunchedSamples.probeAndTorch(tmp.resolve("launched")).reports().get(2);
        loadCleanly(page);
        chromium.screenshot(SCREENSHOTS.resolve("standalone-launched-top.png"), false);
        chromium.screenshot(SCREENSHOTS.resolve("standalone-launched-full.png"), true);
        chromium.screenshotOf("#device-0", SCREENSHOTS.resolve("standalone-launched-device.png"));
        chromium.screenshotOf("#device-1", SCREENSHOTS.resolve("standalone-launched-device-cannot-run.png"));
        chromium.screenshotOf("#launched", SCREENSHOTS.resolve("standalone-launched-log.png"));
        chromium.screenshotOf("#libraries", SCREENSHOTS.resolve("standalone-launched-libraries.png"));
        String table = "#device-0 table.launched";
        assertThat(column(table, 0)).hasSize(5);
        // column 5: max dynamic shared memory (bytes, from the recorded log)
        chromium.click(table + " th:nth-child(6) button");
        List<String> dynamic = column(table, 5);
        assertThat(dynamic.stream().map(StandalonePageBrowserTest::number).toList()).isSorted()
                .containsExactly(0L, 1_024L, 2_048L, 2_304L, 8_192L);
        chromium.click(table + " th:nth-child(6) button");
        assertThat(column(table, 5).get(0)).isEqualTo("8,192");
        assertThat(column(table, 0).get(0)).isEqualTo("void frameKernel<4096>(int*, int)");
        assertThat(column(table, 6).get(0)).isEqualTo("9,216");
        assertPageStayedOffline(page.toUri().toString());
    }
}
