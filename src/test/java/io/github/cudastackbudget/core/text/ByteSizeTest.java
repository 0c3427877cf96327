package io.github.cudastackbudget.core.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {

    @ParameterizedTest(name = "\"{0}\" = {1}")
    @CsvSource(delimiter = '|', value = {
            "1.5 GiB|1610612736",
            "512MiB|536870912",
            "512 MiB|536870912",
            "2 GB|2000000000",
            "1073741824|1073741824",
            "1 kB|1000",
            "1 KiB|1024",
            "1 TiB|1099511627776",
            "1 TB|1000000000000",
            "3 MB|3000000",
            "100 B|100",
            "0|0",
            "0 GiB|0",
            "  64 KiB  |65536",
            // unit letters are case-insensitive
            "1.5 gib|1610612736",
            "1.5 GIB|1610612736",
            "2 gb|2000000000",
            "1 KB|1000",
            "1 kib|1024",
            "512mib|536870912",
            "100 b|100",
            // fractions round down to whole bytes
            "1.5 B|1",
            "0.3 KiB|307",
            "1.9999|1",
            "0.0001 kB|0",
            "2.58 GiB|2770253905"})
    void parses(String text, long expected) {
        assertThat(ByteSize.parse(text, "maxReservation")).isEqualTo(expected);
    }

    @ParameterizedTest(name = "\"{0}\" is rejected")
    @ValueSource(strings = {"abc", "1.5 XB", "1e3", "GiB", "1.5.2 GiB", ".5 GiB", "1,5 GiB", "1 GiB extra",
            "1 Gi", "1 kbit"})
    void rejectsBadInputNamingParameterAndValue(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text, "maxStackPerThread"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("maxStackPerThread '" + text + "' is not a size")
                .hasMessageContaining("KiB, MiB, GiB, TiB (powers of 1024)")
                .hasMessageContaining("kB, MB, GB, TB (powers of 1000)");
    }

    @ParameterizedTest(name = "\"{0}\" is negative")
    @ValueSource(strings = {"-1 GiB", "-0", " -5", "-99999999999999999999999999999999999999 TiB"})
    void negativeSizesAreNamedAsSuch(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text, "maxStackPerThread"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxStackPerThread '" + ByteSize.shown(text) + "' is negative: a size is 0 or more bytes");
    }

    /** Fuzz findings (issue 10): a value with a line break once gave a message of several lines. */
    @ParameterizedTest
    @ValueSource(strings = {"2\r%", "%\n", "1111111111111111111111111111111111111\n", "1\u0000GiB", "4\u001bKiB"})
    void messagesStayOneLine(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text, "maxStackPerThread"))
                .isInstanceOf(InvalidValueException.class)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage()).doesNotContain("\n", "\r",
                        "\u0000", "\u001b"));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   "})
    void rejectsEmptyNamingParameter(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text, "memory of device 'x'"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("memory of device 'x' '" + text + "' is not a size");
    }

    @Test
    void rejectsSizesBeyondLongRange() {
        assertThatThrownBy(() -> ByteSize.parse("9000000 TiB", "maxReservation"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("maxReservation '9000000 TiB' is too large (at most 9223372036854775807 bytes, 8 EiB)");
        assertThat(ByteSize.parse("9223372036854775807", "x")).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> ByteSize.parse("9223372036854775808", "x")).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void formatsLargeSizesWithBinaryUnitAndGroupedBytes() {
        assertThat(ByteSize.format(2_766_077_952L)).isEqualTo("2.58 GiB (2,766,077,952 B)");
        assertThat(ByteSize.format(1024)).isEqualTo("1.00 KiB (1,024 B)");
        assertThat(ByteSize.format(276_824_064L)).isEqualTo("264.00 MiB (276,824,064 B)");
        assertThat(ByteSize.format(17_439_916_032L)).isEqualTo("16.24 GiB (17,439,916,032 B)");
        assertThat(ByteSize.format(1_099_511_627_776L)).isEqualTo("1.00 TiB (1,099,511,627,776 B)");
    }

    @Test
    void formatsSmallSizesAsPlainBytes() {
        assertThat(ByteSize.format(512)).isEqualTo("512 B");
        assertThat(ByteSize.format(0)).isEqualTo("0 B");
        assertThat(ByteSize.format(1023)).isEqualTo("1023 B");
    }

    @Test
    void humanAndGrouped() {
        assertThat(ByteSize.human(512)).isEqualTo("512 B");
        assertThat(ByteSize.human(1_610_612_736L)).isEqualTo("1.50 GiB");
        assertThat(ByteSize.human(1536)).isEqualTo("1.50 KiB");
        assertThat(ByteSize.grouped(2_766_077_952L)).isEqualTo("2,766,077,952");
        assertThat(ByteSize.grouped(999)).isEqualTo("999");
    }
}
