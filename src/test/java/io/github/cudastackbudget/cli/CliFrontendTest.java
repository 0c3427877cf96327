package io.github.cudastackbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.text.Option;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command line's words for the core's options: its flags, never a Maven spelling. */
class CliFrontendTest {

    private final CliFrontend cli = CliFrontend.INSTANCE;

    @Test
    void theOptionsWithAFlagAreNamedByIt() {
        assertThat(cli.name(Option.MAX_RESERVATION)).isEqualTo("--max-reservation");
        assertThat(cli.name(Option.MAX_STACK_PER_THREAD)).isEqualTo("--max-stack");
        assertThat(cli.name(Option.CUOBJDUMP)).isEqualTo("--cuobjdump");
        assertThat(cli.name(Option.ENGINE)).isEqualTo("--engine");
        assertThat(cli.name(Option.LAUNCH_LOG)).isEqualTo("--launch-log");
        assertThat(cli.name(Option.LIBRARY_LOG)).isEqualTo("--library-log");
        assertThat(cli.name(Option.TIMEOUT)).isEqualTo("--timeout");
        assertThat(cli.name(Option.PARALLELISM)).isEqualTo("--parallelism");
        assertThat(cli.name(Option.DEVICE_PRESETS)).isEqualTo("--devices");
        assertThat(cli.name(Option.DEVICES)).isEqualTo("--device");
        assertThat(cli.name(Option.OUTPUT_DIRECTORY)).isEqualTo("--output");
        assertThat(cli.name(Option.TOP)).isEqualTo("--top");
        assertThat(cli.name(Option.LIBRARY_FILES)).isEqualTo("the FILE arguments");
    }

    @Test
    void settingAnOptionIsTheFlagWithItsValueQuotedForTheShell() {
        assertThat(cli.howToSet(Option.CUOBJDUMP, "/path/to/cuobjdump")).isEqualTo("--cuobjdump /path/to/cuobjdump");
        assertThat(cli.howToSet(Option.MAX_RESERVATION, "1.5 GiB")).isEqualTo("--max-reservation '1.5 GiB'");
        assertThat(cli.howToSet(Option.TIMEOUT, "1200")).isEqualTo("--timeout 1200");
        assertThat(cli.howToSet(Option.LAUNCH_LOG, "")).isEqualTo("leave out --launch-log");
        assertThat(cli.howToSet(Option.DETECT_LOCAL_DEVICES, "false")).isEqualTo("--no-detect");
        assertThat(cli.howToSet(Option.VERBOSE, "true")).isEqualTo("--verbose");
        assertThat(cli.howToSet(Option.LIBRARY_FILES, "lib/libx.so")).isEqualTo("the argument lib/libx.so");
    }

    @Test
    void noOptionIsSpelledTheMavenWay() {
        for (Option option : Option.values()) {
            for (String words : new String[] {cli.name(option), cli.howToSet(option, "x"), cli.howToSet(option, "")}) {
                assertThat(words).as(option.name()).isNotBlank().doesNotContain("-D").doesNotContain("cudaStackBudget")
                        .doesNotContain("<");
                if (!option.parameter().equals(option.parameter().toLowerCase(java.util.Locale.ROOT))) {
                    assertThat(words).as(option.name()).doesNotContain(option.parameter()); // e.g. maxReservation
                }
            }
        }
    }

    @Test
    void everyFlagIsInTheUsageAndAcceptedByTheParser() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream usage = new ByteArrayOutputStream();
        System.setOut(new PrintStream(usage, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run(new String[] {"--help"})).isZero();
        } finally {
            System.setOut(saved);
        }
        for (Option option : Option.values()) {
            String flag = CliFrontend.flag(option);
            if (flag == null) {
                continue;
            }
            assertThat(usage.toString(StandardCharsets.UTF_8)).contains(" " + flag + " ");
            boolean takesValue = option != Option.DETECT_LOCAL_DEVICES && option != Option.VERBOSE;
            String[] args = takesValue ? new String[] {flag, option == Option.DEVICES ? "gpu:9.0:1024" : "1",
                CliFrontend.LAUNCH_LOG, "launch.log", "lib.so"} : new String[] {flag, "lib.so"};
            assertThat(Main.parse(args).options().frontend()).as(flag).isSameAs(CliFrontend.INSTANCE);
        }
    }
}
