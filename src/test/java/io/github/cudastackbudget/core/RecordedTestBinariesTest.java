package io.github.cudastackbudget.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline over the real nvcc-built test binaries (target/test-cuda), with cuobjdump replaced by a script
 * that prints the recordings of the real cuobjdump made on the GPU machine for the same binaries
 * (src/test/resources/recorded/cuobjdump, see its README).
 */
class RecordedTestBinariesTest {

    private static final Path BINARIES = Path.of("target/test-cuda");
    private static final Path RECORDINGS = Path.of("src/test/resources/recorded/cuobjdump").toAbsolutePath();

    @TempDir
    static Path temp;

    private static CheckRunner.Outcome outcome;

    @BeforeAll
    static void runOverTestBinaries() throws Exception {
        assertThat(BINARIES.resolve("libframes_rdc.so")).as("built by src/test/cuda/build-test-binaries.sh").exists();
        Path replay = temp.resolve("cuobjdump");
        Files.writeString(replay, String.join("\n",
                "#!/bin/sh",
                "# replays recordings of the real cuobjdump 13.0 output for the unit-test binaries",
                "if [ \"$1\" = \"--version\" ]; then cat '" + RECORDINGS + "/cuobjdump-version.txt'; exit 0; fi",
                "f='" + RECORDINGS + "/'\"$(basename \"$2\")\".resource-usage.txt",
                "[ -f \"$f\" ] || { echo \"no recording for $2\" >&2; exit 1; }",
                "cat \"$f\"", ""));
        Files.setPosixFilePermissions(replay, PosixFilePermissions.fromString("rwxr-xr-x"));
        CheckOptions options = new CheckOptions(
                List.of(new FileSetSpec(BINARIES, List.of("libframes.so", "libframes.a", "frames_sm90.cubin",
                        "frames_rdc.o", "libframes_rdc.so", "libhostonly.so"), List.of())),
                List.of(), "test:binaries", "cuobjdump", replay.toString(), Duration.ofSeconds(30), 2,
                List.of(DeviceDefinition.preset("h200-141gb"), DeviceDefinition.preset("a100-sxm4-80gb")), null, false,
                "2.3 GiB", null, temp.resolve("reports"), 0, true, Map.of("PATH", System.getenv("PATH")));
        List<String> warnings = new ArrayList<>();
        outcome = CheckRunner.run(options, new CheckListener() {
            @Override
            public void info(String line) {
            }

            @Override
            public synchronized void warn(String line) {
                warnings.add(line);
            }
        });
    }

    private static LibraryScan scan(String fileName) {
        return outcome.result().scans().stream().filter(scan -> scan.path().getFileName().toString().equals(fileName))
                .findFirst().orElseThrow();
    }

    @Test
    void archiveMembersAreLabelledArchiveOfMemberAndHostOnlyMembersAddNothing() {
        LibraryScan archive = scan("libframes.a");
        assertThat(archive.libraries()).containsExactly("libframes.a(frames.o)");
        assertThat(archive.records()).hasSize(5).allMatch(record -> record.library().equals("libframes.a(frames.o)"));
        assertThat(archive.ptxArchesOf("libframes.a(frames.o)")).extracting(arch -> arch.ptxLabel())
                .containsExactly("compute_90");
    }

    @Test
    void bareCubinTakesItsArchFromTheElfHeader() {
        LibraryScan cubin = scan("frames_sm90.cubin");
        assertThat(cubin.records()).hasSize(5).allMatch(record -> record.arch().sassLabel().equals("sm_90"));
    }

    @Test
    void deviceLinkedRdcLibraryReportsTheRecursiveKernelAsUnknownAndIsNotTakenForAnObject() {
        KernelRecord recursive = scan("libframes_rdc.so").records().stream()
                .filter(record -> record.name().equals("_Z15recursiveKernelPii")).findFirst().orElseThrow();
        assertThat(recursive.stackUnknown()).isTrue();
        assertThat(outcome.result().warnings())
                .anyMatch(line -> line.startsWith("frames_rdc.o holds relocatable device code"))
                .noneMatch(line -> line.startsWith("libframes_rdc.so holds relocatable"))
                .anyMatch(line -> line.contains("UNKNOWN") && line.contains("recursiveKernel"));
    }

    @Test
    void hostOnlyLibraryIsNotScanned() {
        assertThat(outcome.result().scans()).noneMatch(scan -> scan.path().getFileName().toString()
                .equals("libhostonly.so"));
        assertThat(outcome.result().filesProbed()).isEqualTo(6);
    }

    @Test
    void h200CountsTheLargestKnownFrameRoundedUpTo16() {
        DeviceResult h200 = outcome.result().devices().get(0);
        assertThat(h200.device().name()).isEqualTo("h200-141gb");
        assertThat(h200.worst().name()).isEqualTo("_Z11frameKernelILi2550EEvPii");
        // equal frames in several files: the first library in name order is named, so reports stay deterministic
        assertThat(h200.worst().library()).isEqualTo("frames_sm90.cubin");
        assertThat(h200.worst().stack()).isEqualTo(10200);
        assertThat(h200.reservationBytes()).isEqualTo(270_336L * 10_208);
        assertThat(h200.incrementBytes()).isEqualTo(270_336L * (10_208 - 1024));
        assertThat(h200.unknownStack()).extracting(KernelRecord::library).containsExactly("libframes_rdc.so");
        assertThat(h200.status()).isEqualTo(DeviceResult.Status.FAIL);
        assertThat(outcome.violations()).singleElement().asString()
                .contains("h200-141gb", "exceeds", "void frameKernel<2550>(int*, int)", "[sm_90]", "frames_sm90.cubin");
    }

    @Test
    void a100RunsTheSm80ImageOfTheSharedLibraryOnly() {
        DeviceResult a100 = outcome.result().devices().get(1);
        assertThat(a100.chosenArch().sassLabel()).isEqualTo("sm_80");
        assertThat(a100.imageCounts()).containsOnlyKeys("sm_80");
        assertThat(a100.reservationBytes()).isEqualTo(221_184L * 10_208);
    }

    @Test
    void reportsAreWrittenEvenWhenABudgetFails() throws IOException {
        assertThat(outcome.reports()).hasSize(3).allMatch(Files::isRegularFile);
        String json = Files.readString(outcome.reports().get(0));
        assertThat(json).contains("\"kind\":\"reservation\"")
                .contains("\"figuresSource\": \"catalog: openxla/xla");
    }
}
