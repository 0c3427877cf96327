package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * The check the output tests format: the nvcc-built {@code libframes.so} (target/test-cuda) read by the native
 * engine, on an H200 (over the 1 GiB budget: frameKernel's 10,200-B frame), an L4 and a T4, and three gate checks
 * as the rule, suppression and baseline stages make them (one of each outcome).
 */
final class OutputsFixture {

    /** The gate checks the fixture adds: a failed rule, a warned suppression, a passed baseline. */
    static final List<GateCheck> CHECKS = List.of(
            new GateCheck("rule", "h200-frame", GateCheck.Outcome.FAIL, "h200-141gb", "libframes.so",
                    "_Z11frameKernelILi2550EEvPii", "sm_90a", 10_208L, 8_192L,
                    "rule h200-frame: frame 10,208 B > 8,192 B of void frameKernel<2550>(int*, int) [sm_90a] in "
                            + "libframes.so <&> \"quoted\" | piped *starred*"),
            new GateCheck("suppression", "legacy-kernel", GateCheck.Outcome.WARN, null, null, null, null, null, null,
                    "suppression legacy-kernel matched nothing; remove it"),
            new GateCheck("baseline", "growth", GateCheck.Outcome.PASS, "l4", null, null, null, 0L, 1024L,
                    "l4 grew by 0 B (at most 1 KiB)"));

    private OutputsFixture() {
    }

    /** Options over a copy of libframes.so in {@code work/libs}, the reports in {@code work/out}. */
    static CheckOptions.Builder options(Path work) throws Exception {
        Path libs = Files.createDirectories(work.resolve("libs"));
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), libs.resolve("libframes.so"),
                StandardCopyOption.REPLACE_EXISTING);
        return CheckOptions.builder().libraryFiles(List.of(libs.resolve("libframes.so").toAbsolutePath()))
                .engine("native").devicePresets("h200-141gb,l4,t4").detectLocalDevices(false).maxReservation("1 GiB")
                .outputDirectory(work.resolve("out")).useCache(false).parallelism(2)
                .environment(Map.of("PATH", System.getenv().getOrDefault("PATH", "")));
    }

    /** The model of the fixture's check with {@link #CHECKS} added. */
    static ReportModel model(Path work) throws Exception {
        CheckRunner.Outcome outcome = CheckRunner.run(options(work).build(), CheckListener.SILENT);
        return withChecks(ReportModel.of(outcome.result()), CHECKS);
    }

    static ReportModel withChecks(ReportModel model, List<GateCheck> checks) {
        return new ReportModel(model.schemaVersion(), model.engine(), model.deviceOrigin(), model.filesProbed(),
                model.libraries(), model.devices(), model.kernels(), model.violations(), model.warnings(),
                model.launched(), model.filesWithDeviceCode(), model.unreadable(), checks, model.baseline());
    }
}
