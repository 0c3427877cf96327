package io.github.cudastackbudget.core.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.device.DeviceSpec;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SizeLimitTest {

    private static final long GIB = 1L << 30;

    private static DeviceSpec device(String name, Long memory) {
        return new DeviceSpec(name, null, ComputeCapability.parse("9.0"), 270_336, 132, 2048, memory, "test");
    }

    @Test
    void absoluteSizes() {
        SizeLimit limit = SizeLimit.parse(" 1.5 GiB ", "maxReservation");

        assertThat(limit.isPercentage()).isFalse();
        assertThat(limit.bytes()).isEqualTo(1_610_612_736L);
        assertThat(limit.percent()).isNull();
        assertThat(limit.text()).isEqualTo("1.5 GiB");
        assertThat(limit.resolve(device("no-memory", null), "maxReservation")).isEqualTo(1_610_612_736L);
        assertThat(SizeLimit.parse("512MiB", "m").bytes()).isEqualTo(536_870_912L);
        assertThat(SizeLimit.parse("2 GB", "m").bytes()).isEqualTo(2_000_000_000L);
        assertThat(SizeLimit.parse("1073741824", "m").bytes()).isEqualTo(1_073_741_824L);
    }

    @Test
    void twoPercentOf80GiBIsExactAndRoundedDown() {
        SizeLimit limit = SizeLimit.parse("2%", "maxReservation");

        assertThat(limit.isPercentage()).isTrue();
        assertThat(limit.bytes()).isNull();
        assertThat(limit.percent()).isEqualByComparingTo("2");
        // 2 % of 85,899,345,920 B = 1,717,986,918.4 B -> 1,717,986,918 B
        assertThat(limit.resolve(device("a100", 80 * GIB), "maxReservation")).isEqualTo(1_717_986_918L);
    }

    @Test
    void fractionalAndBoundaryPercentages() {
        assertThat(SizeLimit.parse("0.5%", "m").resolve(device("d", 80 * GIB), "m")).isEqualTo(429_496_729L);
        assertThat(SizeLimit.parse("100%", "m").resolve(device("d", 80 * GIB), "m")).isEqualTo(80 * GIB);
        assertThat(SizeLimit.parse("0%", "m").resolve(device("d", 80 * GIB), "m")).isZero();
        assertThat(SizeLimit.parse(" 2 % ", "m").percent()).isEqualByComparingTo("2");
        // H200 catalog memory 151,397,597,184 B x 2 % = 3,027,951,943.68 -> 3,027,951,943
        assertThat(SizeLimit.parse("2%", "m").resolve(device("h200", 151_397_597_184L), "m")).isEqualTo(3_027_951_943L);
    }

    @Test
    void percentageWithoutDeviceMemoryNamesTheDevice() {
        SizeLimit limit = SizeLimit.parse("2%", "maxReservation");

        assertThatThrownBy(() -> limit.resolve(device("my-gpu", null), "maxReservation of device 'my-gpu'"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxReservation of device 'my-gpu' '2%' is a percentage of device memory, but device 'my-gpu'"
                        + " has no <memory>: add <memory> (e.g. 80 GiB) or use a preset");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc%", "%", "2 %%", "two%"})
    void rejectsMalformedPercentages(String text) {
        assertThatThrownBy(() -> SizeLimit.parse(text, "maxReservation"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxReservation '" + text + "' is not a percentage: use e.g. 2% or 0.5%");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1%", "101%", "100.01%"})
    void rejectsPercentagesOutOfRange(String text) {
        assertThatThrownBy(() -> SizeLimit.parse(text, "maxReservation"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxReservation '" + text + "' must be between 0% and 100%");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "1.5 XB", "1e3"})
    void rejectsBadSizesNamingTheParameter(String text) {
        assertThatThrownBy(() -> SizeLimit.parse(text, "maxReservation"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("maxReservation '" + text + "' is not a size");
    }

    /** Fuzz findings (issue 10): exponents made BigDecimal overflow or run for minutes; refused at once now. */
    @ParameterizedTest
    @ValueSource(strings = {"1e-1111111110%", "1e-111211110%", "1e-999999999%", "1E5%", "0x10%", "1e-100000000%"})
    @org.junit.jupiter.api.Timeout(5)
    void exponentsAreRefusedAtOnce(String text) {
        assertThatThrownBy(() -> SizeLimit.parse(text, "maxReservation"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxReservation '" + text + "' is not a percentage: use e.g. 2% or 0.5%");
    }

    @Test
    void exactlyOneOfBytesAndPercent() {
        assertThatThrownBy(() -> new SizeLimit("x", null, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("exactly one of bytes and percent");
        assertThatThrownBy(() -> new SizeLimit("x", 1L, BigDecimal.ONE)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e-999999999%", "1e-100000000%", "1E2%", "0x10%"})
    void rejectsExponentsQuickly(String text) {
        // issue 10: 1e-999999999% exited 3 (ArithmeticException), 1e-100000000% ran for minutes
        long start = System.nanoTime();
        assertThatThrownBy(() -> SizeLimit.parse(text, "maxReservation"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxReservation '" + text + "' is not a percentage: use e.g. 2% or 0.5%");
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(1.0);
    }

    @Test
    void rejectsAMillionDigitsQuickly() {
        String digits = "1".repeat(1_000_000);
        long start = System.nanoTime();
        assertThatThrownBy(() -> SizeLimit.parse(digits, "maxReservation")).isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("maxReservation '1111111111111111111111111111111111111...' is not a size");
        assertThatThrownBy(() -> SizeLimit.parse(digits + "%", "maxReservation"))
                .isInstanceOf(InvalidValueException.class);
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(1.0);
    }
}
