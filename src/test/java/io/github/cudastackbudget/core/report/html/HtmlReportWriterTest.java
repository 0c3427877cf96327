package io.github.cudastackbudget.core.report.html;

import static io.github.cudastackbudget.core.report.RecordedChecks.SEND_RECV_DISPLAY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportWriterTest {

    @TempDir
    static Path tmp;

    private static CheckRunner.Outcome recorded;
    private static ReportModel model;
    private static String page;

    @BeforeAll
    static void renderRecordedLibraries() throws Exception {
        recorded = ReportSamples.recordedLibraries(tmp.resolve("recorded"));
        model = ReportModel.read(recorded.reports().get(0));
        page = Files.readString(tmp.resolve("recorded").resolve("out").resolve(HtmlReportWriter.FILE_NAME));
    }

    private static String dataBlock(String html) {
        Matcher match = Pattern.compile("<script type=\"application/json\" id=\"csb-data\">(.*?)</script>",
                Pattern.DOTALL).matcher(html);
        assertThat(match.find()).as("data block").isTrue();
        return match.group(1);
    }

    @Test
    void checkWritesThePageNextToTheJson() {
        assertThat(recorded.reports()).contains(tmp.resolve("recorded").resolve("out").resolve("cuda-stack-budget.html"));
        assertThat(recorded.summary()).contains("Report: " + tmp.resolve("recorded").resolve("out")
                .resolve("cuda-stack-budget.html"));
        assertThat(page).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
    }

    @Test
    void pageShowsEveryDeviceWithItsVerdictFiguresAndWorstKernel() {
        for (int i = 0; i < model.devices().size(); i++) {
            DeviceReport device = model.devices().get(i);
            assertThat(page).contains("<section class=\"device\" id=\"device-" + i + "\">\n<h2>" + device.name());
            if (!device.skipped()) {
                // "516.00 MiB (541,065,216 B)"-style figure: human and exact
                assertThat(page).as(device.name()).contains(io.github.cudastackbudget.core.report.model.Figures
                        .human(device.reservationBytes()) + " <span class=\"exact\">("
                        + String.format(java.util.Locale.ROOT, "%,d", device.reservationBytes()) + " B)</span>");
            } else {
                assertThat(page).contains(Html.escape(device.skipReason()));
            }
        }
        DeviceReport h200 = model.devices().get(0);
        assertThat(h200.status().id()).isEqualTo("fail");
        assertThat(page).contains("<span class=\"badge fail\">FAIL</span>")
                .contains("<span class=\"badge skipped\">SKIPPED</span>");
        // at a glance: over budget by how much, which kernel in which library, what if it shrank
        assertThat(page).contains(Html.escape(h200.worstKernel().displayName()))
                .contains(" over</strong> its ")
                .contains("If that frame shrank to the next-worst, " + String.format(java.util.Locale.ROOT, "%,d",
                        h200.nextWorstKernel().stack()) + " B");
        assertThat(page).contains("<svg class=\"chart\"").contains("<rect class=\"bar\"")
                .contains("<line class=\"budget\"").contains("<rect class=\"mem\"");
        assertThat(countOf(page, "<g class=\"device ")).isEqualTo(model.devices().size());
        for (var library : model.libraries()) {
            assertThat(page).contains("<span class=\"lib\" title=\"" + Html.escape(library.path()) + "\">"
                    + Html.escape(library.library()) + "</span>");
        }
    }

    @Test
    void kernelNamesAreEscapedEverywhere() throws Exception {
        assertThat(SEND_RECV_DISPLAY).contains("<4096ul>");
        String data = dataBlock(page);
        // the markup escapes them; the data block holds them as JSON text, where only "</" and "<!" could matter
        assertThat(page.replace(data, "")).doesNotContain("<4096ul>")
                .contains("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage&lt;4096ul&gt;)");
        assertThat(data).doesNotContain("</").doesNotContain("<!");
        JsonNode decoded = new ObjectMapper().readTree(data);
        assertThat(names(decoded)).contains(SEND_RECV_DISPLAY);
        // hostile names: escaped as text, never markup
        assertThat(Html.escape("a<b>&\"c'</script>")).isEqualTo("a&lt;b&gt;&amp;&quot;c&#39;&lt;/script&gt;");
        assertThat(page.indexOf("</script>")).isEqualTo(page.indexOf("</script>\n<script>\n") );
    }

    /**
     * The block's names, decoded as page.js decodes them: front-coded (shared prefix length, rest), the rests either
     * deflated chunks joined by U+0000 ({@code nz}: base64 of zlib) or plain ({@code ns}).
     */
    static List<String> names(JsonNode data) throws java.util.zip.DataFormatException {
        List<String> rests = new java.util.ArrayList<>();
        if (data.has("nz")) {
            List<String> parts = new java.util.ArrayList<>();
            for (JsonNode chunk : data.get("nz")) {
                parts.add(inflate(java.util.Base64.getDecoder().decode(chunk.textValue())));
            }
            if (!parts.isEmpty()) {
                rests.addAll(java.util.Arrays.asList(String.join("\u0000", parts).split("\u0000", -1)));
            }
        } else {
            data.get("ns").forEach(rest -> rests.add(rest.textValue()));
        }
        assertThat(rests).hasSize(data.get("np").size());
        List<String> names = new java.util.ArrayList<>();
        String previous = "";
        for (int i = 0; i < rests.size(); i++) {
            previous = previous.substring(0, data.get("np").get(i).intValue()) + rests.get(i);
            names.add(previous);
        }
        return names;
    }

    /** A zlib stream's bytes as UTF-8 text (what DecompressionStream('deflate') and Response.text() give). */
    static String inflate(byte[] zlib) throws java.util.zip.DataFormatException {
        java.util.zip.Inflater inflater = new java.util.zip.Inflater();
        try {
            inflater.setInput(zlib);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[64 * 1024];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new java.util.zip.DataFormatException("truncated zlib stream");
                }
                out.write(buffer, 0, n);
            }
            return out.toString(java.nio.charset.StandardCharsets.UTF_8);
        } finally {
            inflater.end();
        }
    }

    /** The block's records, decoded as page.js decodes them: FIELDS integers each. */
    static List<long[]> records(JsonNode data) {
        List<long[]> records = new java.util.ArrayList<>();
        JsonNode f = data.get("f");
        for (int q = 0; q < f.size(); ) {
            long name = f.get(q).longValue();
            long library = f.get(q + 1).longValue();
            int images = f.get(q + 2).intValue();
            q += 3;
            for (int m = 0; m < images; m++, q += KernelData.IMAGE_FIELDS) {
                records.add(new long[] {name, library, f.get(q).longValue(), f.get(q + 1).longValue(),
                        f.get(q + 2).longValue(), f.get(q + 3).longValue(), f.get(q + 4).longValue()});
            }
        }
        return records;
    }

    @Test
    void compactDataDecodesToTheModelsRecordsAndDeviceSelections() throws Exception {
        JsonNode data = new ObjectMapper().readTree(dataBlock(page));
        List<String> names = names(data);
        assertThat(names).isSorted().doesNotHaveDuplicates();
        List<long[]> records = records(data);
        assertThat(records).hasSize(model.recordCount());
        // each function once: fewer entries than records
        assertThat(data.get("f").size()).isLessThan(model.recordCount() * KernelData.FIELDS);
        for (int i = 0; i < model.recordCount(); i++) {
            KernelRow row = model.kernels().get(i);
            long[] k = records.get(i);
            assertThat(k).hasSize(KernelData.FIELDS);
            assertThat(names.get((int) k[0])).isEqualTo(row.displayName());
            assertThat(data.get("libs").get((int) k[1]).textValue()).isEqualTo(row.library());
            assertThat(data.get("arches").get((int) k[2]).textValue()).isEqualTo(row.arch());
            assertThat(k[3]).isEqualTo(row.stackUnknown() ? -1 : row.stack());
            assertThat(k[4]).isEqualTo(row.local());
            assertThat(k[5]).isEqualTo(row.shared());
            assertThat(k[6]).isEqualTo(row.registers());
        }
        for (int d = 0; d < model.devices().size(); d++) {
            JsonNode selected = data.get("devices").get(d);
            List<KernelRow> expected = model.devices().get(d).selectedKernels();
            assertThat(selected.size()).isEqualTo(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(model.kernels().get(selected.get(i).intValue())).isEqualTo(expected.get(i));
            }
        }
    }

    @Test
    void firstRowsAreTheWorstKernelsAndTheCountSaysHowManyMore() {
        DeviceReport h200 = model.devices().get(0);
        String section = page.substring(page.indexOf("id=\"device-0\""), page.indexOf("id=\"device-1\""));
        assertThat(section).contains("Showing 25 of " + String.format(java.util.Locale.ROOT, "%,d",
                h200.selectedKernels().size()) + " functions this device runs");
        assertThat(countOf(section, "<tr><td class=\"num\">")).isEqualTo(25);
        assertThat(section).contains("<tr><td class=\"num\">1</td><td class=\"kname\">"
                + Html.escape(h200.worstKernel().displayName()) + "</td>");
    }

    @Test
    void nothingOnThePageReachesTheNetwork() {
        assertThat(page).contains("Content-Security-Policy\" content=\"default-src 'none';");
        // URLs may appear as text (the GPU catalog names its sources), never as something the page loads
        assertThat(Pattern.compile("(?i)<(img|link|iframe|object|embed|audio|video|source|base)\\b").matcher(page).find())
                .as("an element that loads something").isFalse();
        assertThat(Pattern.compile("(?i)\\s(src|href|action|xlink:href|srcset)=\"(?!#)").matcher(page).find())
                .as("an attribute that points outside the page").isFalse();
        assertThat(page).doesNotContain("url(").doesNotContain("@import").doesNotContain("fetch(")
                .doesNotContain("XMLHttpRequest").doesNotContain("WebSocket").doesNotContain("sendBeacon");
    }

    @Test
    void theSameReportGivesAByteIdenticalPage() throws Exception {
        String again = HtmlReportWriter.render(ReportModel.read(recorded.reports().get(0)), 25);
        assertThat(again).isEqualTo(page);
        assertThat(HtmlReportWriter.render(ReportModel.of(recorded.result()), 25)).isEqualTo(page);
        CheckRunner.Outcome second = ReportSamples.recordedLibraries(tmp.resolve("recorded"));
        assertThat(Files.readString(second.reports().get(2))).isEqualTo(page);
    }

    @Test
    void unknownStacksArchivesAndSkippedDevicesOfTheTestBinaries() throws Exception {
        CheckRunner.Outcome outcome = ReportSamples.testBinaries(tmp.resolve("binaries"));
        ReportModel binaries = ReportModel.read(outcome.reports().get(0));
        String html = Files.readString(outcome.reports().get(2));
        assertThat(binaries.devices().get(0).unknownStack()).isNotEmpty();
        assertThat(html).contains("Kernels with an UNKNOWN stack frame").contains("<td class=\"num unknown\">UNKNOWN</td>")
                .contains("libframes.a(frames.o)").contains("recursiveKernel");
    }

    @Test
    void aDeviceAtEightyPercentOfItsBudgetIsMarkedNear() throws Exception {
        CheckRunner.Outcome outcome = io.github.cudastackbudget.core.report.RecordedChecks.run(
                io.github.cudastackbudget.core.report.RecordedChecks.allLibraries(tmp.resolve("near"),
                        ReportSamples.PRESETS, "375 MiB", null));
        ReportModel near = ReportModel.read(outcome.reports().get(0));
        DeviceReport rtx = near.devices().get(2);
        assertThat(rtx.name()).isEqualTo("rtx-5090");
        assertThat(rtx.percentOfBudget()).isEqualTo("85.0%");
        String html = Files.readString(outcome.reports().get(2));
        assertThat(html).contains("<span class=\"badge near\">PASS (near)</span>").contains("(near the limit)")
                .contains("<g class=\"device near\">");
    }

    @Test
    void hostileTextCannotBreakOutOfTheMarkupOrTheDataBlock() throws Exception {
        String evil = "k</script><script>alert(1)</script><b title=\"x\">&amp;'";
        KernelRow row = new KernelRow("_Z4evilv", evil, "lib<evil>.so", "sm_90", 8, 64, false, 0, 0);
        DeviceReport device = new DeviceReport("gpu <b>\"1\"</b>", null, "9.0", "sm_90", 1024, null, null, "",
                io.github.cudastackbudget.core.report.model.Verdict.PASS, null, "sm_90", false,
                new java.util.TreeMap<>(java.util.Map.of("sm_90", 1)), 65536, 65536, 0, null, row, null, null, 0L,
                List.of(row), List.of(), List.of(), List.of(), List.of(), List.of(), null);
        ReportModel hostile = new ReportModel(1, "engine <x>", "configured", 1, List.of(), List.of(device),
                List.of(row), List.of(), List.of("warning </li><script>"));
        String html = HtmlReportWriter.render(hostile, 25);
        assertThat(html).doesNotContain("<script>alert");
        assertThat(html.replace(dataBlock(html), "")).doesNotContain("<b title").doesNotContain("<evil>")
                .doesNotContain("gpu <b>").doesNotContain("</li><script>")
                .contains("k&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b title=&quot;x&quot;&gt;&amp;amp;&#39;")
                .contains("gpu &lt;b&gt;&quot;1&quot;&lt;/b&gt;");
        String data = dataBlock(html);
        assertThat(data).doesNotContain("</").doesNotContain("<!").doesNotContainIgnoringCase("<script");
        // the escapes read back as the text itself
        assertThat(names(readTree(data))).containsExactly(evil);
        String evilToo = "x<!--<SCRIPT></Script>\u2028<s";
        String escaped = KernelData.scriptSafe("[\"" + evilToo + "\"]");
        assertThat(escaped).doesNotContain("</").doesNotContain("<!").doesNotContainIgnoringCase("<script");
        assertThat(readTree(escaped).get(0).textValue()).isEqualTo(evilToo);
        assertThat(countOf(html, "<script")).isEqualTo(2);
        assertThat(countOf(html, "</script>")).isEqualTo(2);
    }

    @Test
    void aReportWithoutKernelsSaysSo() {
        ReportModel empty = new ReportModel(1, "cuobjdump 13.0", "configured", 3, List.of(), List.of(), List.of(),
                List.of(), List.of());
        String html = HtmlReportWriter.render(empty, 25);
        assertThat(html).contains("No CUDA kernels were found in 3 scanned files").contains("No file held CUDA device code")
                .doesNotContain("class=\"ktable\"");
    }

    private static JsonNode readTree(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A device's list longer than the page shows: the first {@link HtmlReportWriter#NOTE_LIMIT} notes in order, the
     * rest counted (issue 11: the notes past the limit are no longer rendered at all, so this pins what the list
     * shows).
     */
    @Test
    void aLongNoteListShowsTheFirstNotesInOrderAndCountsTheRest() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode json = (com.fasterxml.jackson.databind.node.ObjectNode) mapper
                .readTree(recorded.reports().get(0).toFile());
        int functions = json.get("functions").size();
        int notes = HtmlReportWriter.NOTE_LIMIT + 7;
        com.fasterxml.jackson.databind.node.ArrayNode jit = mapper.createArrayNode();
        for (int i = 0; i < notes; i++) {
            jit.addObject().put("function", i % functions).put("jitFrom", "compute_" + (50 + i));
        }
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("devices").get(0)).set("jitKernels", jit);
        Path file = tmp.resolve("long-notes.json");
        mapper.writeValue(file.toFile(), json);
        String html = HtmlReportWriter.render(ReportModel.read(file), 20);
        String summary = "Functions this device would JIT-compile from PTX (frame unknown at build time): "
                + io.github.cudastackbudget.core.report.model.Figures.grouped(notes) + "</summary>";
        int start = html.indexOf(summary);
        assertThat(start).as("the JIT list").isPositive();
        String list = html.substring(start, html.indexOf("</details>", start));
        assertThat(countOf(list, "<li>")).isEqualTo(HtmlReportWriter.NOTE_LIMIT);
        assertThat(list).contains("from compute_50</span></li>")
                .contains("from compute_" + (50 + HtmlReportWriter.NOTE_LIMIT - 1) + "</span></li>")
                .doesNotContain("from compute_" + (50 + HtmlReportWriter.NOTE_LIMIT) + "<")
                .contains("\u2026 and 7 more in cuda-stack-budget.json</li>");
        assertThat(list.indexOf("from compute_50<")).isLessThan(list.indexOf("from compute_51<"));
    }

    private static int countOf(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
