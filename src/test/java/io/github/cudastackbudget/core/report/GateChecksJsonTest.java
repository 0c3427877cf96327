package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate checks in the JSON report (key {@code checks}) and the text report (its own section). */
class GateChecksJsonTest {

    private static ReportModel model;

    @BeforeAll
    static void check(@TempDir Path work) throws Exception {
        model = OutputsFixture.model(work);
    }

    private static byte[] json(ReportModel report) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReportWriter.write(report, out);
        return out.toByteArray();
    }

    @Test
    void theChecksAreWrittenUnderChecksInTheirOrderAndReadBack() throws Exception {
        byte[] bytes = json(model);
        JsonNode checks = new ObjectMapper().readTree(bytes).get("checks");

        assertThat(checks).hasSize(3);
        assertThat(checks.get(0).toString()).isEqualTo("{\"category\":\"rule\",\"name\":\"h200-frame\","
                + "\"outcome\":\"fail\",\"device\":\"h200-141gb\",\"library\":\"libframes.so\","
                + "\"kernel\":\"_Z11frameKernelILi2550EEvPii\",\"arch\":\"sm_90a\",\"actual\":10208,\"limit\":8192,"
                + "\"message\":\"rule h200-frame: frame 10,208 B > 8,192 B of void frameKernel<2550>(int*, int) "
                + "[sm_90a] in libframes.so <&> \\\"quoted\\\" | piped *starred*\"}");
        assertThat(checks.get(1).get("device").isNull()).isTrue();
        assertThat(checks.get(2).get("outcome").asText()).isEqualTo("pass");
        ReportModel read = ReportModel.read(new ByteArrayInputStream(bytes), "test.json");
        assertThat(read.checks()).isEqualTo(OutputsFixture.CHECKS);
        assertThat(json(read)).isEqualTo(bytes);
    }

    @Test
    void withoutChecksTheJsonHasNoChecksKeyAndIsTheSameAsBefore() throws Exception {
        ReportModel without = OutputsFixture.withChecks(model, List.of());
        String text = new String(json(without), StandardCharsets.UTF_8);

        assertThat(text).doesNotContain("\"checks\"");
        assertThat(ReportModel.read(new ByteArrayInputStream(json(without)), "test.json").checks()).isEmpty();
        String with = new String(json(model), StandardCharsets.UTF_8);
        assertThat(with.substring(0, with.indexOf(",\n  \"checks\""))).isEqualTo(text.substring(0,
                text.lastIndexOf('}')).stripTrailing());
    }

    @Test
    void theTextReportListsTheChecksInTheirOwnSection() {
        List<String> lines = TextReport.render(model, 25, false);
        int at = lines.indexOf("Gate checks (3: 1 failed, 1 warned, 1 passed):");

        assertThat(at).isPositive();
        assertThat(lines.subList(at + 1, at + 4)).containsExactly(
                "  FAIL rule h200-frame: " + OutputsFixture.CHECKS.get(0).message(),
                "  WARN suppression legacy-kernel: suppression legacy-kernel matched nothing; remove it",
                "  PASS baseline growth: l4 grew by 0 B (at most 1 KiB)");
        assertThat(TextReport.render(OutputsFixture.withChecks(model, List.of()), 25, false))
                .noneMatch(line -> line.startsWith("Gate checks"));
    }

    @Test
    void aReportOfACheckThatCouldNotRunIsRefusedNamingItsError() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReportWriter.writeError("cuobjdump was not found", out);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
                "{\n  \"schemaVersion\": 2,\n  \"error\": \"cuobjdump was not found\"\n}\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReportModel.read(
                new ByteArrayInputStream(out.toByteArray()), "out/cuda-stack-budget.json"))
                .hasMessage("out/cuda-stack-budget.json: the check that wrote this report failed (cuobjdump was not "
                        + "found); fix that and run the check goal again");
    }
}
