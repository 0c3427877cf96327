package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.FunctionNote;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.Verdict;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.doxia.module.xhtml5.Xhtml5SinkFactory;
import org.apache.maven.doxia.sink.Sink;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The site page rendered through Doxia's XHTML5 sink from a real report: the check over the real cuobjdump 13.0
 * recording of libnccl.so.2 (../shared/fixtures/cuobjdump), read back from its JSON like the goal does.
 */
class SiteReportRendererTest {

    private static final int TOP = 5;

    @TempDir
    static Path tmp;

    private static ReportModel nccl;
    private static String page;

    @BeforeAll
    static void renderTheNcclReport() throws Exception {
        Path library = RecordedCuobjdump.stage(tmp.resolve("libs"), RecordedCuobjdump.NCCL);
        Path cuobjdump = RecordedCuobjdump.replayByName(Files.createDirectories(tmp.resolve("tool")));
        CheckOptions options = new CheckOptions(List.of(), List.of(library), "org.example:trainer:1.0", "cuobjdump",
                cuobjdump.toString(), Duration.ofSeconds(120), 2, List.of(), "h100-sxm5-80gb,l4,v100-sxm2-32gb", false,
                "256 MiB", null, tmp.resolve("out"), 25, false, Map.of("PATH", System.getenv().getOrDefault("PATH", "")));
        CheckRunner.Outcome outcome = CheckRunner.run(options, CheckListener.SILENT);
        nccl = ReportModel.read(outcome.reports().get(0));
        page = render(nccl, TOP);
    }

    static String render(ReportModel model, int top) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Sink sink = new Xhtml5SinkFactory().createSink(out, "UTF-8");
        new SiteReportRenderer(sink, model, top, "Figures from cuda-stack-budget.json, written by the check goal.")
                .render();
        sink.close();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theLibrariesOfTwoPlatformsShowTheirPlatformAndEachDevicesWorstPerPlatform() throws Exception {
        Path dll = Files.write(tmp.resolve("ort_slice.dll"), io.github.cudastackbudget.core.binary.WriteItDll.dll());
        Path so = RecordedCuobjdump.testCuda("libframes.so");
        CheckRunner.Outcome outcome = CheckRunner.run(CheckOptions.builder().libraryFiles(List.of(so, dll))
                .engine("native").devicePresets("l4").detectLocalDevices(false).maxReservation("500 MiB")
                .platforms("windows").outputDirectory(tmp.resolve("two-platforms")).environment(Map.of()).build(),
                CheckListener.SILENT);

        String site = render(ReportModel.read(outcome.reports().get(0)), TOP);

        assertThat(site).contains("<th>Platform</th>").contains(">linux-x86_64 (not gated)</td>")
                .contains(">windows-x86_64</td>")
                .contains("Per platform (each platform's libraries alone, static worst case) (2):")
                .containsPattern("linux-x86_64 \\(not gated\\): 867\\.28 MiB \\(909,410,304 B\\), [^<]*libframes\\.so, "
                        + "10,200 B per thread, over budget")
                .containsPattern("windows-x86_64: 0 B, [^<]*ort_slice\\.dll, 0 B per thread<");
        assertThat(render(nccl, TOP)).as("one platform: no breakdown").doesNotContain("Per platform");
    }

    private static String unescaped() {
        return page.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    }

