package io.github.cudastackbudget.core.device;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.PumpStreamHandler;

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
        Optional<Path> tool = locate(environment);
        if (tool.isEmpty()) {
            return List.of();
        }
        CommandLine command = new CommandLine(tool.get().toFile());
        command.addArgument("--query-gpu=index,name,compute_cap,memory.total", false);
        command.addArgument("--format=csv,noheader,nounits", false);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        DefaultExecutor executor = DefaultExecutor.builder().get();
        executor.setStreamHandler(new PumpStreamHandler(stdout, new ByteArrayOutputStream()));
        executor.setWatchdog(ExecuteWatchdog.builder().setTimeout(Duration.ofSeconds(20)).get());
        try {
            if (executor.execute(command) != 0) {
                return List.of();
            }
        } catch (IOException e) {
            return List.of();
        }
        return parse(stdout.toString(StandardCharsets.UTF_8));
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
                Long memory = fields[3].strip().matches("\\d+") ? Long.parseLong(fields[3].strip()) << 20 : null;
                gpus.add(new LocalGpu(index, fields[1].strip(), fields[2].strip(), memory));
            } catch (NumberFormatException e) {
                // a line that is not a GPU row
            }
        }
        return gpus;
    }

    private static Optional<Path> locate(Map<String, String> environment) {
        String path = environment.getOrDefault("PATH", "");
        for (String directory : path.split(File.pathSeparator)) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, "nvidia-smi");
            if (!directory.isEmpty() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
