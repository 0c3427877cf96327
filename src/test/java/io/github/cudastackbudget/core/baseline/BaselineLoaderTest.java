package io.github.cudastackbudget.core.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.text.Frontend;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A baseline is read with the report reader, schema 1 and 2 alike: the recorded stack-demo check as an earlier version
 * wrote it (schema 1, src/test/resources/report-v1) and as this version writes it (the golden schema-2 report) give
 * the same figures.
 */
class BaselineLoaderTest {

    @TempDir
    Path tmp;

    private Path unzip(String resource, String name) throws Exception {
        Path file = tmp.resolve(name);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(Path.of("src/test/resources", resource)))) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void schemaOneAndSchemaTwoReportsOfOneCheckGiveTheSameBaseline() throws Exception {
        Baseline v1 = BaselineLoader.load(new BaselineOptions(unzip("report-v1/stack-demo.json.gz", "v1.json"), "10%",
                false), Frontend.PARAMETERS, line -> { }).previous();
        Baseline v2 = BaselineLoader.load(new BaselineOptions(unzip("golden/stack-demo/cuda-stack-budget.json.gz",
                "v2.json"), "10%", false), Frontend.PARAMETERS, line -> { }).previous();

        assertThat(v1.devices()).isNotEmpty().isEqualTo(v2.devices());
        assertThat(v1.devices()).anySatisfy(device -> assertThat(device.worst().name())
                .isEqualTo("_ZN4demo10stageTilesEPKfPfii"));
        assertThat(new HashSet<>(v1.images())).isEqualTo(new HashSet<>(v2.images()));
        assertThat(v1.source()).endsWith("v1.json");
    }

    @Test
    void noBaselineConfiguredIsNoComparison() {
        java.util.List<String> lines = new java.util.ArrayList<>();
        assertThat(BaselineLoader.load(new BaselineOptions(null, "10%", false), Frontend.PARAMETERS, lines::add))
                .isNull();
        assertThat(lines).containsExactly("maxGrowth 10% is set, but no baseline: nothing is compared");
        lines.clear();
        assertThat(BaselineLoader.load(BaselineOptions.NONE, Frontend.PARAMETERS, lines::add)).isNull();
        // a missing artifact (named by its label) was reported by the front end that looked for it
        assertThat(BaselineLoader.load(new BaselineOptions(null, "10%", true, "com.example:app:1.0:cuda-stack-budget"),
                Frontend.PARAMETERS, lines::add)).isNull();
        assertThat(lines).isEmpty();
    }
}
