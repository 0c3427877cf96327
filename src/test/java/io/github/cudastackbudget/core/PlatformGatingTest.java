package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.binary.WriteItDll;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.PlatformWorst;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The platforms option and the per-platform breakdown over real device code of two platforms: the nvcc-built
 * libframes.so (linux-x86_64, frames up to 10,200 B) and a PE32+ DLL made by {@link WriteItDll} (PeBuilder) around one container of
 * the real ONNX Runtime Windows fatbin (host flag windows; its kernels have no stack frame), read by the native engine.
 * On an L4 (89,088 resident threads) with a 500 MiB budget the Linux library is over (909,410,304 B) and the Windows
 * one within.
 */
class PlatformGatingTest {

    @TempDir
    Path tmp;

    private Path so;
    private Path dll;
    private final List<String> infos = new ArrayList<>();

    @BeforeEach
    void files() throws Exception {
        so = RecordedCuobjdump.testCuda("libframes.so");
        dll = Files.write(tmp.resolve("ort_slice.dll"), WriteItDll.dll());
    }

    private CheckRunner.Outcome run(String platforms) throws CheckException {
        CheckOptions options = CheckOptions.builder().libraryFiles(List.of(so, dll)).engine("native")
                .devicePresets("l4").detectLocalDevices(false).maxReservation("500 MiB").platforms(platforms)
                .outputDirectory(tmp.resolve("out")).environment(Map.of()).build();
        return CheckRunner.run(options, new CheckListener() {
            @Override
            public void info(String line) {
                infos.add(line);
            }

            @Override
            public void warn(String line) {
            }
        });
    }

    @Test
    void everyPlatformIsJudgedByDefaultAndTheBreakdownNamesEachPlatformsWorst() throws Exception {
        CheckRunner.Outcome outcome = run(null);

        assertThat(outcome.result().scans()).extracting(LibraryScan::platform)
                .containsExactly("linux-x86_64", "windows-x86_64");
        DeviceResult l4 = outcome.result().devices().get(0);
        assertThat(l4.status()).isEqualTo(DeviceResult.Status.FAIL);
        assertThat(l4.worst().library()).isEqualTo("libframes.so");
        assertThat(l4.platforms()).extracting(PlatformWorst::platform)
                .containsExactly("linux-x86_64", "windows-x86_64");
        PlatformWorst linux = l4.platforms().get(0);
        PlatformWorst windows = l4.platforms().get(1);
        assertThat(linux.gated()).isTrue();
        assertThat(linux.status()).isEqualTo(DeviceResult.Status.FAIL);
        assertThat(linux.reservationBytes()).isEqualTo(89_088L * 10_208).isEqualTo(l4.reservationBytes());
        assertThat(linux.worst().library()).isEqualTo("libframes.so");
        assertThat(windows.gated()).isTrue();
        assertThat(windows.status()).isEqualTo(DeviceResult.Status.PASS);
        assertThat(windows.worst().library()).isEqualTo("ort_slice.dll");
        assertThat(windows.worst().stack()).isZero();
        assertThat(windows.reservationBytes()).as("no frame: nothing above 0").isZero();
        assertThat(outcome.failed()).isTrue();
        assertThat(infos).noneMatch(line -> line.contains("not judged"));

        List<String> text = Files.readAllLines(tmp.resolve("out/cuda-stack-budget.txt"));
        assertThat(text).contains("  per platform (static worst case):")
                .anyMatch(line -> line.startsWith("    linux-x86_64: 867.28 MiB (909,410,304 B) (")
                        && line.endsWith("in libframes.so, 10,200 B/thread) over budget"))
                .anyMatch(line -> line.startsWith("    windows-x86_64: 0 B (")
                        && line.contains("in ort_slice.dll, 0 B/thread)"));
        String json = Files.readString(tmp.resolve("out/cuda-stack-budget.json"));
        assertThat(json).contains("\"platforms\": [").doesNotContain("\"gated\":false");
        assertThat(Files.readString(tmp.resolve("out/cuda-stack-budget.html"))).contains("Per platform");
        ReportModel read = ReportModel.read(tmp.resolve("out/cuda-stack-budget.json"));
        assertThat(read.devices().get(0).platforms()).isEqualTo(ReportModel.of(outcome.result()).devices().get(0)
                .platforms()).hasSize(2);
    }

