package io.github.cudastackbudget.core.launch;

import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The CUPTI injection library that records launched kernels, as the plugin jar carries it, and the environment that
 * loads it into a process.
 */
public final class AgentLibrary {

    /** The library's file name. */
    public static final String FILE_NAME = "libcuda-stack-budget-cupti.so";
    /** Where the plugin jar carries it. */
    public static final String RESOURCE = "/native/linux-x86_64/" + FILE_NAME;
    /** The variable the CUDA driver reads to load an injection library. */
    public static final String INJECTION_VARIABLE = "CUDA_INJECTION64_PATH";
    /**
     * The variable NVTX reads to load its tool: the same library, so that NVTX ranges reach it from the first NVTX call
     * (the attribution of a launch is the innermost NVTX range of its thread).
     */
    public static final String NVTX_INJECTION_VARIABLE = "NVTX_INJECTION64_PATH";
    /** Where the library writes the kernel launch log. */
    public static final String LAUNCH_LOG_VARIABLE = "CUDA_STACK_BUDGET_LAUNCH_LOG";
    /** Where the library writes the library log (default: the launch log + {@code .libraries}). */
    public static final String LIBRARY_LOG_VARIABLE = "CUDA_STACK_BUDGET_LIBRARY_LOG";

    private AgentLibrary() {
    }

    /** Opens the packaged library; returns null when it is not there. */
    @FunctionalInterface
    public interface Source {
        InputStream open() throws IOException;
    }

    /** The packaged library from the class path of this class (the plugin jar). */
    public static Source packaged() {
        return () -> AgentLibrary.class.getResourceAsStream(RESOURCE);
    }

    /**
     * Whether the library can run here: it is built for Linux on x86-64 only.
     *
     * @param osName the {@code os.name} system property
     * @param osArch the {@code os.arch} system property
     */
    public static boolean supported(String osName, String osArch) {
        String arch = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
        return osName != null && osName.toLowerCase(Locale.ROOT).startsWith("linux")
                && (arch.equals("amd64") || arch.equals("x86_64"));
    }

    /** What happened to the file on disk. */
    public enum Extraction {
        WRITTEN, UNCHANGED
    }

    /**
     * Copies the packaged library to {@code directory/libcuda-stack-budget-cupti.so}, only when the file there differs.
     *
     * @param frontend spells the option that skips the goal, in the message for another platform
     * @return whether the file was written or already up to date
     * @throws AgentException on another platform, when the plugin jar carries no library, or on an I/O error; the
     *                        message names the file and what to do
     */
    public static Extraction extract(Source source, Path directory, String osName, String osArch, Frontend frontend)
            throws AgentException {
        if (!supported(osName, osArch)) {
            throw new AgentException("the CUPTI injection library of launched mode is built for linux-x86_64 only, "
                    + "but this is " + osName + "/" + osArch + ": run prepare-agent where the GPU tests run (Linux "
                    + "x86-64), or skip it there (" + frontend.howToSet(Option.SKIP, "true") + ")");
        }
        byte[] library;
        try (InputStream in = source.open()) {
            if (in == null) {
                throw new AgentException("this plugin jar carries no CUPTI injection library (" + RESOURCE + "): it was "
                        + "built without the CUPTI headers; rebuild the plugin on a machine with the CUDA toolkit's "
                        + "CUPTI (extras/CUPTI/include) or use a released plugin jar");
            }
            library = in.readAllBytes();
        } catch (IOException e) {
            throw new AgentException("cannot read the CUPTI injection library " + RESOURCE + " from the plugin jar: "
                    + e.getMessage(), e);
        }
        Path target = directory.resolve(FILE_NAME);
        try {
            if (Files.isRegularFile(target) && Files.size(target) == library.length
                    && Arrays.equals(Files.readAllBytes(target), library)) {
                return Extraction.UNCHANGED;
            }
            Files.createDirectories(directory);
            Path temporary = Files.createTempFile(directory, FILE_NAME, ".tmp");
            Files.write(temporary, library);
            try {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rwxr-xr-x"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the default permissions must do
            }
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return Extraction.WRITTEN;
        } catch (IOException e) {
            throw new AgentException("cannot write the CUPTI injection library to " + target + ": " + e.getMessage(), e);
        }
    }

    /** The environment that loads the library and names the logs, in a fixed order. */
    public static Map<String, String> environment(Path library, Path launchLog, Path libraryLog) {
        java.util.LinkedHashMap<String, String> variables = new java.util.LinkedHashMap<>();
        variables.put(INJECTION_VARIABLE, library.toString());
        variables.put(NVTX_INJECTION_VARIABLE, library.toString());
        variables.put(LAUNCH_LOG_VARIABLE, launchLog.toString());
        variables.put(LIBRARY_LOG_VARIABLE, libraryLog.toString());
        return java.util.Collections.unmodifiableMap(variables);
    }

    /**
     * The environment as a POSIX shell snippet, {@code NAME=value NAME=value ...}, values quoted where needed: put it
     * before a command ({@code env $SNIPPET cmd} or {@code eval "$SNIPPET cmd"}).
     */
    public static String shellSnippet(Map<String, String> environment) {
        StringBuilder text = new StringBuilder();
        environment.forEach((name, value) -> {
            if (text.length() > 0) {
                text.append(' ');
            }
            text.append(name).append('=').append(shellQuote(value));
        });
        return text.toString();
    }

    static String shellQuote(String value) {
        if (!value.isEmpty() && value.chars().allMatch(c -> Character.isLetterOrDigit(c) || "/._-+,:@%=".indexOf(c) >= 0)) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
