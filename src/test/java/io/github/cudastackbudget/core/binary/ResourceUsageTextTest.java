package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The native printer against the REAL cuobjdump 13.0 text recorded for the same real nvcc-built files. */
class ResourceUsageTextTest {

    static Stream<String> recordedFiles() {
        return Stream.concat(NativeTestFiles.RECORDED_TEST_BINARIES.stream(),
                NativeTestFiles.RECORDED_STACK_DEMO.stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordedFiles")
    void printsByteForByteWhatTheRealCuobjdumpPrinted(String name) throws Exception {
        DeviceCodeReader reader = new DeviceCodeReader(4, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        DeviceCodeListing listing = NativeTestFiles.readAsRecorded(reader, name);

        String expected = NativeTestFiles.recording(name);
        assertThat(ResourceUsageText.toText(listing)).isEqualTo(expected);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ResourceUsageText.write(listing, bytes);
        assertThat(bytes.toByteArray()).isEqualTo(expected.getBytes(StandardCharsets.ISO_8859_1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordedFiles")
    void printsTheSameTextReadingEntriesOneAtATime(String name) throws Exception {
        DeviceCodeReader sequential = new DeviceCodeReader(1, EntryDecompressor.DEFAULT_MAX_ENTRY_BYTES);
        assertThat(ResourceUsageText.toText(NativeTestFiles.readAsRecorded(sequential, name)))
                .isEqualTo(NativeTestFiles.recording(name));
    }
}