    @Test
    void onlyTheListedPlatformsAreJudgedTheOthersAreReportedAsNotGated() throws Exception {
        CheckRunner.Outcome outcome = run("windows");

        DeviceResult l4 = outcome.result().devices().get(0);
        assertThat(l4.status()).as("libframes.so is over budget, but not gated").isEqualTo(DeviceResult.Status.PASS);
        assertThat(l4.worst().library()).isEqualTo("ort_slice.dll");
        assertThat(l4.violations()).isEmpty();
        assertThat(outcome.failed()).isFalse();
        assertThat(l4.platforms()).extracting(PlatformWorst::platform, PlatformWorst::gated, PlatformWorst::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("linux-x86_64", false,
                                DeviceResult.Status.FAIL),
                        org.assertj.core.groups.Tuple.tuple("windows-x86_64", true, DeviceResult.Status.PASS));
        assertThat(infos).containsOnlyOnce("1 file(s) with device code of platform linux-x86_64 are read and "
                + "reported but not judged against the budgets (gated platforms: windows)");

        ReportModel model = ReportModel.read(tmp.resolve("out/cuda-stack-budget.json"));
        assertThat(model.libraries()).extracting(LibraryReport::library, LibraryReport::platform, LibraryReport::gated)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("libframes.so", "linux-x86_64", false),
                        org.assertj.core.groups.Tuple.tuple("ort_slice.dll", "windows-x86_64", true));
        assertThat(model).isEqualTo(ReportModel.of(outcome.result()));
        String json = Files.readString(tmp.resolve("out/cuda-stack-budget.json"));
        assertThat(json.split("\"gated\":false", -1)).as("the library and its platform's breakdown row").hasSize(3);
        List<String> text = Files.readAllLines(tmp.resolve("out/cuda-stack-budget.txt"));
        assertThat(text).contains("  not gated:                   1 library of linux-x86_64 (read, not judged "
                + "against the budgets)")
                .anyMatch(line -> line.startsWith("    linux-x86_64 (not gated): 867.28 MiB")
                        && line.endsWith("over budget, not gated"));
        assertThat(Files.readString(tmp.resolve("out/cuda-stack-budget.html"))).contains("not gated</span>");
    }

    @Test
    void aFullPlatformNameJudgesThatPlatform() throws Exception {
        CheckRunner.Outcome outcome = run("linux-x86_64");

        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.result().violations()).singleElement()
                .satisfies(v -> assertThat(v.kernel().library()).isEqualTo("libframes.so"));
        assertThat(infos).contains("1 file(s) with device code of platform windows-x86_64 are read and reported "
                + "but not judged against the budgets (gated platforms: linux-x86_64)");
    }

    @Test
    void whenNoLibraryIsOfAListedPlatformTheDevicesAreSkippedWithTheReason() throws Exception {
        CheckRunner.Outcome outcome = run("linux-aarch64");

        DeviceResult l4 = outcome.result().devices().get(0);
        assertThat(l4.status()).isEqualTo(DeviceResult.Status.SKIPPED);
        assertThat(l4.skipReason()).isEqualTo("no library of the gated platforms (linux-aarch64) was read: the 2 "
                + "file(s) read are of linux-x86_64, windows-x86_64 and not judged");
        assertThat(outcome.failed()).isFalse();
        DeviceReport report = ReportModel.read(tmp.resolve("out/cuda-stack-budget.json")).devices().get(0);
        assertThat(report.platforms()).hasSize(2);
    }

    @Test
    void aBreakdownRowWithAnUnknownStatusIsOneLineNamingTheDevice() throws Exception {
        run(null);
        Path json = tmp.resolve("out/cuda-stack-budget.json");
        String text = Files.readString(json);
        String broken = text.replaceFirst("(\"platform\":\"windows-x86_64\",\"gated\":true,\"status\":)"
                + "\"pass\"", "$1\"maybe\"");
        assertThat(broken).isNotEqualTo(text);
        Path bad = Files.writeString(tmp.resolve("bad.json"), broken);

        assertThatThrownBy(() -> ReportModel.read(bad))
                .isInstanceOf(io.github.cudastackbudget.core.report.model.InvalidReportException.class)
                .hasMessageContaining("device 'l4', platforms: status 'maybe' is not one of pass, fail, skipped")
                .satisfies(e -> assertThat(e.getMessage().lines()).hasSize(1));
    }

    @Test
    void theItsCommittedDllIsWhatTheGeneratorWrites() throws Exception {
        assertThat(Files.readAllBytes(Path.of("src/it/check-dll-dependency/natives/ort_slice.dll")))
                .as("src/it/check-dll-dependency/natives/README.md: made by WriteItDll").isEqualTo(WriteItDll.dll());
    }

    @Test
    void anUnknownPlatformIsOneLineBeforeAnythingIsRead() throws Exception {
        assertThatThrownBy(() -> run("linux-x86_64,win-x64")).isInstanceOf(CheckException.class)
                .hasMessageStartingWith("platforms 'win-x64' is not a platform (given: 'linux-x86_64,win-x64'): use "
                        + "a comma-separated list of linux, windows, mac or system-processor");
        assertThat(infos).isEmpty();
        // nothing was read: the reports (issue 12) say only that the check could not run
        assertThat(Files.readString(tmp.resolve("out").resolve(CheckRunner.TEXT_REPORT)))
                .contains("platforms 'win-x64' is not a platform").doesNotContain("libframes");
        assertThatThrownBy(() -> CheckRunner.validate(CheckOptions.builder().platforms("bsd")
                .outputDirectory(tmp).build())).isInstanceOf(CheckException.class)
                .hasMessageStartingWith("platforms 'bsd' is not a platform");
    }
}
