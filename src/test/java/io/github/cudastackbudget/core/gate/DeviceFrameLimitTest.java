package io.github.cudastackbudget.core.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A device's own {@code maxStackPerThread} comes before the global one, over the nvcc-built libframes.so (frames of
 * 10,200 B, 4,096 B, 256 B, 0 B and one UNKNOWN; ptxas-info.txt).
 */
class DeviceFrameLimitTest {

    @TempDir
    Path tmp;

    private static DeviceDefinition preset(String id, String maxStack) {
        return new DeviceDefinition(id, null, null, null, null, null, null, null, maxStack);
    }

    private CheckRunner.Outcome run(String globalMaxStack, DeviceDefinition... devices) throws CheckException {
        CheckOptions options = CheckOptions.builder().libraryFiles(List.of(RecordedCuobjdump.testCuda("libframes.so")))
                .engine("native").devices(List.of(devices)).detectLocalDevices(false)
                .maxStackPerThread(globalMaxStack).outputDirectory(tmp.resolve("out")).environment(Map.of()).build();
        return CheckRunner.run(options, CheckListener.SILENT);
    }

    @Test
    void aDevicesOwnLimitComesBeforeTheGlobalOne() throws Exception {
        CheckRunner.Outcome outcome = run("4 KiB", preset("h200-141gb", "16 KiB"), preset("l4", null),
                preset("a100-sxm4-80gb", "1 KiB"));

        List<Violation> violations = outcome.result().violations();
        // h200: 16 KiB of its own, nothing over it; l4: the global 4 KiB, only the 10,200-B frame; a100: its own 1 KiB
        assertThat(violations).allMatch(v -> v.kind() == Violation.Kind.STACK);
        assertThat(violations).filteredOn(v -> v.device().equals("h200-141gb")).isEmpty();
        assertThat(violations).filteredOn(v -> v.device().equals("l4"))
                .extracting(Violation::actual, Violation::limit).containsExactly(org.assertj.core.groups.Tuple.tuple(10_200L, 4_096L));
        assertThat(violations).filteredOn(v -> v.device().equals("a100-sxm4-80gb"))
                .extracting(Violation::actual, Violation::limit)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(10_200L, 1_024L),
                        org.assertj.core.groups.Tuple.tuple(4_096L, 1_024L));
        assertThat(outcome.violations()).anyMatch(line -> line.startsWith("a100-sxm4-80gb: ")
                && line.contains("maxStackPerThread 1,024 B"));
    }

    @Test
    void aDevicesOwnLimitWorksWithoutAGlobalOne() throws Exception {
        CheckRunner.Outcome outcome = run(null, preset("h200-141gb", "8 KiB"), preset("l4", null));

        assertThat(outcome.result().violations()).singleElement().satisfies(v -> {
            assertThat(v.device()).isEqualTo("h200-141gb");
            assertThat(v.actual()).isEqualTo(10_200L);
            assertThat(v.limit()).isEqualTo(8_192L);
            assertThat(v.kernel().name()).isEqualTo("_Z11frameKernelILi2550EEvPii");
        });
    }

    @Test
    void aBadOwnLimitNamesTheDevice() {
        assertThatThrownBy(() -> run(null, preset("l4", "a lot")))
                .isInstanceOf(CheckException.class)
                .hasMessageStartingWith("maxStackPerThread of device 'l4' 'a lot' is not a size")
                .hasMessageNotContaining("\n");
    }
}
