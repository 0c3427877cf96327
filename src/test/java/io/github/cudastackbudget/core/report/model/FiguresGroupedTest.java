package io.github.cudastackbudget.core.report.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Figures#grouped} is written by hand (issue 11) and must write what {@code %,d} writes, for every value. */
class FiguresGroupedTest {

    @Test
    void writesWhatTheFormatterWrites() {
        List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, 9L, 10L, 99L, 100L, 999L, 1000L, -1000L, 9999L,
                10000L, 99999L, 100000L, 999999L, 1000000L, -999999L, 2_768_240_640L, Long.MAX_VALUE, Long.MIN_VALUE,
                Long.MIN_VALUE + 1, (long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE));
        for (long power = 1; power > 0 && power <= Long.MAX_VALUE / 10; power *= 10) {
            values.add(power);
            values.add(power - 1);
            values.add(-power);
            values.add(-(power - 1));
        }
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 10_000; i++) {
            values.add(random.nextLong() >> random.nextInt(64));
        }
        for (long value : values) {
            assertThat(Figures.grouped(value)).as("%d", value).isEqualTo(String.format(Locale.ROOT, "%,d", value));
        }
    }

    @Test
    void theStackLabelGroupsTheFrame() {
        assertThat(new KernelRow("k", null, "lib.so", "sm_90", 32, 10_208, false, 0, 0).stackLabel())
                .isEqualTo("10,208");
        assertThat(new KernelRow("k", null, "lib.so", "sm_90", 32, 0, true, 0, 0).stackLabel()).isEqualTo("UNKNOWN");
    }
}
