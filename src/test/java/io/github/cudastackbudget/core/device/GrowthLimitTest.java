package io.github.cudastackbudget.core.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.text.InvalidValueException;
import org.junit.jupiter.api.Test;

class GrowthLimitTest {

    @Test
    void sizesAreReadAsTheBudgetsAre() {
        assertThat(GrowthLimit.parse("64 MiB", "maxGrowth").bytes()).isEqualTo(64L << 20);
        assertThat(GrowthLimit.parse("1048576", "maxGrowth").bytes()).isEqualTo(1L << 20);
        assertThat(GrowthLimit.parse(" 2GB ", "maxGrowth").allowedGrowth(123)).isEqualTo(2_000_000_000L);
        assertThat(GrowthLimit.parse("0", "maxGrowth").allowedGrowth(1L << 30)).isZero();
    }

    @Test
    void aPercentageIsOfTheBaselinesReservationRoundedDown() {
        GrowthLimit tenPercent = GrowthLimit.parse("10%", "maxGrowth");
        assertThat(tenPercent.isPercentage()).isTrue();
        assertThat(tenPercent.allowedGrowth(1000)).isEqualTo(100);
        assertThat(tenPercent.allowedGrowth(1009)).isEqualTo(100);
        assertThat(GrowthLimit.parse("2.5 %", "maxGrowth").allowedGrowth(2_759_589_888L)).isEqualTo(68_989_747L);
        // more than doubling may be allowed
        assertThat(GrowthLimit.parse("150%", "maxGrowth").allowedGrowth(1000)).isEqualTo(1500);
        assertThat(GrowthLimit.parse("10%", "maxGrowth").allowedGrowth(0)).isZero();
    }

    @Test
    void badValuesNameTheParameterAndTheValue() {
        assertThatThrownBy(() -> GrowthLimit.parse("ten", "maxGrowth"))
                .isInstanceOf(InvalidValueException.class).hasMessageStartingWith("maxGrowth 'ten' is not a size");
        assertThatThrownBy(() -> GrowthLimit.parse("-5%", "maxGrowth of device 'h200'"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("maxGrowth of device 'h200' '-5%' is not a percentage");
        assertThatThrownBy(() -> GrowthLimit.parse("1e3%", "maxGrowth")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> GrowthLimit.parse("-1 MiB", "maxGrowth"))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("negative");
    }

    @Test
    void aDevicesOwnLimitIsResolvedWithItsName() {
        DeviceTarget target = new DeviceResolver(GpuCatalog.bundled()).resolve(java.util.List.of(new DeviceDefinition(
                "h200-141gb", null, null, null, null, null, null, null, null, "5%")), null).get(0);
        assertThat(target.maxGrowth().text()).isEqualTo("5%");
        assertThatThrownBy(() -> new DeviceResolver(GpuCatalog.bundled()).resolve(java.util.List.of(
                new DeviceDefinition("h200-141gb", null, null, null, null, null, null, null, null, "lots")), null))
                .hasMessageStartingWith("maxGrowth of device 'h200-141gb' 'lots' is not a size");
    }
}
