package io.github.cudastackbudget.core.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The driver arithmetic measured on this project's H200 (driver.md). */
class ReservationTest {

    private static final long H200_THREADS = 132L * 2048; // 270,336

    @ParameterizedTest(name = "roundup16({0}) = {1}")
    @CsvSource({"1, 16", "1000, 1008", "1025, 1040", "10200, 10208", "4096, 4096", "0, 0", "16, 16", "17, 32",
            "100, 112", "4097, 4112", "8, 16", "15, 16", "1030, 1040", "65536, 65536"})
    void stackLimitRoundsUpTo16(long frame, long limit) {
        assertThat(Reservation.stackLimitFor(frame)).isEqualTo(limit);
    }

    @ParameterizedTest(name = "H200 frame {0}: {1} B, increment {2} B")
    @CsvSource({
            "4096, 1107296256, 830472192",
            "16384, 4429185024, 4152360960",
            "65536, 17716740096, 17439916032",
            "131072, 35433480192, 35156656128",
            "1024, 276824064, 0"})
    void h200Figures(long frame, long bytes, long increment) {
        assertThat(H200_THREADS).isEqualTo(270_336L);
        assertThat(Reservation.bytesFor(H200_THREADS, frame)).isEqualTo(bytes);
        assertThat(Reservation.incrementFor(H200_THREADS, frame)).isEqualTo(increment);
        assertThat(Reservation.incrementFor(H200_THREADS, frame)).isEqualTo(H200_THREADS * (frame - 1024));
    }

    @Test
    void measuredSpotChecksFromDriverMd() {
        // 4096 -> +830,472,192 B over the 1024 baseline; 131,072 -> +35,156,656,128 B; 65,536-B kernel: +17,439,916,032
        assertThat(Reservation.incrementFor(H200_THREADS, 4096)).isEqualTo(830_472_192L);
        assertThat(Reservation.incrementFor(H200_THREADS, 131_072)).isEqualTo(35_156_656_128L);
        assertThat(Reservation.incrementFor(H200_THREADS, 65_536)).isEqualTo(17_439_916_032L);
        // default 1024-B limit on H200 = 264 MiB; on an A100 (108 SMs) 216 MiB
        assertThat(Reservation.bytesFor(H200_THREADS, Reservation.DEFAULT_STACK_LIMIT)).isEqualTo(264L << 20);
        assertThat(Reservation.bytesFor(108L * 2048, 1024)).isEqualTo(226_492_416L);
    }

    @Test
    void bytesUseTheRoundedFrame() {
        assertThat(Reservation.bytesFor(H200_THREADS, 10_200)).isEqualTo(H200_THREADS * 10_208);
        assertThat(Reservation.incrementFor(H200_THREADS, 1025)).isEqualTo(H200_THREADS * 16);
    }

    @Test
    void incrementIsZeroBelowTheDefaultLimit() {
        assertThat(Reservation.incrementFor(H200_THREADS, 0)).isZero();
        assertThat(Reservation.incrementFor(H200_THREADS, 100)).isZero();
        assertThat(Reservation.incrementFor(H200_THREADS, 1008)).isZero();
        assertThat(Reservation.bytesFor(H200_THREADS, 0)).isZero();
    }

    /** Issue 10: a huge STACK or thread count once ended in an ArithmeticException ("failed unexpectedly"). */
    @Test
    void overflowSaturatesNeverWraps() {
        assertThat(Reservation.bytesFor(Long.MAX_VALUE / 8, 1024)).isEqualTo(Long.MAX_VALUE);
        assertThat(Reservation.bytesFor(270_336, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Reservation.incrementFor(Long.MAX_VALUE, 2048)).isEqualTo(Long.MAX_VALUE);
        assertThat(Reservation.bytesFor(4_294_967_296L, 4_294_967_295L)).isEqualTo(Long.MAX_VALUE);
        assertThat(Reservation.bytesFor(3_000_000_000L, 4_294_967_280L)).isEqualTo(Long.MAX_VALUE);
        assertThat(Reservation.bytesFor(2_147_483_647L, 4_294_967_280L)).isEqualTo(2_147_483_647L * 4_294_967_280L);
    }

    @Test
    void stackLimitNearLongMaxDoesNotWrapNegative() {
        assertThat(Reservation.stackLimitFor(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE & ~15L);
        assertThat(Reservation.stackLimitFor(Long.MAX_VALUE - 15)).isEqualTo(Long.MAX_VALUE & ~15L);
        assertThatThrownBy(() -> Reservation.stackLimitFor(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
