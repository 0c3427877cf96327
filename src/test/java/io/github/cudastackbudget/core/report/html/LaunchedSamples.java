package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A launched-mode check over REAL recordings, for the page tests: the launch logs the injection library wrote on the
 * project's H200 (src/test/resources/recorded/launch, see its README.txt) and the real cuobjdump 13.0 output of the
 * libraries they name.
 *
 * <ul>
 * <li>Launch log: the recorded launch-probe log followed by the recorded torch.special.gammainc log, i.e. a log of two
 * processes (the injection library repeats header and status per process when runs append to one log). The probe's
 * kernels asked for dynamic shared memory (up to 8,192 B); the four PyTorch kernels live in libtorch_cuda.so, which is
 * not here, so they stay unmatched.</li>
 * <li>Library log: the probe run's recorded library log, the probe's path mapped to where it lies here (outside the
 * file sets), so that the probe is found through the library log.</li>
 * <li>The probe file is the nvcc-built libframes.so staged under the probe's name; cuobjdump replays the real output
 * recorded for the probe (sm_90 only: frameKernel&lt;12288&gt;, &lt;4096&gt;, &lt;2048&gt;, sharedKernel,
 * emptyKernel). The file sets hold the real libframes.so, replayed from its own recording: never launched, it only
 * raises the static bound where the probe cannot run.</li>
 * <li>Devices: h200-141gb (runs the probe's sm_90 image) and l4 (sm_89: the probe cannot run there; libframes.so's
 * sm_80 image can), budget 3,584 MiB.</li>
 * </ul>
 */
public final class LaunchedSamples {

    /** The recorded probe run's path of the probe on the GPU machine. */
    static final String RECORDED_PROBE_PATH = "/work/main/.dev-cupti/prebuilt/launch-probe";

    private static final Path LAUNCH = Path.of("src/test/resources/recorded/launch").toAbsolutePath();
    private static final Path CUOBJDUMP = Path.of("src/test/resources/recorded/cuobjdump").toAbsolutePath();

    private LaunchedSamples() {
    }

    /** Runs the check (JSON, text and standalone page under {@code work/out}) and returns its outcome. */
    public static CheckRunner.Outcome probeAndTorch(Path work) throws Exception {
        Path libs = Files.createDirectories(work.resolve("libs"));
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), libs.resolve("libframes.so"));
        Path probe = Files.createDirectories(work.resolve("gpu-run/bin")).resolve("launch-probe");
        Files.copy(RecordedCuobjdump.testCuda("libframes.so"), probe);
        Path replay = RecordedCuobjdump.executable(work.resolve("tool/cuobjdump"), String.join("\n",
                "#!/bin/sh",
                "# replays the REAL cuobjdump 13.0 output recorded for the file's base name",
                "if [ \"$1\" = --version ]; then cat '" + CUOBJDUMP + "/cuobjdump-version.txt'; exit 0; fi",
                "case \"$(basename \"$2\")\" in",
                "  launch-probe) f='" + LAUNCH + "/launch-probe.resource-usage.txt' ;;",
                "  *) f='" + CUOBJDUMP + "'/$(basename \"$2\").resource-usage.txt ;;",
                "esac",
                "[ -f \"$f\" ] || { echo \"no recording for $2\" >&2; exit 1; }",
                "cat \"$f\"", ""));
        Path launchLog = work.resolve("launch.log");
        Files.writeString(launchLog, read("launch-probe.launch.log") + read("torch-gammainc.launch.log"));
        String libraries = read("launch-probe.launch.log.libraries");
        if (!libraries.contains(RECORDED_PROBE_PATH + "\n")) {
            throw new IllegalStateException("the recorded library log no longer names " + RECORDED_PROBE_PATH);
        }
        Files.writeString(work.resolve("launch.log.libraries"), libraries.replace(RECORDED_PROBE_PATH + "\n",
                probe + "\n"));
        CheckOptions options = new CheckOptions(List.of(new FileSetSpec(libs, FileSetSpec.DEFAULT_INCLUDES,
                List.of())), List.of(), "com.example:trainer:1.0", "cuobjdump", replay.toString(),
                Duration.ofSeconds(60), 2, List.of(), "h200-141gb,l4", false, "3584 MiB", null, work.resolve("out"),
                25, false, Map.of("PATH", System.getenv().getOrDefault("PATH", "")), launchLog, null);
        return CheckRunner.run(options, CheckListener.SILENT);
    }

    private static String read(String recording) throws Exception {
        return Files.readString(LAUNCH.resolve(recording), StandardCharsets.UTF_8);
    }
}
