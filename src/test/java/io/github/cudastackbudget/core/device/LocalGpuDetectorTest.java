package io.github.cudastackbudget.core.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class LocalGpuDetectorTest {

    @TempDir
    Path tmp;

    @Test
    void parsesOneH200Line() {
        List<LocalGpuDetector.LocalGpu> gpus = LocalGpuDetector.parse("0, NVIDIA H200, 9.0, 143771\n");

        assertThat(gpus).containsExactly(new LocalGpuDetector.LocalGpu(0, "NVIDIA H200", "9.0", 150_754_820_096L));
        assertThat(gpus.get(0).memoryBytes()).isEqualTo(143_771L << 20);
    }

    @Test
    void parsesSeveralLinesSkippingJunkAndCrLf() {
        String csv = "0, NVIDIA H200, 9.0, 143771\r\n"
                + "No devices were found\r\n"
                + "x, broken, 9.0, 1\r\n"
                + "1, NVIDIA L4, 8.9, [N/A]\r\n"
                + "\r\n"
                + "2, Tesla T4, 7.5, 15360";

        List<LocalGpuDetector.LocalGpu> gpus = LocalGpuDetector.parse(csv);

        assertThat(gpus).containsExactly(
                new LocalGpuDetector.LocalGpu(0, "NVIDIA H200", "9.0", 150_754_820_096L),
                new LocalGpuDetector.LocalGpu(1, "NVIDIA L4", "8.9", null),
                new LocalGpuDetector.LocalGpu(2, "Tesla T4", "7.5", 15_360L << 20));
    }

    /** Issue 10: an enormous memory figure was shifted into a wrapped (negative or wrong) byte count. */
    @Test
    void enormousMemoryFiguresAreUnknownNotWrapped() {
        List<LocalGpuDetector.LocalGpu> gpus = LocalGpuDetector.parse("0, NVIDIA H200, 9.0, 99999999999999\n"
                + "1, NVIDIA H200, 9.0, 8796093022208\n2, NVIDIA H200, 9.0, 999999999999\n");

        assertThat(gpus).extracting(LocalGpuDetector.LocalGpu::memoryBytes)
                .containsExactly(null, null, 999_999_999_999L << 20);
    }

    @Test
    void emptyOutputMeansNoGpus() {
        assertThat(LocalGpuDetector.parse("")).isEmpty();
    }

    @Test
    void noNvidiaSmiOnPathMeansNoGpus() {
        assertThat(LocalGpuDetector.detect(Map.of("PATH", tmp.toString()))).isEmpty();
        assertThat(LocalGpuDetector.detect(Map.of())).isEmpty();
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void runsNvidiaSmiFromPathAndParsesItsOutput() throws IOException {
        Path script = tmp.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\n"
                + "[ \"$1\" = \"--query-gpu=index,name,compute_cap,memory.total\" ] || exit 3\n"
                + "[ \"$2\" = \"--format=csv,noheader,nounits\" ] || exit 4\n"
                + "echo '0, NVIDIA H200, 9.0, 143771'\n"
                + "echo '1, NVIDIA H200, 9.0, 143771'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));

        List<LocalGpuDetector.LocalGpu> gpus = LocalGpuDetector.detect(Map.of("PATH", "/nonexistent:" + tmp));

        assertThat(gpus).extracting(LocalGpuDetector.LocalGpu::index).containsExactly(0, 1);
        assertThat(gpus).extracting(LocalGpuDetector.LocalGpu::name).containsOnly("NVIDIA H200");
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void failingNvidiaSmiMeansNoGpus() throws IOException {
        Path script = tmp.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\necho '0, NVIDIA H200, 9.0, 143771'\nexit 9\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThat(LocalGpuDetector.detect(Map.of("PATH", tmp.toString()))).isEmpty();
    }
}
