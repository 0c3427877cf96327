package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Schema 1 and schema 2 of the same checks: the goldens' JSON reports (schema 2, src/test/resources/golden/) and the
 * schema-1 files the same checks wrote before (src/test/resources/report-v1/, the goldens of commit ed7b5c2).
 */
class SchemaVersionsTest {

    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final Path V1 = Path.of("src", "test", "resources", "report-v1");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> scenarios() throws IOException {
        try (Stream<Path> files = Files.list(V1)) {
            List<String> names = files.map(p -> p.getFileName().toString().replace(".json.gz", "")).sorted().toList();
            assertThat(names).hasSize(8);
            return names;
        }
    }

    private static byte[] gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }

    private static ReportModel read(byte[] json, String source) throws IOException {
        return ReportModel.read(new ByteArrayInputStream(json), source);
    }

    /** The model with another schema version (the one field in which the two reads differ). */
    private static ReportModel version(ReportModel m, int version) {
        return new ReportModel(version, m.engine(), m.deviceOrigin(), m.filesProbed(), m.libraries(), m.devices(),
                m.kernels(), m.violations(), m.warnings(), m.launched(), m.filesWithDeviceCode(), m.unreadable());
    }

    @TestFactory
    Stream<DynamicTest> aVersionOneFileAndTheVersionTwoFileOfTheSameCheckGiveTheSameModel() throws IOException {
        return scenarios().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            byte[] one = gunzip(V1.resolve(name + ".json.gz"));
            byte[] two = gunzip(GOLDEN.resolve(name).resolve("cuda-stack-budget.json.gz"));
            ReportModel fromOne = read(one, name + " v1");
            ReportModel fromTwo = read(two, name + " v2");
            assertThat(fromOne.schemaVersion()).isEqualTo(1);
            assertThat(fromTwo.schemaVersion()).isEqualTo(2);
            assertThat(fromOne.kernels()).isNotEmpty();
            assertThat(version(fromOne, 2)).isEqualTo(fromTwo);
        }));
    }

    @TestFactory
    Stream<DynamicTest> theVersionTwoWriterWritesTheGoldenFromTheModelOfTheVersionOneFile() throws IOException {
        return scenarios().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            byte[] one = gunzip(V1.resolve(name + ".json.gz"));
            byte[] two = gunzip(GOLDEN.resolve(name).resolve("cuda-stack-budget.json.gz"));
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            JsonReportWriter.write(read(one, name), written);
            assertThat(written.toByteArray()).isEqualTo(two);
            // and the same facts in a smaller file
            assertThat(two.length).isLessThan(one.length);
        }));
    }

    @TestFactory
    Stream<DynamicTest> theDocumentedMigrationTurnsVersionTwoIntoTheVersionOneFile() throws IOException {
        return scenarios().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            JsonNode one = JSON.readTree(gunzip(V1.resolve(name + ".json.gz")));
            JsonNode two = JSON.readTree(gunzip(GOLDEN.resolve(name).resolve("cuda-stack-budget.json.gz")));
            assertThat(SchemaTwo.asVersionOne(two)).isEqualTo(one);
        }));
    }

    @TestFactory
    Stream<DynamicTest> eachFunctionIsListedOnceWithItsImages() throws IOException {
        return scenarios().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            JsonNode two = JSON.readTree(gunzip(GOLDEN.resolve(name).resolve("cuda-stack-budget.json.gz")));
            ReportModel model = read(gunzip(V1.resolve(name + ".json.gz")), name);
            List<String> functions = new java.util.ArrayList<>();
            two.get("functions").forEach(f -> functions.add(f.get("library").intValue() + " " + f.get("name")
                    .textValue()));
            assertThat(functions).doesNotHaveDuplicates();
            assertThat(two.get("records").intValue()).isEqualTo(model.recordCount());
            assertThat(functions.size()).isEqualTo(model.allFunctionCount());
            List<String> labels = new java.util.ArrayList<>();
            two.get("libraryLabels").forEach(l -> labels.add(l.textValue()));
            assertThat(labels).doesNotHaveDuplicates();
        }));
    }

    @org.junit.jupiter.api.Test
    void recordedLibrariesShrinkMoreThanFiveTimes() throws IOException {
        long one = gunzip(V1.resolve("recorded-libraries.json.gz")).length;
        long two = gunzip(GOLDEN.resolve("recorded-libraries").resolve("cuda-stack-budget.json.gz")).length;
        assertThat(two * 5).as("%d bytes against %d", two, one).isLessThan(one);
    }
}