    private static DeviceReport device(String name) {
        return nccl.devices().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theRecordedReportHasTheShapeTheseTestsNeed() {
        assertThat(device("h100-sxm5-80gb").status()).isEqualTo(Verdict.FAIL);
        assertThat(device("l4").fellBack()).isTrue();
        assertThat(device("l4").status()).isEqualTo(Verdict.PASS);
        assertThat(device("v100-sxm2-32gb").skipped()).isTrue();
        assertThat(device("h100-sxm5-80gb").kernelsWithFrame()).hasSizeGreaterThan(TOP);
    }

    @Test
    void everyDeviceRowShowsVerdictExactReservationBudgetArchAndWorstKernel() {
        String text = unescaped();
        for (DeviceReport device : nccl.devices()) {
            Matcher row = Pattern.compile("(?s)<tr[^>]*>\\s*<td[^>]*>" + Pattern.quote(device.name()) + "<br\\s*/?>"
                    + Pattern.quote(device.targetArch() + ", " + String.format(Locale.ROOT, "%,d",
                            device.maxResidentThreads()) + " threads") + "(.*?)</tr>").matcher(text);
            assertThat(row.find()).as("row of %s", device.name()).isTrue();
            String cells = row.group(1);
            assertThat(cells).contains(device.status() == Verdict.FAIL ? "<b>FAIL</b>" : device.status().name());
            if (device.skipped()) {
                assertThat(cells).contains("skipped: " + device.skipReason());
                continue;
            }
            assertThat(cells).contains(String.format(Locale.ROOT, "%,d", device.reservationBytes()) + " B<",
                    ">256.00 MiB<", "runs " + device.chosenArch() + "</td>",
                    "<code>" + device.worstKernel().displayName() + "</code>", device.worstKernel().arch()
                            + ", libnccl.so.2, " + device.worstKernel().stackLabel() + " B per thread");
        }
        assertThat(text).contains("no sm_89 SASS: runs sm_80");
    }

    @Test
    void violationsNameDeviceFigureAndKernel() {
        DeviceReport h100 = device("h100-sxm5-80gb");
        assertThat(unescaped()).contains("<li><b>h100-sxm5-80gb</b>: stack reservation "
                + io.github.cudastackbudget.core.report.model.Figures.bytes(h100.reservationBytes())
                + " exceeds maxReservation 256.00 MiB (268,435,456 B); kernel <code>"
                + h100.worstKernel().displayName() + "</code> [" + h100.worstKernel().arch() + "] in libnccl.so.2</li>");
    }

    @Test
    void worstKernelsAreCutToTopWithEveryColumn() {
        DeviceReport h100 = device("h100-sxm5-80gb");
        String text = unescaped();
        String section = text.substring(text.indexOf("<h3>h100-sxm5-80gb: fail</h3>"), text.indexOf("<h3>l4: "));
        assertThat(section).contains("(the " + TOP + " largest of " + h100.kernelsWithFrame().size()
                + "; set top to 0 to list all)");
        assertThat(Pattern.compile("<tr[^>]*>\\s*<td[^>]*><code>").matcher(section).results().count()).isEqualTo(TOP);
        for (KernelRow kernel : h100.worstKernels(TOP)) {
            assertThat(section).contains("<code>" + kernel.displayName() + "</code></td>\n<td style=\"text-align: left;\">"
                    + kernel.library() + "</td>\n<td style=\"text-align: left;\">" + kernel.arch()
                    + "</td>\n<td style=\"text-align: right;\">" + kernel.stackLabel()
                    + "</td>\n<td style=\"text-align: right;\">" + String.format(Locale.ROOT, "%,d", kernel.local())
                    + "</td>\n<td style=\"text-align: right;\">" + String.format(Locale.ROOT, "%,d", kernel.shared())
                    + "</td>\n<td style=\"text-align: right;\">" + kernel.registers() + "</td>");
        }
    }

    @Test
    void theLibraryTableListsArchesWorstFrameAndUser() {
        var library = nccl.libraries().get(0);
        String text = unescaped();
        String section = text.substring(text.indexOf("<h2>Libraries</h2>"));
        assertThat(section).contains("libnccl.so.2", String.join(", ", library.sassArches()),
                ">" + String.format(Locale.ROOT, "%,d", library.maxStack()) + "<", "org.example:trainer:1.0",
                ">" + String.format(Locale.ROOT, "%,d", library.kernels()) + "<");
    }

    @Test
    void theChartIsAnSvgFigureWithOneBarPerCheckedDevice() {
        Matcher image = Pattern.compile("<figure><img src=\"data:image/svg\\+xml;base64,([A-Za-z0-9+/=]+)\"")
                .matcher(page);
        assertThat(image.find()).isTrue();
        String svg = new String(Base64.getDecoder().decode(image.group(1)), StandardCharsets.UTF_8);
        assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
                .contains(">h100-sxm5-80gb<", ">l4<").doesNotContain("v100-sxm2-32gb")
                .contains("fill=\"#c62828\"", "stroke-dasharray");
        assertThat(page).doesNotContain("<script", "<style");
    }

    @Test
    void theSameReportGivesTheSamePage() throws Exception {
        assertThat(render(nccl, TOP)).isEqualTo(page);
    }

    @Test
    void topZeroListsEveryKernelWithAFrame() throws Exception {
        String all = render(nccl, 0);
        assertThat(all).doesNotContain("set top to 0");
        assertThat(all.length()).isGreaterThan(page.length());
    }

    @Test
    void longFunctionListsAreCutToTop() throws Exception {
        DeviceReport h100 = device("h100-sxm5-80gb");
        List<FunctionNote> cannotRun = nccl.kernels().stream()
                .filter(k -> k.arch().equals("sm_90")).limit(TOP + 3)
                .map(k -> new FunctionNote(k.name(), k.displayName(), k.library(), null, null, List.of())).toList();
        DeviceReport listed = new DeviceReport(h100.name(), h100.preset(), h100.computeCapability(),
                h100.targetArch(), h100.maxResidentThreads(), h100.multiProcessorCount(), h100.memoryBytes(),
                h100.figuresSource(), h100.status(), h100.skipReason(), h100.chosenArch(), h100.fellBack(),
                h100.imageCounts(), h100.reservationBytes(), h100.staticReservationBytes(), h100.incrementBytes(),
                h100.budgetBytes(), h100.worstKernel(), h100.worstLocalKernel(), h100.nextWorstKernel(),
                h100.reservationIfWorstShrinksBytes(), h100.selectedKernels(), h100.unknownStack(), h100.jit(),
                cannotRun, h100.ambiguous(), h100.violations(), null);
        ReportModel model = new ReportModel(nccl.schemaVersion(), nccl.engine(), nccl.deviceOrigin(),
                nccl.filesProbed(), nccl.libraries(), List.of(listed), nccl.kernels(), nccl.violations(),
                nccl.warnings());
        String text = render(model, TOP).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        assertThat(text).contains("Functions that cannot run on this device (no usable SASS or PTX) (" + (TOP + 3)
                + "):", cannotRun.get(TOP - 1).displayName() + " in libnccl.so.2",
                "<li><i>and 3 more (set top to 0 to list all)</i></li>");
        assertThat(text).doesNotContain(cannotRun.get(TOP).displayName() + " in libnccl.so.2</li>");
        assertThat(render(model, 0)).doesNotContain("and 3 more");
    }

    @Test
    void aReportWithoutKernelsSaysSo() throws Exception {
        ReportModel empty = new ReportModel(1, "cuobjdump", "configured", 3, List.of(), List.of(), List.of(), List.of(),
                List.of());
        assertThat(render(empty, TOP)).contains("No CUDA kernels were found in the 3 scanned file(s)")
                .doesNotContain("<table");
    }
}
