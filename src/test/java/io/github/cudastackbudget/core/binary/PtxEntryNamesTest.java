package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code .entry} scan on PTX text shapes (the real PTX of the test binaries is covered by NativeEngineTest). */
class PtxEntryNamesTest {

    private static ByteBuffer text(String ptx) {
        return ByteBuffer.wrap(ptx.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void findsVisibleWeakAndPlainEntriesInTextOrder() {
        String ptx = """
                .version 9.0
                .target sm_90
                .address_size 64
                .func  (.param .b32 func_retval0) _Z7recursei(.param .b32 _Z7recursei_param_0)
                .visible .entry _Z13noStackKernelPi(
                \t.param .u64 .ptr .align 1 _Z13noStackKernelPi_param_0
                )
                .weak .entry _Z11frameKernelILi64EEvPii(
                .entry internal_kernel(
                .visible .entry\tno_params()
                """;
        assertThat(PtxEntryNames.scan(text(ptx))).containsExactly("_Z13noStackKernelPi",
                "_Z11frameKernelILi64EEvPii", "internal_kernel", "no_params");
    }

    @Test
    void skipsCommentsDeclarationsAndLookalikes() {
        String ptx = """
                // .visible .entry commented_out(
                /* .entry block_commented(
                   .entry still_commented( */
                .extern .entry declared_elsewhere(
                .visible .entryX not_a_directive(
                .visible .entry real_one(
                """;
        assertThat(PtxEntryNames.scan(text(ptx))).containsExactly("real_one");
    }

    @Test
    @org.junit.jupiter.api.Timeout(20)
    void aLineOfManyCandidatesIsScannedInLinearTime() {
        // the line start is found by looking back from each .entry candidate: from the previous one on, never the
        // whole line again (a hostile line of 200,000 candidates would otherwise walk back hundreds of gigabytes)
        StringBuilder line = new StringBuilder(".extern .func f;\n");
        for (int i = 0; i < 200_000; i++) {
            line.append(".entry a").append(i % 10).append("( ");
        }
        line.append('\n').append(".entry last(\n");
        byte[] text = line.toString().getBytes(StandardCharsets.US_ASCII);
        List<String> names = PtxEntryNames.scan(ByteBuffer.wrap(text));
        assertThat(names).hasSize(200_001).endsWith("a9", "last");
        assertThat(names).isEqualTo(PtxEntryNamesReference.scan(ByteBuffer.wrap(text)));
    }

    @Test
    void stopsAtTheFirstNulOfAPaddedPayload() {
        ByteBuffer padded = ByteBuffer.allocate(64);
        padded.put(".entry first(\n".getBytes(StandardCharsets.US_ASCII)).put((byte) 0)
                .put(".entry after_nul(\n".getBytes(StandardCharsets.US_ASCII)).flip();
        assertThat(PtxEntryNames.scan(padded.limit(64))).containsExactly("first");
    }
}
