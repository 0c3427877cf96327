package io.github.cudastackbudget.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportPathsTest {

    @Test
    void aPathUnderTheBaseBecomesRelativeWithSlashes() {
        Path base = Path.of("/work/project");
        assertThat(ReportPaths.relative("/work/project/target/native/libx.so", base))
                .isEqualTo("target/native/libx.so");
        assertThat(ReportPaths.relative("/work/project/target/../lib/libx.so", base)).isEqualTo("lib/libx.so");
        assertThat(ReportPaths.relative("/work/project/target/app.jar!/native/libx.so", base))
                .isEqualTo("target/app.jar!/native/libx.so");
    }

    @Test
    void aPathOutsideTheBaseOrAlreadyRelativeStaysAsItWas() {
        Path base = Path.of("/work/project");
        assertThat(ReportPaths.relative("/home/me/.m2/repository/a.jar", base)).isEqualTo("/home/me/.m2/repository/a.jar");
        assertThat(ReportPaths.relative("/work/project-two/libx.so", base)).isEqualTo("/work/project-two/libx.so");
        assertThat(ReportPaths.relative("/work/project", base)).isEqualTo("/work/project");
        assertThat(ReportPaths.relative("libs/libx.so", base)).isEqualTo("libs/libx.so");
    }

    @Test
    void everyLibraryPathOfARealCheckIsRelativeToTheBaseAndTheLabelsStay(@TempDir Path work) throws Exception {
        ReportModel model = OutputsFixture.model(work);

        ReportModel relative = ReportPaths.relativeTo(model, work);
        ReportModel elsewhere = ReportPaths.relativeTo(model, work.resolve("other"));

        assertThat(model.libraries()).extracting(LibraryReport::path)
                .containsExactly(work.resolve("libs/libframes.so").toAbsolutePath().toString());
        assertThat(relative.libraries()).extracting(LibraryReport::path).containsExactly("libs/libframes.so");
        assertThat(relative.libraries()).extracting(LibraryReport::library).containsExactly("libframes.so");
        assertThat(relative.devices()).isEqualTo(model.devices());
        assertThat(relative.checks()).isEqualTo(model.checks());
        assertThat(elsewhere).isEqualTo(model);
        assertThat(ReportPaths.relativeTo(model, null)).isSameAs(model);
    }
}
