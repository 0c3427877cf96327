package io.github.cudastackbudget.core.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.text.DashedFrontend;
import io.github.cudastackbudget.core.text.Frontend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DefaultDevicesTest {

    private final GpuCatalog catalog = GpuCatalog.bundled();

    @Test
    void detectedH200IsMatchedByName() {
        List<String> warnings = new ArrayList<>();

        DefaultDevices.Choice choice = DefaultDevices.choose(catalog,
                LocalGpuDetector.parse("0, NVIDIA H200, 9.0, 143771\n"), warnings, Frontend.PARAMETERS);

        assertThat(warnings).isEmpty();
        assertThat(choice.origin().phrase()).isEqualTo("detected with nvidia-smi; no devices configured");
        assertThat(choice.origin().kind()).isEqualTo(DeviceOrigin.Kind.DETECTED);
        assertThat(choice.origin().isDefault()).isTrue();
        assertThat(choice.devices()).hasSize(1);
        DeviceTarget target = choice.devices().get(0);
        assertThat(target.maxReservation()).isNull();
        assertThat(target.device().name()).isEqualTo("gpu0-h200-141gb");
        assertThat(target.device().source()).startsWith("nvidia-smi GPU 0 'NVIDIA H200' matched to the catalog: ");
        assertThat(target.device().presetId()).isEqualTo("h200-141gb");
        assertThat(target.device().maxResidentThreads()).isEqualTo(270_336L);
        assertThat(target.device().capability().dotted()).isEqualTo("9.0");
        assertThat(target.device().memoryBytes()).as("nvidia-smi's memory.total wins").isEqualTo(150_754_820_096L);
    }

    @Test
    void detectedGpuWithoutMemoryKeepsTheCatalogMemory() {
        DefaultDevices.Choice choice = DefaultDevices.choose(catalog,
                List.of(new LocalGpuDetector.LocalGpu(3, "NVIDIA L4", "8.9", null)), new ArrayList<>(), Frontend.PARAMETERS);

        assertThat(choice.devices()).extracting(target -> target.device().name()).containsExactly("gpu3-l4");
        assertThat(choice.devices().get(0).device().memoryBytes()).isEqualTo(23_570_219_008L);
    }

    @Test
    void twoIdenticalGpusGetDistinctNames() {
        DefaultDevices.Choice choice = DefaultDevices.choose(catalog, LocalGpuDetector.parse(
                "0, NVIDIA H200, 9.0, 143771\n1, NVIDIA H200, 9.0, 143771\n"), new ArrayList<>(), Frontend.PARAMETERS);

        assertThat(choice.devices()).extracting(target -> target.device().name())
                .containsExactly("gpu0-h200-141gb", "gpu1-h200-141gb");
    }

    @Test
    void unknownGpuIsWarnedAboutAndTheDefaultSetIsUsed() {
        List<String> warnings = new ArrayList<>();

        DefaultDevices.Choice choice = DefaultDevices.choose(catalog,
                List.of(new LocalGpuDetector.LocalGpu(1, "NVIDIA Fancy 9000", "8.8", 1L << 34)), warnings, Frontend.PARAMETERS);

        assertThat(warnings).containsExactly("local GPU 1 'NVIDIA Fancy 9000' (compute capability 8.8) is not in the "
                + "catalog: configure it in <devices> with its multiProcessorCount to check it");
        assertThat(choice.origin().phrase()).isEqualTo("default set; configure <devices> or devicePresets to choose");
        assertThat(choice.origin().kind()).isEqualTo(DeviceOrigin.Kind.DEFAULT_SET);
        assertThat(choice.devices()).extracting(target -> target.device().name())
                .containsExactlyElementsOf(DefaultDevices.DEFAULT_PRESETS);
    }

    @Test
    void knownAndUnknownGpusTogetherCheckTheKnownOneAndWarn() {
        List<String> warnings = new ArrayList<>();

        DefaultDevices.Choice choice = DefaultDevices.choose(catalog, List.of(
                new LocalGpuDetector.LocalGpu(0, "NVIDIA Fancy 9000", "8.8", null),
                new LocalGpuDetector.LocalGpu(1, "NVIDIA H200", "9.0", null)), warnings, Frontend.PARAMETERS);

        assertThat(choice.devices()).extracting(target -> target.device().name()).containsExactly("gpu1-h200-141gb");
        assertThat(warnings).hasSize(1).first().asString().startsWith("local GPU 0 'NVIDIA Fancy 9000'");
    }

    @Test
    void noLocalGpuGivesTheSevenDefaultPresets() {
        List<String> warnings = new ArrayList<>();

        DefaultDevices.Choice choice = DefaultDevices.choose(catalog, List.of(), warnings, Frontend.PARAMETERS);

        assertThat(warnings).isEmpty();
        assertThat(DefaultDevices.DEFAULT_PRESETS).containsExactly("t4", "a100-sxm4-80gb", "l4", "h100-sxm5-80gb",
                "h200-141gb", "b200", "rtx-5090");
        assertThat(choice.devices()).hasSize(7);
        assertThat(choice.devices()).extracting(target -> target.device().name()).containsExactly("t4",
                "a100-sxm4-80gb", "l4", "h100-sxm5-80gb", "h200-141gb", "b200", "rtx-5090");
        assertThat(choice.devices()).extracting(target -> target.device().capability().dotted())
                .containsExactly("7.5", "8.0", "8.9", "9.0", "9.0", "10.0", "12.0");
        assertThat(choice.devices()).extracting(DeviceTarget::maxReservation).containsOnlyNulls();
        assertThat(choice.origin().phrase()).isEqualTo("default set; configure <devices> or devicePresets to choose");
        assertThat(choice.origin().kind()).isEqualTo(DeviceOrigin.Kind.DEFAULT_SET);
    }

    @Test
    void theMessagesNameTheOptionsAsTheFrontEndSpellsThem() {
        List<String> warnings = new ArrayList<>();

        DefaultDevices.Choice choice = DefaultDevices.choose(catalog,
                List.of(new LocalGpuDetector.LocalGpu(1, "NVIDIA Fancy 9000", "8.8", null)), warnings,
                DashedFrontend.INSTANCE);

        assertThat(choice.origin().phrase()).isEqualTo("default set; configure --devices or --device-presets to choose");
        assertThat(warnings).singleElement().asString().endsWith("configure it in --devices with its "
                + "multiProcessorCount to check it");
    }
}
