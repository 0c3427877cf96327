package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * The check writes exactly the selected formats (a format left from an earlier run is deleted), appends the Markdown
 * summary to {@code $GITHUB_STEP_SUMMARY}, names paths relative to the base directory, and on an error writes the
 * error into every selected report (or removes them all where the formats themselves are wrong).
 */
class ReportFormatsTest {

    private static final String ALL = "html,json,txt,markdown,junit,sarif";

    private static TreeSet<String> files(Path directory) throws Exception {
        try (Stream<Path> listing = Files.list(directory)) {
            return listing.map(path -> path.getFileName().toString()).collect(
                    java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    /** A file of every format, as an earlier run left them. */
    private static void earlierRun(Path out) throws Exception {
        Files.createDirectories(out);
        for (ReportFormat format : ReportFormat.values()) {
            Files.writeString(out.resolve(format.fileName()), "from an earlier run");
        }
    }

    /** The check's environment with {@code GITHUB_STEP_SUMMARY} (and PATH, for c++filt). */
    private static Map<String, String> environment(Path summary) {
        return Map.of("PATH", System.getenv().getOrDefault("PATH", ""), "GITHUB_STEP_SUMMARY", summary.toString());
    }

    @Test
    void theDefaultIsTodaysThreeAndNothingElse(@TempDir Path work) throws Exception {
        CheckRunner.Outcome outcome = CheckRunner.run(OutputsFixture.options(work).build(), CheckListener.SILENT);

        assertThat(files(work.resolve("out"))).containsExactly("cuda-stack-budget.html", "cuda-stack-budget.json",
                "cuda-stack-budget.txt");
        assertThat(outcome.reports()).extracting(path -> path.getFileName().toString())
                .containsExactly("cuda-stack-budget.json", "cuda-stack-budget.txt", "cuda-stack-budget.html");
    }

    @Test
    void everySelectedFormatIsWrittenInTheFixedOrderAndTheSummaryListsThem(@TempDir Path work) throws Exception {
        CheckRunner.Outcome outcome = CheckRunner.run(OutputsFixture.options(work)
                .output(OutputOptions.of(ALL, work)).build(), CheckListener.SILENT);

        assertThat(outcome.reports()).extracting(path -> path.getFileName().toString()).containsExactly(
                "cuda-stack-budget.json", "cuda-stack-budget.txt", "cuda-stack-budget.html", "cuda-stack-budget.md",
                "TEST-cuda-stack-budget.xml", "cuda-stack-budget.sarif");
        assertThat(files(work.resolve("out"))).hasSize(6);
        assertThat(outcome.summary()).contains("Report: " + work.resolve("out/cuda-stack-budget.sarif"));
    }

    @Test
    void aFormatNotSelectedLosesItsFileFromAnEarlierRun(@TempDir Path work) throws Exception {
        Path out = work.resolve("out");
        earlierRun(out);

        CheckRunner.run(OutputsFixture.options(work).output(OutputOptions.of("json,sarif", null)).build(),
                CheckListener.SILENT);

        assertThat(files(out)).containsExactly("cuda-stack-budget.json", "cuda-stack-budget.sarif");
        assertThat(Files.readString(out.resolve("cuda-stack-budget.sarif"))).contains("\"version\" : \"2.1.0\"");
    }

    @Test
    void theSameCheckWritesTheSameBytesInEveryFormat(@TempDir Path work) throws Exception {
        CheckOptions options = OutputsFixture.options(work).output(OutputOptions.of(ALL, work)).build();
        CheckRunner.run(options, CheckListener.SILENT);
        Map<String, String> first = new HashMap<>();
        for (ReportFormat format : ReportFormat.values()) {
            first.put(format.fileName(), Files.readString(work.resolve("out").resolve(format.fileName())));
        }

        CheckRunner.run(options, CheckListener.SILENT);

        for (ReportFormat format : ReportFormat.values()) {
            assertThat(Files.readString(work.resolve("out").resolve(format.fileName()))).as(format.fileName())
                    .isEqualTo(first.get(format.fileName()));
        }
    }

    @Test
    void libraryPathsAreRelativeToTheBaseDirectoryInEveryReport(@TempDir Path work) throws Exception {
        CheckRunner.run(OutputsFixture.options(work).output(OutputOptions.of(ALL, work)).build(),
                CheckListener.SILENT);
        Path out = work.resolve("out");
        String absolute = work.resolve("libs").toAbsolutePath().toString();

        JsonNode json = new ObjectMapper().readTree(out.resolve("cuda-stack-budget.json").toFile());
        assertThat(json.get("libraries").get(0).get("path").asText()).isEqualTo("libs/libframes.so");
        for (ReportFormat format : ReportFormat.values()) {
            assertThat(Files.readString(out.resolve(format.fileName()))).as(format.fileName()).doesNotContain(absolute);
        }
        JsonNode sarif = new ObjectMapper().readTree(out.resolve("cuda-stack-budget.sarif").toFile());
        assertThat(sarif.at("/runs/0/results/0/locations/0/physicalLocation/artifactLocation").toString())
                .isEqualTo("{\"uri\":\"libs/libframes.so\",\"uriBaseId\":\"%SRCROOT%\"}");
    }

    @Test
    void withoutABaseDirectoryPathsStayAsGivenAndSarifNamesTheAbsoluteFile(@TempDir Path work) throws Exception {
        CheckRunner.run(OutputsFixture.options(work).output(OutputOptions.of("json,sarif", null)).build(),
                CheckListener.SILENT);
        Path library = work.resolve("libs/libframes.so").toAbsolutePath();

        JsonNode json = new ObjectMapper().readTree(work.resolve("out/cuda-stack-budget.json").toFile());
        assertThat(json.get("libraries").get(0).get("path").asText()).isEqualTo(library.toString());
        JsonNode sarif = new ObjectMapper().readTree(work.resolve("out/cuda-stack-budget.sarif").toFile());
        assertThat(sarif.at("/runs/0/results/0/locations/0/physicalLocation/artifactLocation").toString())
                .isEqualTo("{\"uri\":\"" + library.toUri().toASCIIString() + "\"}");
    }

    @Test
    void theMarkdownSummaryIsAppendedToTheStepSummaryEvenWhenNotSelected(@TempDir Path work) throws Exception {
        Path summary = Files.writeString(work.resolve("step-summary.md"), "## an earlier step\n");
        CheckRunner.run(OutputsFixture.options(work).environment(environment(summary))
                .build(), CheckListener.SILENT);

        String text = Files.readString(summary);
        assertThat(text).startsWith("## an earlier step\n## CUDA stack budget: FAIL\n");
        assertThat(text).contains("| h200-141gb | FAIL | 2.57 GiB | 1.00 GiB | void frameKernel&lt;2550&gt;(int\\*, int) |");
        assertThat(text).endsWith("Reports: `" + work.resolve("out/cuda-stack-budget.json") + "`, `"
                + work.resolve("out/cuda-stack-budget.txt") + "`, `" + work.resolve("out/cuda-stack-budget.html")
                + "`\n");
        assertThat(work.resolve("out/cuda-stack-budget.md")).doesNotExist();

        CheckRunner.run(OutputsFixture.options(work).environment(environment(summary))
                .build(), CheckListener.SILENT);
        assertThat(Files.readString(summary)).isEqualTo(text + text.substring("## an earlier step\n".length()));
    }

    @Test
    void aToolErrorWritesTheErrorIntoEverySelectedReportAndLeavesNoneStale(@TempDir Path work) throws Exception {
        Path out = work.resolve("out");
        earlierRun(out);
        Path summary = work.resolve("step-summary.md");
        CheckOptions options = OutputsFixture.options(work).engine("cuobjdump")
                .cuobjdump(work.resolve("no-such-cuobjdump").toString())
                .output(OutputOptions.of("json,txt,markdown,junit,sarif", work))
                .environment(environment(summary)).build();

        CheckException error = org.junit.jupiter.api.Assertions.assertThrows(CheckException.class,
                () -> CheckRunner.run(options, CheckListener.SILENT));

        assertThat(error).isNotInstanceOf(CheckRunner.InvalidOptions.class);
        assertThat(files(out)).containsExactly("TEST-cuda-stack-budget.xml", "cuda-stack-budget.json",
                "cuda-stack-budget.md", "cuda-stack-budget.sarif", "cuda-stack-budget.txt");
        String message = error.getMessage();
        JsonNode json = new ObjectMapper().readTree(out.resolve("cuda-stack-budget.json").toFile());
        assertThat(json.get("error").asText()).isEqualTo(message);
        assertThatThrownBy(() -> ReportModel.read(out.resolve("cuda-stack-budget.json")))
                .hasMessageContaining("the check that wrote this report failed (" + message.substring(0, 40));
        assertThat(Files.readString(out.resolve("cuda-stack-budget.txt")))
                .contains("ERROR: the check could not run: " + message);
        assertThat(Files.readString(out.resolve("cuda-stack-budget.md"))).startsWith("## CUDA stack budget: ERROR\n");
        assertThat(Files.readString(summary)).startsWith("## CUDA stack budget: ERROR\n");
        Document junit = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(out.resolve("TEST-cuda-stack-budget.xml").toFile());
        assertThat(junit.getDocumentElement().getAttribute("errors")).isEqualTo("1");
        assertThat(junit.getElementsByTagName("error").item(0).getAttributes().getNamedItem("message")
                .getNodeValue()).isEqualTo(message);
        JsonNode sarif = new ObjectMapper().readTree(out.resolve("cuda-stack-budget.sarif").toFile());
        assertThat(sarif.at("/runs/0/invocations/0/executionSuccessful").asBoolean()).isFalse();
        assertThat(sarif.at("/runs/0/invocations/0/toolExecutionNotifications/0/message/text").asText())
                .isEqualTo(message);
        assertThat(sarif.at("/runs/0/results")).isEmpty();
    }

    @Test
    void anUnknownFormatIsMisuseAndRemovesEveryEarlierReport(@TempDir Path work) throws Exception {
        Path out = work.resolve("out");
        earlierRun(out);
        CheckOptions options = OutputsFixture.options(work).output(OutputOptions.of("json,pdf", work)).build();

        assertThatThrownBy(() -> CheckRunner.run(options, CheckListener.SILENT))
                .isInstanceOf(CheckRunner.InvalidOptions.class)
                .hasMessage("formats 'json,pdf': 'pdf' is not a report format; use a comma-separated list of json, "
                        + "txt, html, markdown, junit, sarif (default html,json,txt)");
        assertThatThrownBy(() -> CheckRunner.validate(options)).isInstanceOf(CheckRunner.InvalidOptions.class);
        assertThat(files(out)).isEmpty();
    }

    @Test
    void anInvalidBudgetIsMisuseAndItsReportsSayIt(@TempDir Path work) throws Exception {
        CheckOptions options = OutputsFixture.options(work).maxReservation("lots").build();

        CheckException error = org.junit.jupiter.api.Assertions.assertThrows(CheckException.class,
                () -> CheckRunner.run(options, CheckListener.SILENT));

        assertThat(error).isInstanceOf(CheckRunner.InvalidOptions.class);
        assertThat(Files.readString(work.resolve("out/cuda-stack-budget.txt"))).contains(error.getMessage());
        assertThat(Files.readString(work.resolve("out/cuda-stack-budget.html"))).contains("could not run");
    }

    @Test
    void everyFormatIsWrittenThroughATemporaryFileThatIsRenamed(@TempDir Path work) throws Exception {
        ReportModel model = OutputsFixture.model(work);
        Path out = work.resolve("direct");

        List<Path> written = ReportFiles.write(model, out, 25, Frontend.PARAMETERS,
                EnumSet.allOf(ReportFormat.class), null);

        assertThat(written).containsExactlyElementsOf(Arrays.stream(ReportFormat.values())
                .map(format -> out.resolve(format.fileName())).toList());
        try (Stream<Path> listing = Files.list(out)) {
            assertThat(listing.filter(path -> path.toString().endsWith(".tmp"))).isEmpty();
        }
        assertThat(new String(Files.readAllBytes(out.resolve("cuda-stack-budget.md")), StandardCharsets.UTF_8))
                .contains("[cuda-stack-budget.sarif](cuda-stack-budget.sarif)");
    }
}
