package io.github.cudastackbudget.core.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceResolverTest {

    private final DeviceResolver resolver = new DeviceResolver(GpuCatalog.bundled());

    /** preset, name, computeCapability, maxResidentThreads, multiProcessorCount, maxThreadsPerMultiProcessor, memory, maxReservation. */
    private static DeviceDefinition def(String preset, String name, String cc, String threads, String sms, String perSm,
            String memory, String budget) {
        return new DeviceDefinition(preset, name, cc, threads, sms, perSm, memory, budget);
    }

    private DeviceTarget one(DeviceDefinition definition) {
        List<DeviceTarget> targets = resolver.resolve(List.of(definition), null);
        assertThat(targets).hasSize(1);
        return targets.get(0);
    }

    @Test
    void preset() {
        DeviceTarget target = one(DeviceDefinition.preset("h200-141gb"));
        DeviceSpec spec = target.device();

        assertThat(spec.name()).isEqualTo("h200-141gb");
        assertThat(spec.presetId()).isEqualTo("h200-141gb");
        assertThat(spec.capability()).isEqualTo(new ComputeCapability(9, 0));
        assertThat(spec.maxResidentThreads()).isEqualTo(270_336L);
        assertThat(spec.multiProcessorCount()).isEqualTo(132);
        assertThat(spec.maxThreadsPerMultiProcessor()).isEqualTo(2048);
        assertThat(spec.memoryBytes()).isEqualTo(151_397_597_184L);
        assertThat(spec.source()).startsWith("catalog: ");
        assertThat(target.maxReservation()).isNull();
    }

    @Test
    void presetList() {
        List<DeviceTarget> targets = resolver.resolve(List.of(), "h200-141gb, l4");

        assertThat(targets).extracting(target -> target.device().name()).containsExactly("h200-141gb", "l4");
        assertThat(targets).extracting(target -> target.device().maxResidentThreads()).containsExactly(270_336L, 89_088L);
        assertThat(targets).extracting(DeviceTarget::maxReservation).containsOnlyNulls();
    }

    @Test
    void presetListIgnoresBlankEntriesAndFollowsDefinitions() {
        List<DeviceTarget> targets = resolver.resolve(List.of(DeviceDefinition.preset("t4")), " h200-141gb,, L4 ,");

        assertThat(targets).extracting(target -> target.device().name()).containsExactly("t4", "h200-141gb", "l4");
        assertThat(resolver.resolve(List.of(), null)).isEmpty();
        assertThat(resolver.resolve(List.of(), "  ")).isEmpty();
    }

    @Test
    void unknownPresetInTheListNamesIt() {
        assertThatThrownBy(() -> resolver.resolve(List.of(), "h200-141gb, h300"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("unknown device preset 'h300': use one of ");
        assertThatThrownBy(() -> resolver.resolve(List.of(DeviceDefinition.preset("nope")), null))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("unknown device preset 'nope'");
    }

    @Test
    void explicitCapabilityAndThreads() {
        DeviceTarget target = one(def(null, "my-gpu", "sm_90", "270336", null, null, null, null));
        DeviceSpec spec = target.device();

        assertThat(spec.name()).isEqualTo("my-gpu");
        assertThat(spec.presetId()).isNull();
        assertThat(spec.capability()).isEqualTo(new ComputeCapability(9, 0));
        assertThat(spec.maxResidentThreads()).isEqualTo(270_336L);
        assertThat(spec.multiProcessorCount()).isNull();
        assertThat(spec.maxThreadsPerMultiProcessor()).isNull();
        assertThat(spec.memoryBytes()).isNull();
        assertThat(spec.source()).isEqualTo("configured figures");
    }

    @Test
    void nameIsStrippedAndThreadsMayBeGrouped() {
        DeviceSpec spec = one(def(null, "  rig  ", "90", "270,336", null, null, null, null)).device();
        assertThat(spec.name()).isEqualTo("rig");
        assertThat(spec.maxResidentThreads()).isEqualTo(270_336L);
        assertThat(one(def(null, "rig", "9.0", "270_336", null, null, null, null)).device().maxResidentThreads())
                .isEqualTo(270_336L);
    }

    @Test
    void smCountTimesThreadsPerSm() {
        DeviceSpec spec = one(def(null, "mig-1g", "9.0", null, "16", "2048", null, null)).device();

        assertThat(spec.maxResidentThreads()).isEqualTo(32_768L);
        assertThat(spec.multiProcessorCount()).isEqualTo(16);
        assertThat(spec.maxThreadsPerMultiProcessor()).isEqualTo(2048);
    }

    @Test
    void consistentThreadsAndSmFiguresAreAccepted() {
        DeviceSpec spec = one(def(null, "g", "9.0", "270336", "132", "2048", null, null)).device();

        assertThat(spec.maxResidentThreads()).isEqualTo(270_336L);
        assertThat(spec.multiProcessorCount()).isEqualTo(132);
    }

    @Test
    void mismatchBetweenThreadsAndSmFigures() {
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", "270000", "132", "2048", null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu': maxResidentThreads 270000 is not multiProcessorCount 132 x "
                        + "maxThreadsPerMultiProcessor 2048; give one or the other");
    }

    @Test
    void onlyOneOfTheSmFigures() {
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", null, "132", null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu': give both <multiProcessorCount> and <maxThreadsPerMultiProcessor>, or "
                        + "<maxResidentThreads>");
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", null, null, "2048", null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("give both <multiProcessorCount>");
    }

    @Test
    void missingCapabilityNamesDeviceAndField() {
        assertThatThrownBy(() -> one(def(null, "my-gpu", null, "270336", null, null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu' lacks <computeCapability>: add it, or use a catalog <preset>");
        assertThatThrownBy(() -> one(def(null, "my-gpu", "  ", "270336", null, null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("lacks <computeCapability>");
    }

    @Test
    void missingThreadsNamesDeviceAndField() {
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", null, null, null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu' lacks <maxResidentThreads (or multiProcessorCount and "
                        + "maxThreadsPerMultiProcessor)>: add it, or use a catalog <preset>");
    }

    @Test
    void neitherPresetNorNameNamesThePosition() {
        assertThatThrownBy(() -> resolver.resolve(List.of(DeviceDefinition.preset("t4"),
                def(null, null, "9.0", "1000", null, null, null, null)), null))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("device #2 has neither <preset> nor <name>");
    }

    @Test
    void badWholeNumbersNameDeviceFieldAndValue() {
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", "-5", null, null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu': <maxResidentThreads> '-5' must be a positive whole number");
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", "0", null, null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu': <maxResidentThreads> '0' must be a positive whole number");
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", null, "many", "2048", null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu': <multiProcessorCount> 'many' must be a positive whole number");
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", null, "132", "2048.5", null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'my-gpu': <maxThreadsPerMultiProcessor> '2048.5' must be a positive whole number");
        assertThatThrownBy(() -> one(def(null, "my-gpu", "9.0", "99999999999", null, null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("<maxResidentThreads> '99999999999' must be a positive whole number");
    }

    @Test
    void duplicateNamesAreRejected() {
        assertThatThrownBy(() -> resolver.resolve(List.of(DeviceDefinition.preset("h200-141gb")), "h200-141gb"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'h200-141gb' is configured twice: give each device a distinct <name>");
        assertThatThrownBy(() -> resolver.resolve(List.of(def(null, "gpu", "9.0", "1000", null, null, null, null),
                def("l4", "gpu", null, null, null, null, null, null)), null))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("device 'gpu' is configured twice");
    }

    @Test
    void samePresetUnderTwoNamesIsFine() {
        List<DeviceTarget> targets = resolver.resolve(List.of(def("h200-141gb", "prod", null, null, null, null, null, null),
                def("h200-141gb", "staging", null, null, null, null, null, null)), null);

        assertThat(targets).extracting(target -> target.device().name()).containsExactly("prod", "staging");
        assertThat(targets).extracting(target -> target.device().presetId()).containsOnly("h200-141gb");
    }

    @Test
    void memoryParsing() {
        assertThat(one(def(null, "g", "9.0", "1000", null, null, "141 GiB", null)).device().memoryBytes())
                .isEqualTo(151_397_597_184L);
        assertThat(one(def(null, "g", "9.0", "1000", null, null, "80 GB", null)).device().memoryBytes())
                .isEqualTo(80_000_000_000L);
        assertThat(one(def(null, "g", "9.0", "1000", null, null, "1073741824", null)).device().memoryBytes())
                .isEqualTo(1_073_741_824L);
        assertThatThrownBy(() -> one(def(null, "g", "9.0", "1000", null, null, "lots", null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("memory of device 'g' 'lots' is not a size");
        assertThatThrownBy(() -> one(def(null, "g", "9.0", "1000", null, null, "0 GiB", null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("device 'g': memory must be positive, got 0");
    }

    @Test
    void perDeviceBudget() {
        DeviceTarget absolute = one(def(null, "g", "9.0", "1000", null, null, null, "1.5 GiB"));
        assertThat(absolute.maxReservation().bytes()).isEqualTo(1_610_612_736L);

        DeviceTarget percent = one(def("h200-141gb", null, null, null, null, null, null, "2%"));
        assertThat(percent.maxReservation().isPercentage()).isTrue();
        assertThat(percent.maxReservation().resolve(percent.device(), "m")).isEqualTo(3_027_951_943L);

        assertThatThrownBy(() -> one(def(null, "g", "9.0", "1000", null, null, null, "a lot")))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("maxReservation of device 'g' 'a lot' is not a size");
        assertThatThrownBy(() -> one(def("l4", null, null, null, null, null, null, "200%")))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxReservation of device 'l4' '200%' must be between 0% and 100%");
    }

    @Test
    void presetFieldsCanBeOverridden() {
        DeviceSpec spec = one(def("h200-141gb", "prod-h200", null, null, null, null, "100 GiB", null)).device();
        assertThat(spec.name()).isEqualTo("prod-h200");
        assertThat(spec.presetId()).isEqualTo("h200-141gb");
        assertThat(spec.memoryBytes()).isEqualTo(100L << 30);
        assertThat(spec.maxResidentThreads()).isEqualTo(270_336L);
        assertThat(spec.capability()).isEqualTo(new ComputeCapability(9, 0));

        DeviceSpec threads = one(def("h100-nvl-94gb", "slice", null, "32768", null, null, null, null)).device();
        assertThat(threads.maxResidentThreads()).isEqualTo(32_768L);
        assertThat(threads.capability()).isEqualTo(new ComputeCapability(9, 0));

        DeviceSpec sms = one(def("h100-nvl-94gb", "slice2", null, null, "26", "2048", null, null)).device();
        assertThat(sms.maxResidentThreads()).isEqualTo(53_248L);
        assertThat(sms.multiProcessorCount()).isEqualTo(26);

        DeviceSpec cc = one(def("l4", "l4-as-89", "8.6", null, null, null, null, null)).device();
        assertThat(cc.capability()).isEqualTo(new ComputeCapability(8, 6));
        assertThat(cc.maxResidentThreads()).isEqualTo(89_088L);
    }

    @Test
    void presetIdIsCaseInsensitive() {
        DeviceSpec spec = one(DeviceDefinition.preset(" H200-141GB ")).device();
        assertThat(spec.name()).isEqualTo("h200-141gb");
    }

    @Test
    void badCapabilityIsRejectedNamingTheValue() {
        assertThatThrownBy(() -> one(def(null, "my-gpu", "sm_90a", "1000", null, null, null, null)))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("'sm_90a'");
    }

    // regression: a bad <computeCapability> once gave a message naming neither the device nor the field
    @Test
    void badCapabilityMessageNamesTheDevice() {
        assertThatThrownBy(() -> resolver.resolve(List.of(DeviceDefinition.preset("t4"),
                def(null, "my-gpu", "abc", "1000", null, null, null, null)), null))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("device 'my-gpu'")
                .hasMessageContaining("computeCapability")
                .hasMessageContaining("'abc'");
    }

    // regression: a preset with only <multiProcessorCount> (a MIG slice) once failed instead of keeping threads/SM
    @Test
    void presetWithOnlySmCountOverriddenKeepsCatalogThreadsPerSm() {
        DeviceSpec spec = one(def("h100-nvl-94gb", "mig-1g.12gb", null, null, "16", null, null, null)).device();

        assertThat(spec.multiProcessorCount()).isEqualTo(16);
        assertThat(spec.maxThreadsPerMultiProcessor()).isEqualTo(2048);
        assertThat(spec.maxResidentThreads()).isEqualTo(32_768L);
        assertThat(spec.source()).startsWith("catalog: ").endsWith("; overridden by the configuration");
    }
}
