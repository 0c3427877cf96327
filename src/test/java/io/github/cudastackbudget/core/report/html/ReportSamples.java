package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.check.CheckRequest;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.check.StackBudgetCheck;
import io.github.cudastackbudget.core.device.DeviceOrigin;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.demangle.Demangler;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.device.DeviceResolver;
import io.github.cudastackbudget.core.device.GpuCatalog;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.KernelEngine;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.engine.ResourceUsageParser;
import io.github.cudastackbudget.core.report.JsonReportWriter;
import io.github.cudastackbudget.core.report.RecordedChecks;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reports over real recorded cuobjdump output, for the page tests, the browser test and dev/bench-html.sh.
 */
public final class ReportSamples {

    /** Four devices: two that run the recorded libraries natively or by fallback, a Blackwell, and a skipped V100. */
    public static final String PRESETS = "h200-141gb,l4,rtx-5090,v100-sxm2-16gb";

    /** Copies of the four recordings (12,982 records) in the large report: 10 x 12,982 = 129,820 records. */
    public static final int SCALE_COPIES = 10;

    private static final Path TEST_RECORDINGS = Path.of("src/test/resources/recorded/cuobjdump").toAbsolutePath();
    private static final Pattern SOURCE_NAME = Pattern.compile("(\\d+)");

    private ReportSamples() {
    }

    /** libnccl, libnvjpeg, torchaudio and xla_cuda_plugin on {@link #PRESETS} with a 512 MiB budget. */
    public static CheckRunner.Outcome recordedLibraries(Path work) throws Exception {
        return RecordedChecks.run(RecordedChecks.allLibraries(work, PRESETS, "512 MiB", null));
    }

    /**
     * The project's nvcc-built test binaries (shared library, archive, bare cubin, -rdc object and library with a
     * recursive kernel, i.e. STACK:UNKNOWN) replayed from their real cuobjdump recordings.
     */
    public static CheckRunner.Outcome testBinaries(Path work) throws Exception {
        Path binaries = RecordedCuobjdump.testCuda("libframes_rdc.so").getParent();
        Path replay = RecordedCuobjdump.executable(work.resolve("tool").resolve("cuobjdump"), String.join("\n",
                "#!/bin/sh",
                "# replays recordings of the real cuobjdump 13.0 output for the unit-test binaries",
                "if [ \"$1\" = \"--version\" ]; then cat '" + TEST_RECORDINGS + "/cuobjdump-version.txt'; exit 0; fi",
                "f='" + TEST_RECORDINGS + "/'\"$(basename \"$2\")\".resource-usage.txt",
                "[ -f \"$f\" ] || { echo \"no recording for $2\" >&2; exit 1; }",
                "cat \"$f\"", ""));
        Files.setPosixFilePermissions(replay, PosixFilePermissions.fromString("rwxr-xr-x"));
        CheckOptions options = new CheckOptions(
                List.of(new FileSetSpec(binaries, List.of("libframes.so", "libframes.a", "frames_sm90.cubin",
                        "frames_rdc.o", "libframes_rdc.so", "libhostonly.so"), List.of())),
                List.of(), "test:binaries:1.0", "cuobjdump", replay.toString(), Duration.ofSeconds(30), 2,
                List.of(DeviceDefinition.preset("h200-141gb"), DeviceDefinition.preset("a100-sxm4-80gb"),
                        DeviceDefinition.preset("t4")),
                null, false, "2.3 GiB", null, work.resolve("out"), 25, false, Map.of("PATH", System.getenv("PATH")));
        return CheckRunner.run(options, CheckListener.SILENT);
    }

    /**
     * A report of {@code copies} x 12,982 records: the four real recordings, each copy a separate library whose
     * function names carry a {@code _vN} suffix (so every name is distinct, as in one huge library such as
     * libtorch_cuda.so), with the figures the real cuobjdump printed. Writes the JSON into {@code out} and returns
     * the model read back from it.
     */
    public static ReportModel scaled(Path work, int copies) throws Exception {
        CheckResult result = scaledResult(work, copies, CheckListener.SILENT);
        Path json = JsonReportWriter.write(ReportModel.of(result), work.resolve("out"));
        return ReportModel.read(json);
    }

