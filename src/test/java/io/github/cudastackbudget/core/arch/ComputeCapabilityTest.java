package io.github.cudastackbudget.core.arch;

import io.github.cudastackbudget.core.text.InvalidValueException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ComputeCapabilityTest {

    static Stream<Arguments> acceptedSpellings() {
        return Stream.of(
                Arguments.of("9.0", 9, 0),
                Arguments.of("90", 9, 0),
                Arguments.of("sm_90", 9, 0),
                Arguments.of("sm_9.0", 9, 0),
                Arguments.of("compute_90", 9, 0),
                Arguments.of("12.1", 12, 1),
                Arguments.of("121", 12, 1),
                Arguments.of("sm_121", 12, 1),
                Arguments.of("100", 10, 0),
                Arguments.of(" 8.6 ", 8, 6),
                Arguments.of("SM_86", 8, 6),
                Arguments.of("Compute_75", 7, 5),
                Arguments.of("10.3", 10, 3),
                Arguments.of("sm_110", 11, 0),
                Arguments.of("75", 7, 5));
    }

    @ParameterizedTest(name = "\"{0}\" -> {1}.{2}")
    @MethodSource("acceptedSpellings")
    void parsesEveryAcceptedSpelling(String text, int major, int minor) {
        ComputeCapability capability = ComputeCapability.parse(text);

        assertThat(capability.major()).isEqualTo(major);
        assertThat(capability.minor()).isEqualTo(minor);
        assertThat(capability).isEqualTo(new ComputeCapability(major, minor));
    }

    @ParameterizedTest(name = "\"{0}\" is rejected")
    @ValueSource(strings = {"abc", "sm_", "9", "9.10", "1000", "0.0", "sm_90a", "compute_", "9.", ".9", "sm_90f", "00",
            "9,0", "sm-90", "1234"})
    void rejectsMalformedValuesNamingThem(String text) {
        assertThatThrownBy(() -> ComputeCapability.parse(text))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("'" + text + "'")
                .hasMessageContaining("9.0, 90, sm_90");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "\t"})
    void rejectsEmptyValues(String text) {
        assertThatThrownBy(() -> ComputeCapability.parse(text))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("compute capability is empty: use a form such as 9.0, 90 or sm_90");
    }

    @Test
    void invalidValueExceptionIsAnIllegalArgumentException() {
        assertThatThrownBy(() -> ComputeCapability.parse("abc")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void constructorRejectsOutOfRangeFigures() {
        assertThatThrownBy(() -> new ComputeCapability(0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid compute capability 0.0");
        assertThatThrownBy(() -> new ComputeCapability(9, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid compute capability 9.10");
        assertThatThrownBy(() -> new ComputeCapability(100, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ComputeCapability(9, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void namesAndNumbers() {
        ComputeCapability hopper = ComputeCapability.parse("9.0");
        ComputeCapability spark = ComputeCapability.parse("12.1");

        assertThat(hopper.number()).isEqualTo(90);
        assertThat(hopper.smName()).isEqualTo("sm_90");
        assertThat(hopper.dotted()).isEqualTo("9.0");
        assertThat(hopper).hasToString("9.0");
        assertThat(spark.number()).isEqualTo(121);
        assertThat(spark.smName()).isEqualTo("sm_121");
        assertThat(spark.dotted()).isEqualTo("12.1");
    }

    @Test
    void ordersByMajorThenMinorAcrossTwoAndThreeDigitNumbers() {
        List<ComputeCapability> list = new ArrayList<>(List.of(ComputeCapability.parse("12.0"),
                ComputeCapability.parse("8.9"), ComputeCapability.parse("10.3"), ComputeCapability.parse("9.0"),
                ComputeCapability.parse("8.6"), ComputeCapability.parse("10.0")));
        list.sort(null);

        assertThat(list).extracting(ComputeCapability::dotted)
                .containsExactly("8.6", "8.9", "9.0", "10.0", "10.3", "12.0");
        assertThat(ComputeCapability.parse("8.9").compareTo(ComputeCapability.parse("9.0"))).isNegative();
        assertThat(ComputeCapability.parse("9.0").compareTo(ComputeCapability.parse("sm_90"))).isZero();
    }
}
