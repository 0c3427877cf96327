package io.github.cudastackbudget.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.text.Frontend;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cuobjdump engine's own reading of a bare cubin's ELF header (the target, which cuobjdump does not print for a
 * cubin) on hostile headers: one line, never an IndexOutOfBoundsException (issue 10).
 */
class CuobjdumpEngineArchTest {

    @TempDir
    Path tmp;

    @Test
    void extendedShstrndxBeyondTheSectionTableIsOneLine() throws Exception {
        // regression: e_shstrndx SHN_XINDEX with section 0's sh_link 0xFFFFFFFF gave an IndexOutOfBoundsException
        byte[] bytes = Files.readAllBytes(RecordedCuobjdump.testCuda("frames_sm90.cubin"));
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = header.getLong(0x28);
        int sections = header.getShort(0x3C);
        header.putShort(0x3E, (short) 0xFFFF).putInt((int) shoff + 0x28, 0xFFFFFFFF);
        Path cubin = Files.write(tmp.resolve("frames_sm90.cubin"), bytes);
        Path cuobjdump = RecordedCuobjdump.executable(tmp.resolve("bin").resolve("cuobjdump"), "#!/bin/sh\n"
                + "if [ \"$1\" = --version ]; then\n  cat <<'VERSION'\n" + RecordedCuobjdump.VERSION_TEXT
                + "\nVERSION\n  exit 0\nfi\nexit 0\n");
        DeviceCodeProbe probe = DeviceCodeDetector.probe(cubin);
        assertThat(probe.hasDeviceCode()).isTrue();

        assertThatThrownBy(() -> CuobjdumpEngine.using(cuobjdump, Duration.ofSeconds(120), Frontend.PARAMETERS)
                .read(probe))
                .isInstanceOf(EngineException.class)
                .hasMessage(cubin + ": cannot read the cubin's ELF header: at offset 0x" + Long.toHexString(shoff + 0x28)
                        + ": section name string table index 4294967295 (e_shstrndx SHN_XINDEX: section 0's sh_link) "
                        + "is not one of the " + sections + " sections");
    }
}
