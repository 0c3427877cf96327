package io.github.cudastackbudget.core.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GpuCatalogTest {

    private final GpuCatalog catalog = GpuCatalog.bundled();

    @Test
    void bundledCatalogHas32RowsWithUniqueIds() {
        List<GpuCatalog.Entry> entries = catalog.entries();

        assertThat(entries).hasSize(32);
        assertThat(entries).extracting(GpuCatalog.Entry::id).doesNotHaveDuplicates();
        assertThat(entries.get(0).id()).isEqualTo("v100-sxm2-16gb");
        assertThat(entries.get(31).id()).isEqualTo("dgx-spark-gb10");
        assertThat(GpuCatalog.bundled()).isSameAs(catalog);
    }

    @Test
    void h200Row() {
        GpuCatalog.Entry h200 = catalog.require("h200-141gb");

        assertThat(h200.capability()).isEqualTo(new ComputeCapability(9, 0));
        assertThat(h200.smCount()).isEqualTo(132);
        assertThat(h200.maxThreadsPerSm()).isEqualTo(2048);
        assertThat(h200.maxResidentThreads()).isEqualTo(270_336L).isEqualTo(132L * 2048);
        assertThat(h200.memoryBytes()).isEqualTo(151_397_597_184L);
        assertThat(h200.names()).containsExactly("NVIDIA H200", "NVIDIA H200 141GB HBM3e");
        assertThat(h200.source()).startsWith("openxla/xla");
        assertThat(h200.notes()).startsWith("measured");
    }

    @Test
    void everyRowIsConsistent() {
        SoftAssertions softly = new SoftAssertions();
        for (GpuCatalog.Entry entry : catalog.entries()) {
            softly.assertThat((long) entry.smCount() * entry.maxThreadsPerSm()).as(entry.id())
                    .isEqualTo(entry.maxResidentThreads());
            softly.assertThat(entry.smCount()).as(entry.id()).isPositive();
            softly.assertThat(entry.maxThreadsPerSm()).as(entry.id()).isIn(1024, 1536, 2048);
            softly.assertThat(entry.memoryBytes()).as(entry.id()).isGreaterThan(1L << 30);
            softly.assertThat(entry.names()).as(entry.id()).isNotEmpty().allSatisfy(name -> assertThat(name).isNotBlank());
            softly.assertThat(entry.source()).as(entry.id()).isNotBlank();
            softly.assertThat(entry.id()).as(entry.id()).matches("[a-z0-9-]+");
        }
        softly.assertAll();
    }

    @ParameterizedTest(name = "{0}: CC {1}, {2} x {3} = {4}")
    @CsvSource({
            "v100-sxm2-16gb, 7.0, 80, 2048, 163840",
            "t4, 7.5, 40, 1024, 40960",
            "a100-sxm4-80gb, 8.0, 108, 2048, 221184",
            "l4, 8.9, 58, 1536, 89088",
            "rtx-4090, 8.9, 128, 1536, 196608",
            "h100-sxm5-80gb, 9.0, 132, 2048, 270336",
            "h100-pcie-80gb, 9.0, 114, 2048, 233472",
            "b200, 10.0, 148, 2048, 303104",
            "gb200, 10.0, 152, 2048, 311296",
            "b300, 10.3, 158, 2048, 323584",
            "jetson-agx-thor, 11.0, 20, 1536, 30720",
            "rtx-5090, 12.0, 170, 1536, 261120",
            "dgx-spark-gb10, 12.1, 48, 1536, 73728"})
    void knownRows(String id, String cc, int sms, int perSm, long threads) {
        GpuCatalog.Entry entry = catalog.require(id);

        assertThat(entry.capability()).isEqualTo(ComputeCapability.parse(cc));
        assertThat(entry.smCount()).isEqualTo(sms);
        assertThat(entry.maxThreadsPerSm()).isEqualTo(perSm);
        assertThat(entry.maxResidentThreads()).isEqualTo(threads);
    }

    @Test
    void requireIgnoresCaseAndSurroundingBlanks() {
        assertThat(catalog.require(" H200-141GB ").id()).isEqualTo("h200-141gb");
    }

    @Test
    void unknownPresetMessageNamesItAndListsTheIds() {
        assertThatThrownBy(() -> catalog.require("h300"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("unknown device preset 'h300': use one of v100-sxm2-16gb, v100-sxm2-32gb, t4, ")
                .hasMessageContaining("h200-141gb, gh200-96gb")
                .hasMessageContaining("rtx-pro-6000-blackwell-server, dgx-spark-gb10, or describe the device with <name>,"
                        + " <computeCapability> and <maxResidentThreads>");
        assertThatThrownBy(() -> catalog.require(null)).isInstanceOf(InvalidValueException.class)
                .hasMessageStartingWith("unknown device preset 'null'");
    }

    @Test
    void findsRowsByTheNameTheDriverReports() {
        assertThat(catalog.findByDeviceName("NVIDIA H200")).get().extracting(GpuCatalog.Entry::id).isEqualTo("h200-141gb");
        assertThat(catalog.findByDeviceName("nvidia h200 141gb hbm3e")).get().extracting(GpuCatalog.Entry::id)
                .isEqualTo("h200-141gb");
        assertThat(catalog.findByDeviceName(" NVIDIA GeForce RTX 5090 ")).get().extracting(GpuCatalog.Entry::id)
                .isEqualTo("rtx-5090");
        assertThat(catalog.findByDeviceName("Tesla T4")).get().extracting(GpuCatalog.Entry::id).isEqualTo("t4");
        assertThat(catalog.findByDeviceName("NVIDIA H200 NVL")).isEmpty();
        assertThat(catalog.findByDeviceName("h200-141gb")).isEmpty();
    }

    @Test
    void entryToDevice() {
        DeviceSpec spec = catalog.require("l4").toDevice();

        assertThat(spec.name()).isEqualTo("l4");
        assertThat(spec.presetId()).isEqualTo("l4");
        assertThat(spec.capability()).isEqualTo(ComputeCapability.parse("8.9"));
        assertThat(spec.maxResidentThreads()).isEqualTo(89_088L);
        assertThat(spec.multiProcessorCount()).isEqualTo(58);
        assertThat(spec.maxThreadsPerMultiProcessor()).isEqualTo(1536);
        assertThat(spec.memoryBytes()).isEqualTo(23_570_219_008L);
        assertThat(spec.source()).startsWith("catalog: thamada/nvidia-smi");
    }

    @Test
    void readsACustomCatalogAndRejectsInconsistentRows() throws IOException {
        String header = "id\tnames\tcompute_capability\tsm_count\tmax_threads_per_sm\tmax_resident_threads\t"
                + "memory_bytes\tsource\tnotes\n";
        GpuCatalog good = GpuCatalog.read(new ByteArrayInputStream((header
                + "x1\tX One | X One Pro\t8.6\t10\t1536\t15360\t1073741824\there, \"there\"\tn\n")
                .getBytes(StandardCharsets.UTF_8)));
        assertThat(good.entries()).hasSize(1);
        assertThat(good.require("x1").names()).containsExactly("X One", "X One Pro");
        assertThat(good.require("x1").source()).isEqualTo("here, \"there\"");
        assertThatThrownBy(() -> GpuCatalog.read(new ByteArrayInputStream((header + "x2\tX Two\t8.6\t10\n")
                .getBytes(StandardCharsets.UTF_8)))).isInstanceOf(IOException.class)
                .hasMessage("catalog line 2: 4 tab-separated fields, the header has 9");
        assertThatThrownBy(() -> GpuCatalog.read(new ByteArrayInputStream((header
                + "x3\tX\t8.6\tten\t1536\t15360\t1\ts\tn\n").getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(IOException.class).hasMessageStartingWith("catalog line 2: For input string: \"ten\"");

        assertThatThrownBy(() -> GpuCatalog.read(new ByteArrayInputStream((header
                + "bad\tBad\t8.6\t10\t1536\t15361\t1073741824\ts\tn\n").getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(IOException.class)
                .hasMessage("catalog row bad: sm_count x max_threads_per_sm != max_resident_threads");
    }
}
