package io.github.cudastackbudget.core.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrintableTest {

    @Test
    void printableAsciiIsKept() {
        assertThat(Printable.of("_Z6kernelPf sm_90")).isEqualTo("_Z6kernelPf sm_90");
    }

    @Test
    void controlAndHighCharactersAreEscapedOnOneLine() {
        String quoted = Printable.of("a\nb\r\tc\\\u0000\u00ff\u20ac");
        assertThat(quoted).isEqualTo("a\\nb\\r\\tc\\\\\\x00\\xff\\u20ac").doesNotContain("\n", "\r");
    }

    @Test
    void longTextIsCutWithTheCountLeftOut() {
        assertThat(Printable.of("x".repeat(100), 10)).isEqualTo("xxxxxxxxxx... (90 more characters)");
    }

    @Test
    void bytesAreReadOneCharacterEach() {
        assertThat(Printable.ofBytes(new byte[] {'o', 'k', (byte) 0x90, 10}, 0, 4, 80)).isEqualTo("ok\\x90\\n");
    }
}
