package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SARIF 2.1.0 log: its structure as the specification and GitHub code scanning read it. */
class SarifReportWriterTest {

    private static ReportModel model;

    @BeforeAll
    static void check(@TempDir Path work) throws Exception {
        model = ReportPaths.relativeTo(OutputsFixture.model(work), work);
    }

    private static byte[] sarif(ReportModel report) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SarifReportWriter.write(report, Frontend.PARAMETERS, out);
        return out.toByteArray();
    }

    @Test
    void oneRunWithTheToolItsRulesAndAResultPerViolationAndFailedOrWarnedCheck() throws Exception {
        JsonNode log = new ObjectMapper().readTree(sarif(model));

        assertThat(log.get("version").asText()).isEqualTo("2.1.0");
        assertThat(log.get("$schema").asText()).isEqualTo("https://json.schemastore.org/sarif-2.1.0.json");
        assertThat(log.get("runs")).hasSize(1);
        JsonNode run = log.get("runs").get(0);
        JsonNode driver = run.at("/tool/driver");
        assertThat(driver.get("name").asText()).isEqualTo("cuda-stack-budget");
        assertThat(driver.get("version").asText()).isNotBlank();
        List<String> rules = new ArrayList<>();
        driver.get("rules").forEach(rule -> rules.add(rule.get("id").asText()));
        assertThat(rules).containsExactly("maxReservation", "rule/h200-frame", "suppression/legacy-kernel");
        assertThat(run.at("/invocations/0/executionSuccessful").asBoolean()).isTrue();
        JsonNode results = run.get("results");
        assertThat(results).hasSize(model.violations().size() + 2);
        for (JsonNode result : results) {
            assertThat(rules.get(result.get("ruleIndex").asInt())).isEqualTo(result.get("ruleId").asText());
            assertThat(result.get("level").asText()).isIn("error", "warning");
            assertThat(result.at("/message/text").asText()).isNotBlank();
            assertThat(result.get("locations").isArray()).isTrue();
        }
    }

    @Test
    void aViolationIsAnErrorAtTheLibraryRelativeToTheProjectWithDeviceKernelArchAndBytes() throws Exception {
        JsonNode result = new ObjectMapper().readTree(sarif(model)).at("/runs/0/results/0");

        assertThat(result.get("ruleId").asText()).isEqualTo("maxReservation");
        assertThat(result.get("level").asText()).isEqualTo("error");
        assertThat(result.at("/message/text").asText()).startsWith("h200-141gb: stack reservation 2.57 GiB");
        assertThat(result.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("libs/libframes.so");
        assertThat(result.at("/locations/0/physicalLocation/artifactLocation/uriBaseId").asText())
                .isEqualTo("%SRCROOT%");
        JsonNode properties = result.get("properties");
        assertThat(properties.get("device").asText()).isEqualTo("h200-141gb");
        assertThat(properties.get("kernel").asText()).isEqualTo("_Z11frameKernelILi2550EEvPii");
        assertThat(properties.get("arch").asText()).isEqualTo("sm_90a");
        assertThat(properties.get("bytes").asLong()).isEqualTo(2_759_589_888L);
        assertThat(properties.get("limitBytes").asLong()).isEqualTo(1_073_741_824L);
    }

    @Test
    void aWarnedCheckIsAWarningAndAPassedOneNoResult() throws Exception {
        JsonNode results = new ObjectMapper().readTree(sarif(model)).at("/runs/0/results");

        assertThat(results.get(1).get("level").asText()).isEqualTo("error");
        assertThat(results.get(1).at("/properties/bytes").asLong()).isEqualTo(10_208L);
        assertThat(results.get(2).get("ruleId").asText()).isEqualTo("suppression/legacy-kernel");
        assertThat(results.get(2).get("level").asText()).isEqualTo("warning");
        assertThat(results.get(2).get("locations")).isEmpty();
        assertThat(results.toString()).doesNotContain("baseline");
    }

    @Test
    void theSameModelGivesTheSameBytes() throws Exception {
        assertThat(sarif(model)).isEqualTo(sarif(model));
    }

    @Test
    void aCheckThatCouldNotRunIsARunThatDidNotExecuteSuccessfully() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SarifReportWriter.writeError("libx.so: not readable", out);
        JsonNode run = new ObjectMapper().readTree(out.toByteArray()).at("/runs/0");

        assertThat(run.at("/invocations/0/executionSuccessful").asBoolean()).isFalse();
        assertThat(run.at("/invocations/0/toolExecutionNotifications/0/level").asText()).isEqualTo("error");
        assertThat(run.at("/invocations/0/toolExecutionNotifications/0/message/text").asText())
                .isEqualTo("libx.so: not readable");
        assertThat(run.get("results")).isEmpty();
        assertThat(run.at("/tool/driver/name").asText()).isEqualTo("cuda-stack-budget");
    }

    @Test
    void aRelativePathIsARelativeUriReference() {
        assertThat(SarifReportWriter.relativeUri("target/my libs/libx#1.so")).isEqualTo("target/my%20libs/libx%231.so");
        assertThat(SarifReportWriter.relativeUri("target\\native\\libx.so")).isEqualTo("target/native/libx.so");
    }
}
