package io.github.cudastackbudget.core.device;

import io.github.cudastackbudget.core.exec.Executables;
import io.github.cudastackbudget.core.exec.ToolRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Lists this machine's GPUs with {@code nvidia-smi --query-gpu=index,name,compute_cap,memory.total}. nvidia-smi does
 * not report SM counts, so detected GPUs are matched to the catalog by name. No nvidia-smi, or a failing one, means
 * no local GPUs.
 */
public final class LocalGpuDetector {

    private LocalGpuDetector() {
    }

    /** A GPU nvidia-smi reported. */
    public record LocalGpu(int index, String name, String computeCapability, Long memoryBytes) {
    }

    public static List<LocalGpu> detect(Map<String, String> environment) {
        Optional<Path> tool = Executables.find("nvidia-smi", environment, List.of());
        if (tool.isEmpty()) {
            return List.of();
        }
        StringBuilder csv = new StringBuilder();
        ToolRun run = ToolRun.run(tool.get(), List.of("--query-gpu=index,name,compute_cap,memory.total",
                "--format=csv,noheader,nounits"), null, Duration.ofSeconds(20), line -> csv.append(line).append('\n'));
        if (run.failure() != null || run.timedOut() || run.refused() != null || run.exitCode() != 0) {
            return List.of();
        }
        return parse(csv.toString());
    }

    /** Parses {@code 0, NVIDIA H200, 9.0, 143771} lines (memory in MiB). */
    public static List<LocalGpu> parse(String csv) {
        List<LocalGpu> gpus = new ArrayList<>();
        for (String line : csv.split("\\R")) {
            String[] fields = line.split(",");
            if (fields.length < 4) {
                continue;
            }
            try {
                int index = Integer.parseInt(fields[0].strip());
                // at most 12 digits of MiB: shifted to bytes it stays below 2^63 (more wrapped to a wrong figure)
                Long memory = fields[3].strip().matches("\\d{1,12}") ? Long.parseLong(fields[3].strip()) << 20 : null;
                gpus.add(new LocalGpu(index, fields[1].strip(), fields[2].strip(), memory));
            } catch (NumberFormatException e) {
                // a line that is not a GPU row
            }
        }
        return gpus;
    }
}
