package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Runs the whole check over a real nvcc-built device-code file staged under a recorded library's name, with a
 * cuobjdump stand-in that replays the real cuobjdump 13.0 output recorded for that library.
 */
final class RecordedChecks {

    static final String SEND_RECV = "_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE";
    static final String SEND_RECV_DISPLAY = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";

    private RecordedChecks() {
    }

    /** Options over {@code library} staged in {@code work/libs}, replayed by a script in {@code work/tool}. */
    static CheckOptions options(Path work, String library, String presets, List<DeviceDefinition> devices,
            String maxReservation, String usedBy) throws Exception {
        Path staged = RecordedCuobjdump.stage(work.resolve("libs"), library);
        Path cuobjdump = RecordedCuobjdump.replayByName(java.nio.file.Files.createDirectories(work.resolve("tool")));
        return new CheckOptions(List.of(), List.of(staged), usedBy, "cuobjdump", cuobjdump.toString(),
                Duration.ofSeconds(120), 2, devices, presets, false, maxReservation, null, work.resolve("out"), 25,
                false, Map.of("PATH", System.getenv().getOrDefault("PATH", "")));
    }

    static CheckRunner.Outcome run(CheckOptions options) throws Exception {
        return CheckRunner.run(options, CheckListener.SILENT);
    }

    /** The same options writing elsewhere, listing {@code top} rows. */
    static CheckOptions withOutput(CheckOptions options, Path out) {
        return new CheckOptions(options.fileSets(), options.libraryFiles(), options.usedBy(), options.engine(),
                options.cuobjdump(), options.timeout(), options.parallelism(), options.devices(), options.devicePresets(),
                options.detectLocalDevices(), options.maxReservation(), options.maxStackPerThread(), out, options.top(),
                options.verbose(), options.environment());
    }

    static long roundUp16(long frame) {
        return (frame + 15) / 16 * 16;
    }
}