    /** The check of {@link #scaled}, its stage times (and everything else) reported to {@code listener}. */
    public static CheckResult scaledResult(Path work, int copies, CheckListener listener) throws Exception {
        List<Path> staged = new ArrayList<>();
        for (int copy = 0; copy < copies; copy++) {
            for (String library : RecordedCuobjdump.LIBRARIES) {
                String name = copy == 0 ? library : "v" + copy + "-" + library;
                staged.add(RecordedCuobjdump.stage(work.resolve("libs"), name));
            }
        }
        KernelEngine engine = new KernelEngine() {
            @Override
            public String id() {
                return "recorded";
            }

            @Override
            public String description() {
                return "replay of real cuobjdump 13.0 recordings, " + copies + " renamed copies";
            }

            @Override
            public LibraryScan read(DeviceCodeProbe probe) throws EngineException {
                String file = probe.file().getFileName().toString();
                int copy = file.startsWith("v") ? Integer.parseInt(file.substring(1, file.indexOf('-'))) : 0;
                String library = copy == 0 ? file : file.substring(file.indexOf('-') + 1);
                ResourceUsageParser parser = new ResourceUsageParser(file, null);
                try (BufferedReader reader = RecordedCuobjdump.open(library)) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        parser.accept(copy == 0 ? line : renameFunction(line, "_v" + copy));
                    }
                } catch (IOException e) {
                    throw new EngineException(file + ": " + e.getMessage(), e);
                }
                return new LibraryScan(probe.file(), parser.libraries(), parser.records(), parser.sassArches(),
                        parser.ptxArches(), "com.example:scaled:1.0", 0);
            }
        };
        List<DeviceTarget> devices = new DeviceResolver(GpuCatalog.bundled()).resolve(List.of(), PRESETS);
        Map<String, String> environment = Map.of("PATH", System.getenv().getOrDefault("PATH", ""));
        CheckResult result = StackBudgetCheck.run(new CheckRequest(List.of(), staged, "", () -> engine, 2, devices,
                DeviceOrigin.configured(), SizeLimit.parse("512 MiB", "maxReservation"), null,
                Demangler.fromEnvironment(environment), null, null, null), listener);
        return result;
    }

    /**
     * Appends {@code suffix} to the first source name of a mangled function name in a {@code Function NAME:} line
     * ({@code _Z3fooi} -> {@code _Z6foo_v1i}, {@code _ZN2at3fooEv} -> {@code _ZN7at_v1...}), keeping the name
     * demanglable; an unmangled name gets the suffix at its end. Other lines pass unchanged.
     */
    static String renameFunction(String line, String suffix) {
        String marker = " Function ";
        if (!line.startsWith(marker) || !line.endsWith(":")) {
            return line;
        }
        String name = line.substring(marker.length(), line.length() - 1);
        return marker + rename(name, suffix) + ":";
    }

    static String rename(String name, String suffix) {
        if (!name.startsWith("_Z")) {
            return name + suffix;
        }
        int at = 2;
        if (name.startsWith("_ZN")) {
            at = 3;
            while (at < name.length() && "rVKRO".indexOf(name.charAt(at)) >= 0) {
                at++;
            }
            if (name.startsWith("St", at)) {
                at += 2;
            }
        }
        Matcher digits = SOURCE_NAME.matcher(name);
        if (!digits.find(at) || digits.start() != at) {
            return name;
        }
        int length = Integer.parseInt(digits.group(1));
        int end = digits.end() + length;
        if (end > name.length()) {
            return name;
        }
        return name.substring(0, at) + (length + suffix.length()) + name.substring(digits.end(), end) + suffix
                + name.substring(end);
    }
}
