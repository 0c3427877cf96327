package io.github.cudastackbudget.core.exec;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Finds external tools: the {@code PATH} first, then the CUDA toolkit folders ({@code $CUDA_HOME}, ...). */
public final class Executables {

    private Executables() {
    }

    /** Where CUDA tools live besides the PATH: {@code $CUDA_HOME/bin}, {@code $CUDA_PATH/bin}, {@code /usr/local/cuda/bin}. */
    public static List<Path> cudaDirectories(Map<String, String> environment) {
        List<Path> directories = new ArrayList<>();
        for (String variable : List.of("CUDA_HOME", "CUDA_PATH")) {
            String home = environment.get(variable);
            if (home != null && !home.isBlank()) {
                directories.add(Path.of(home, "bin"));
            }
        }
        directories.add(Path.of("/usr/local/cuda/bin"));
        return directories;
    }

    /** The first executable file named {@code name} on the PATH, then in {@code extraDirectories}. */
    public static Optional<Path> find(String name, Map<String, String> environment, List<Path> extraDirectories) {
        List<Path> candidates = new ArrayList<>();
        String path = environment.get("PATH");
        if (path != null) {
            for (String directory : path.split(File.pathSeparator)) {
                if (!directory.isEmpty()) {
                    candidates.add(Path.of(directory, name));
                }
            }
        }
        for (Path directory : extraDirectories) {
            candidates.add(directory.resolve(name));
        }
        // a loop, not a stream: every build loads this class fresh, and a stream's lambdas cost more to link than the
        // look at the files (issue 11: a cached re-check)
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
