package io.github.cudastackbudget.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlatformSelectionTest {

    @Test
    void nothingListedGatesEveryPlatform() {
        for (String blank : new String[] {null, "", "  "}) {
            PlatformSelection all = PlatformSelection.parse(blank, "platforms");
            assertThat(all.all()).isTrue();
            assertThat(all.gates("windows-x86_64")).isTrue();
            assertThat(all.gates("linux-aarch64")).isTrue();
            assertThat(all.gates("unknown")).isTrue();
        }
    }

    @Test
    void aFullNameGatesThatPlatformAndTheBareFatbinsOfItsSystem() {
        PlatformSelection linux = PlatformSelection.parse(" Linux-X86_64 ", "platforms");
        assertThat(linux.listed()).containsExactly("linux-x86_64");
        assertThat(linux.gates("linux-x86_64")).isTrue();
        assertThat(linux.gates("linux-aarch64")).isFalse();
        assertThat(linux.gates("windows-x86_64")).isFalse();
        assertThat(linux.gates("linux")).as("a bare fatbin of that system").isTrue();
        assertThat(linux.gates("windows")).isFalse();
        assertThat(linux.gates("linux+windows-x86_64")).as("entries of several hosts: any gated").isTrue();
        assertThat(linux.gates("mac-x86_64")).isFalse();
    }

    @Test
    void aBareSystemGatesEveryProcessorOfIt() {
        PlatformSelection windows = PlatformSelection.parse("windows", "platforms");
        assertThat(windows.gates("windows-x86_64")).isTrue();
        assertThat(windows.gates("windows-arm64")).isTrue();
        assertThat(windows.gates("windows")).isTrue();
        assertThat(windows.gates("windows-pe0x1c0")).as("a processor the reader does not name").isTrue();
        assertThat(windows.gates("linux-x86_64")).isFalse();
        assertThat(windows.gates("linux")).isFalse();
    }

    @Test
    void aBareCubinIsAlwaysGated() {
        assertThat(PlatformSelection.parse("windows-x86_64", "platforms").gates("unknown")).isTrue();
        assertThat(PlatformSelection.parse("linux", "platforms").gates(LibraryScan.UNKNOWN_PLATFORM)).isTrue();
    }

    @Test
    void repeatsAndEmptyItemsAreDropped() {
        PlatformSelection selection = PlatformSelection.parse("linux-x86_64,,windows, linux-x86_64", "platforms");
        assertThat(selection.listed()).containsExactly("linux-x86_64", "windows");
        assertThat(selection).hasToString("linux-x86_64,windows");
    }

    @Test
    void anUnknownNameIsOneLineNamingTheOptionAndEveryBadValue() {
        assertThatThrownBy(() -> PlatformSelection.parse("linux-x86_64,win64,solaris", "--platforms"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("--platforms 'win64', 'solaris' are not platforms (given: 'linux-x86_64,win64,solaris'): "
                        + "use a comma-separated list of linux, windows, mac or system-processor (processors x86_64, "
                        + "aarch64, ppc64le, x86, arm, arm64), e.g. linux-x86_64,windows-x86_64");
        assertThatThrownBy(() -> PlatformSelection.parse("linux-sparc", "platforms"))
                .hasMessageStartingWith("platforms 'linux-sparc' is not a platform (given: 'linux-sparc'): ");
        assertThatThrownBy(() -> PlatformSelection.parse("unknown", "platforms"))
                .as("a bare cubin is always gated: 'unknown' is no choice").hasMessageContaining("'unknown' is not");
        assertThatThrownBy(() -> PlatformSelection.parse(" , ", "platforms"))
                .hasMessage("platforms ',' names no platform: leave it out to gate every platform, or list some, "
                        + "e.g. linux-x86_64");
        assertThat(PlatformSelection.parse("linux", "x").toString().lines()).hasSize(1);
    }

    @Test
    void severalPlatformsDoNotCountBareCubinsNorBareFatbinsOfAPresentSystem() {
        assertThat(PlatformSelection.several(List.of("linux-x86_64", "linux", "unknown"))).isFalse();
        assertThat(PlatformSelection.several(List.of("linux-x86_64"))).isFalse();
        assertThat(PlatformSelection.several(List.of("unknown"))).isFalse();
        assertThat(PlatformSelection.several(List.of("linux-x86_64", "windows-x86_64"))).isTrue();
        assertThat(PlatformSelection.several(List.of("linux-x86_64", "linux-aarch64"))).isTrue();
        assertThat(PlatformSelection.several(List.of("linux-x86_64", "windows"))).as("a Windows fatbin").isTrue();
        assertThat(PlatformSelection.several(List.of("linux", "windows"))).isTrue();
    }
}
