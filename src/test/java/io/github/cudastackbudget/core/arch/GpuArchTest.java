package io.github.cudastackbudget.core.arch;

import io.github.cudastackbudget.core.text.InvalidValueException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class GpuArchTest {

    static Stream<Arguments> labels() {
        return Stream.of(
                Arguments.of("sm_90", "9.0", ArchVariant.BASE, "sm_90", "compute_90"),
                Arguments.of("sm_90a", "9.0", ArchVariant.ARCH_SPECIFIC, "sm_90a", "compute_90a"),
                Arguments.of("sm_100f", "10.0", ArchVariant.FAMILY, "sm_100f", "compute_100f"),
                Arguments.of("compute_120", "12.0", ArchVariant.BASE, "sm_120", "compute_120"),
                Arguments.of("compute_103f", "10.3", ArchVariant.FAMILY, "sm_103f", "compute_103f"),
                Arguments.of(" sm_75 ", "7.5", ArchVariant.BASE, "sm_75", "compute_75"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("labels")
    void parsesLabels(String label, String capability, ArchVariant variant, String sass, String ptx) {
        GpuArch arch = GpuArch.parse(label);

        assertThat(arch.capability()).isEqualTo(ComputeCapability.parse(capability));
        assertThat(arch.variant()).isEqualTo(variant);
        assertThat(arch.sassLabel()).isEqualTo(sass);
        assertThat(arch.ptxLabel()).isEqualTo(ptx);
        assertThat(arch).hasToString(sass);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "sm_9", "sm_90x", "sm_1000", "90", "9.0", "sm_90af", "SM90"})
    void rejectsUnknownLabelsNamingThem(String label) {
        assertThatThrownBy(() -> GpuArch.parse(label))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("unknown CUDA arch label '" + label
                        + "': expected sm_NN or sm_NNN with an optional a/f suffix");
    }

    @Test
    void rejectsNull() {
        assertThatThrownBy(() -> GpuArch.parse(null)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("'null'");
    }

    @Test
    void variantSuffixesAndPreference() {
        assertThat(ArchVariant.BASE.suffix()).isEmpty();
        assertThat(ArchVariant.FAMILY.suffix()).isEqualTo("f");
        assertThat(ArchVariant.ARCH_SPECIFIC.suffix()).isEqualTo("a");
        assertThat(ArchVariant.ARCH_SPECIFIC.preference()).isGreaterThan(ArchVariant.FAMILY.preference());
        assertThat(ArchVariant.FAMILY.preference()).isGreaterThan(ArchVariant.BASE.preference());
    }

    @Test
    void naturalOrderIsCapabilityThenBaseFamilyArchSpecific() {
        TreeSet<GpuArch> set = new TreeSet<>();
        for (String label : List.of("sm_100a", "sm_90", "sm_100", "sm_120", "sm_90a", "sm_100f", "sm_86")) {
            set.add(GpuArch.parse(label));
        }
        assertThat(set).extracting(GpuArch::sassLabel)
                .containsExactly("sm_86", "sm_90", "sm_90a", "sm_100", "sm_100f", "sm_100a", "sm_120");
    }

    @Test
    void preferredFirstIsTheReverse() {
        List<GpuArch> list = new ArrayList<>();
        for (String label : List.of("sm_90", "sm_100f", "sm_90a", "sm_100", "sm_100a")) {
            list.add(GpuArch.parse(label));
        }
        list.sort(GpuArch.PREFERRED_FIRST);
        assertThat(list).extracting(GpuArch::sassLabel)
                .containsExactly("sm_100a", "sm_100f", "sm_100", "sm_90a", "sm_90");
    }
}
