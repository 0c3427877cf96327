package io.github.cudastackbudget.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The one reservation chart in both styles: bars on one scale, budget marks, tones by verdict; the site's style
 * leaves skipped devices out and paints inline, the page's style keeps them and paints by class.
 */
class SvgBarChartTest {

    private static final long GIB = 1L << 30;

    private static DeviceReport device(String name, Verdict status, long reservation, Long budget, Long memory) {
        return new DeviceReport(name, null, "9.0", "sm_90", 270_336, 132L, memory, "", status,
                status == Verdict.SKIPPED ? "no compatible SASS" : null, status == Verdict.SKIPPED ? null : "sm_90",
                false, new TreeMap<>(), reservation, reservation, Math.max(0, reservation - 270_336L * 1024), budget,
                null, null, null, null, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), null);
    }

    private static List<DeviceReport> fiveDevices() {
        return List.of(device("fits", Verdict.PASS, GIB, 4 * GIB, 80 * GIB),
                device("near <edge>", Verdict.PASS, 3 * GIB + GIB / 2, 4 * GIB, null),
                device("over", Verdict.FAIL, 2 * GIB, GIB, 24 * GIB),
                device("no budget", Verdict.PASS, GIB / 2, null, null),
                device("skipped", Verdict.SKIPPED, 0, GIB, null));
    }

    @Test
    void siteStyleOneBarPerCheckedDeviceOnOneScaleWithBudgetMarks() {
        String svg = SvgBarChart.render(fiveDevices(), SvgBarChart.Style.SITE);
        // the scale is the largest reservation or budget: 4 GiB -> 420 px; 1 GiB is 105 px
        assertThat(svg).contains(">4.00 GiB</text>", "width=\"105\" height=\"18\" fill=\"#2e7d32\"",
                "width=\"368\" height=\"18\" fill=\"#ef8f00\"", "width=\"210\" height=\"18\" fill=\"#c62828\"",
                "width=\"53\" height=\"18\" fill=\"#2e7d32\"");
        assertThat(svg).contains(">near &lt;edge&gt;<").doesNotContain("skipped");
        assertThat(svg.split("stroke-dasharray", -1)).hasSize(4);
        assertThat(svg).contains(">1.00 GiB: 25.0% of budget, 1.3% of memory<",
                ">2.00 GiB: 200.0% of budget, 8.3% of memory<", ">512.00 MiB<");
        assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"154\"")
                .endsWith("</svg>\n").doesNotContain("class=");
    }

    @Test
    void siteStyleWithoutACheckedDeviceDrawsNothing() {
        assertThat(SvgBarChart.render(List.of(device("skipped", Verdict.SKIPPED, 0, null, null)),
                SvgBarChart.Style.SITE)).isNull();
        assertThat(SvgBarChart.dataUri(List.of(), SvgBarChart.Style.SITE)).isNull();
    }

    @Test
    void theDataUriCarriesTheSameDocument() {
        List<DeviceReport> devices = List.of(device("one", Verdict.PASS, 1 << 20, null, null));
        String uri = SvgBarChart.dataUri(devices, SvgBarChart.Style.SITE);
        assertThat(uri).startsWith("data:image/svg+xml;base64,");
        assertThat(new String(Base64.getDecoder().decode(uri.substring(uri.indexOf(',') + 1)), StandardCharsets.UTF_8))
                .isEqualTo(SvgBarChart.render(devices, SvgBarChart.Style.SITE));
    }

    @Test
    void pageStyleKeepsSkippedDevicesTicksTheScaleAndPaintsByClass() {
        String svg = SvgBarChart.render(fiveDevices(), SvgBarChart.Style.PAGE);
        // 4 GiB in steps of 1 GiB: five ticks with grid lines; 1 GiB is 720 / 4 = 180 px
        assertThat(svg.split("<line class=\"grid\"", -1)).hasSize(6);
        assertThat(svg).contains(">4 GiB</text>", "<g class=\"device pass\">", "<g class=\"device near\">",
                "<g class=\"device fail\">", "<g class=\"device skipped\">", "width=\"180.0\" height=\"20\" rx=\"3\"",
                ">skipped: no compatible SASS</text>", "near &lt;edge&gt;", "<rect class=\"memtrack\"");
        assertThat(svg.split("<line class=\"budget\"", -1)).as("the skipped device has no bar and no mark").hasSize(4);
        assertThat(svg).doesNotContain("fill=\"#").doesNotContain("\n");
    }

    @Test
    void theTwoStylesEscapeForTheirOutput() {
        List<DeviceReport> devices = List.of(device("Bob's GPU", Verdict.PASS, GIB, null, null));
        assertThat(SvgBarChart.render(devices, SvgBarChart.Style.PAGE)).contains("Bob&#39;s GPU");
        assertThat(SvgBarChart.render(devices, SvgBarChart.Style.SITE)).contains(">Bob's GPU<");
    }
}
