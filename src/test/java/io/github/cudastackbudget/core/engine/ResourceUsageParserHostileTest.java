package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 10: hostile cuobjdump text: huge or negative figures, control characters, dropped kernels, long lines. */
class ResourceUsageParserHostileTest {

    private static final String HEAD = "Fatbin elf code:\n================\narch = sm_90\ncode version = [1,8]\n"
            + "host = linux\ncompile_size = 64bit\n\nResource usage:\n";

    private static ResourceUsageParser parse(String text) throws IOException {
        return ResourceUsageParser.parse("libtest.so", null, new StringReader(text));
    }

    private static String usage(String reg, String stack, String shared, String local) {
        return HEAD + " Function _Z1kv:\n  REG:" + reg + " STACK:" + stack + " SHARED:" + shared + " LOCAL:" + local
                + " TEXTURE:0 SURFACE:0 SAMPLER:0\n";
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // REG over 2^31, STACK/SHARED/LOCAL over 2^63 and over 20 digits: out of range, never a NumberFormatException
        "2147483648|16|0|0|line 10: REG 2147483648 is out of range (at most 65535)",
        "8|9223372036854775808|0|0|line 10: STACK 9223372036854775808 is out of range (at most 4294967295)",
        "8|16|18446744073709551616|0|line 10: SHARED 18446744073709551616 is out of range (at most 4294967295)",
        "8|16|0|4294967296|line 10: LOCAL 4294967296 is out of range (at most 4294967295)",
        "8|16|0|000000000000000000000000000000000000001|",
        "8|-16|0|0|line 10: STACK -16 is negative",
        "-1|16|0|0|line 10: REG -1 is negative",
    })
    void figuresAreRangeChecked(String reg, String stack, String shared, String local, String message)
            throws IOException {
        String text = usage(reg, stack, shared, local);
        if (message == null) {
            assertThat(parse(text).records()).singleElement().satisfies(r -> assertThat(r.local()).isEqualTo(1));
        } else {
            assertThatThrownBy(() -> parse(text)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage(message);
        }
    }

    @Test
    void aMillionDigitsAreRefusedQuickly() {
        String digits = "9".repeat(1_000_000);
        long start = System.nanoTime();
        assertThatThrownBy(() -> parse(usage("8", digits, "0", "0")))
                .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                .hasMessageStartingWith("line 10: STACK 99999999")
                .hasMessageEndingWith("(999920 more characters) is out of range (at most 4294967295)");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aFunctionWithoutItsUsageLineAtTheEndIsAnError() {
        assertThatThrownBy(() -> parse(HEAD + " Function _Z4lastv:\n"))
                .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                .hasMessage("line 9: Function _Z4lastv has no resource usage line (REG:n STACK:n SHARED:n LOCAL:n) "
                        + "before the end of the output");
    }

    @Test
    void twoFunctionLinesInARowAreAnError() {
        assertThatThrownBy(() -> parse(HEAD + " Function _Z5firstv:\n Function _Z6secondv:\n"
                + "  REG:8 STACK:0 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0\n"))
                .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                .hasMessage("line 9: Function _Z5firstv has no resource usage line (REG:n STACK:n SHARED:n LOCAL:n) "
                        + "before the next 'Function' line");
    }

    @Test
    void anArchLineBetweenFunctionAndUsageIsAnError() {
        assertThatThrownBy(() -> parse(HEAD + " Function _Z1kv:\narch = sm_80\n"
                + "  REG:8 STACK:0 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0\n"))
                .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                .hasMessage("line 9: Function _Z1kv has no resource usage line (REG:n STACK:n SHARED:n LOCAL:n) "
                        + "before an 'arch' line");
    }

    @Test
    void controlCharactersAreEscapedOnOneLine() {
        assertThatThrownBy(() -> parse("Fatbin elf code:\narch = sm_9\u0001\u001b[2J\n"))
                .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                .hasMessage("line 2: unknown CUDA arch 'sm_9\\x01\\x1b[2J' in the arch line (expected 'arch = sm_NN')");
        assertThatThrownBy(() -> parse("Fatbin elf code:\n Function _Z1k\u0000v:\n"
                + "  REG:8 STACK:0 SHARED:0 LOCAL:0\n"))
                .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                .hasMessage("line 3: the resource usage of _Z1k\\x00v follows no 'arch = sm_NN' line");
    }

    @Test
    void crlfLinesReadAsLf() throws IOException {
        ResourceUsageParser parser = parse(usage("8", "16", "0", "0").replace("\n", "\r\n"));

        assertThat(parser.records()).singleElement().satisfies(r -> {
            assertThat(r.name()).isEqualTo("_Z1kv");
            assertThat(r.stack()).isEqualTo(16);
        });
    }

    @Test
    void interleavedToolErrorLinesDoNotDropAKernel() throws IOException {
        // what a cuobjdump error printed into its standard output between sections looks like
        ResourceUsageParser parser = parse(usage("8", "16", "0", "0")
                + "cuobjdump error   : File 'x' is not a relocatable object\n"
                + "Fatbin elf code:\n================\narch = sm_80\n\nResource usage:\n"
                + "cuobjdump info    : File 'y' does not contain device code\n"
                + " Function _Z1kv:\n  REG:9 STACK:32 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0\n");

        assertThat(parser.records()).extracting(r -> r.arch().sassLabel() + ":" + r.stack())
                .containsExactly("sm_90:16", "sm_80:32");
    }

    /** Each line shape that reaches a regular expression of the parser, at 80,000 characters and at 1 MB. */
    @ParameterizedTest
    @ValueSource(ints = {80_000, 1_000_000})
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void everyPatternIsLinearOnALongLine(int length) {
        String[] shapes = {
            "arch = " + "x".repeat(length) + " y",
            "arch = sm_90" + " ".repeat(length) + "x",
            " Function " + ": ".repeat(length / 2) + "x",
            " Function " + "a:".repeat(length / 2) + " ".repeat(length / 4) + "x",
            "member " + ":".repeat(length) + "x",
            "member " + "a:b".repeat(length / 3) + " ",
            "member a:" + "b".repeat(length) + ": x",
            "  REG:1 STACK:1 SHARED:1 LOCAL:1" + " x".repeat(length / 2) + "\u0000",
            "  REG:" + "1".repeat(length) + " STACK:",
            "  REG:1 STACK:" + "1 ".repeat(length / 2),
        };
        for (String shape : shapes) {
            long start = System.nanoTime();
            try {
                parse(HEAD + shape + "\n");
            } catch (ResourceUsageParser.MalformedOutputException e) {
                assertThat(e.getMessage()).doesNotContain("\n").hasSizeLessThan(400);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as(shape.substring(0, 20))
                    .isLessThan(Duration.ofSeconds(3));
        }
    }
}
