package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The site page (from the JSON, as the report goal renders it) of a check over the REAL format-2 launch log of the
 * NVRTC workload recorded on the H200 (src/test/resources/recorded/launch-driver-frames) plus a hand-written row for
 * libframes.so: which frames are static and which the driver reported.
 */
class DriverFramesSiteReportRendererTest {

    @TempDir
    Path tmp;

    @Test
    void theLaunchedTableSaysWhichFrameIsStaticAndWhichTheDriverReported() throws Exception {
        Path libs = Files.createDirectories(tmp.resolve("libs"));
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), libs.resolve("libframes.so"));
        String recorded = Files.readString(Path.of("src/test/resources/recorded/launch-driver-frames/nvrtc.launch.log"));
        Path launch = Files.writeString(tmp.resolve("launch.log"),
                recorded + "_Z11frameKernelILi1024EEvPii\tmain\t0\t4000\t31\t0\tsm_90\n");
        CheckOptions options = new CheckOptions(List.of(new FileSetSpec(libs, FileSetSpec.DEFAULT_INCLUDES, List.of())),
                List.of(), "com.example:app:1.0", "native", null, Duration.ofSeconds(60), 1, List.of(), "h200-141gb",
                false, null, null, tmp.resolve("out"), 0, true, Map.of("PATH", System.getenv().getOrDefault("PATH", "")),
                launch, null);
        CheckRunner.Outcome outcome = CheckRunner.run(options, CheckListener.SILENT);
        String page = SiteReportRendererTest.render(ReportModel.read(outcome.reports().get(0)), 25);
        assertThat(page).contains("<th>Frame</th>", ">driver-reported</td>", ">static</td>",
                "2 in none (2 counted with the driver-reported frame, 0 not counted)",
                "Launched kernels whose static frame differs from the driver's (the driver loaded another image)");
    }
}
