package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The site report's bar chart: bars on one scale, budget marks, colours by verdict, skipped devices left out. */
class ReservationChartSvgTest {

    private static DeviceReport device(String name, Verdict status, long reservation, Long budget, Long memory) {
        return new DeviceReport(name, null, "9.0", "sm_90", 270_336, 132L, memory, "", status,
                status == Verdict.SKIPPED ? "no compatible SASS" : null, status == Verdict.SKIPPED ? null : "sm_90",
                false, new TreeMap<>(), reservation, reservation, Math.max(0, reservation - 270_336L * 1024), budget,
                null, null, null, null, List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
    }

    @Test
    void oneBarPerCheckedDeviceOnOneScaleWithBudgetMarks() {
        long gib = 1L << 30;
        String svg = ReservationChartSvg.svg(List.of(
                device("fits", Verdict.PASS, gib, 4 * gib, 80 * gib),
                device("near <edge>", Verdict.PASS, 3 * gib + gib / 2, 4 * gib, null),
                device("over", Verdict.FAIL, 2 * gib, gib, 24 * gib),
                device("no budget", Verdict.PASS, gib / 2, null, null),
                device("skipped", Verdict.SKIPPED, 0, gib, null)));
        // the scale is the largest reservation or budget: 4 GiB -> 420 px; 1 GiB is 105 px
        assertThat(svg).contains(">4.00 GiB</text>", "width=\"105\" height=\"18\" fill=\"#2e7d32\"",
                "width=\"368\" height=\"18\" fill=\"#ef8f00\"", "width=\"210\" height=\"18\" fill=\"#c62828\"",
                "width=\"53\" height=\"18\" fill=\"#2e7d32\"");
        assertThat(svg).contains(">near &lt;edge&gt;<").doesNotContain("skipped");
        assertThat(svg.split("stroke-dasharray", -1)).hasSize(4);
        assertThat(svg).contains(">1.00 GiB: 25.0% of budget, 1.3% of memory<", ">2.00 GiB: 200.0% of budget, 8.3% of memory<",
                ">512.00 MiB<");
    }

    @Test
    void noCheckedDeviceMeansNoChart() {
        assertThat(ReservationChartSvg.svg(List.of(device("skipped", Verdict.SKIPPED, 0, null, null)))).isNull();
        assertThat(ReservationChartSvg.dataUri(List.of())).isNull();
    }

    @Test
    void theDataUriCarriesTheSameDocument() {
        List<DeviceReport> devices = List.of(device("one", Verdict.PASS, 1 << 20, null, null));
        String uri = ReservationChartSvg.dataUri(devices);
        assertThat(uri).startsWith("data:image/svg+xml;base64,");
        assertThat(new String(Base64.getDecoder().decode(uri.substring(uri.indexOf(',') + 1)), StandardCharsets.UTF_8))
                .isEqualTo(ReservationChartSvg.svg(devices));
    }
}
