package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.text.Option;
import org.junit.jupiter.api.Test;

/** Maven's words for the core's options: the parameter ids the reports use, and the -D property or POM element. */
class MavenFrontendTest {

    private final MavenFrontend maven = MavenFrontend.INSTANCE;

    @Test
    void theNameIsTheBareParameterId() {
        for (Option option : Option.values()) {
            assertThat(maven.name(option)).isEqualTo(option.parameter());
        }
        assertThat(maven.name(Option.LIBRARY_LOG)).isEqualTo("libraryLog");
    }

    @Test
    void anOptionWithAUserPropertyIsSetWithMinusD() {
        assertThat(maven.howToSet(Option.CUOBJDUMP, "/path/to/cuobjdump"))
                .isEqualTo("-DcudaStackBudget.cuobjdump=/path/to/cuobjdump");
        assertThat(maven.howToSet(Option.MAX_RESERVATION, "2GiB")).isEqualTo("-DcudaStackBudget.maxReservation=2GiB");
        // devicePresets: its own name (the old cudaStackBudget.devices is deprecated)
        assertThat(maven.howToSet(Option.DEVICE_PRESETS, "l4")).isEqualTo("-DcudaStackBudget.devicePresets=l4");
        // lists of strings and files: a comma-separated -D value
        assertThat(maven.howToSet(Option.LIBRARY_FILES, "lib/libx.so"))
                .isEqualTo("-DcudaStackBudget.libraryFiles=lib/libx.so");
        assertThat(maven.howToSet(Option.JAR_EXCLUDES, "test/**")).isEqualTo("-DcudaStackBudget.jarExcludes=test/**");
        assertThat(maven.howToSet(Option.OUTPUT_DIRECTORY, "out")).isEqualTo("-DcudaStackBudget.outputDirectory=out");
        // an empty value is a setting too: the static check in a build that skips the tests
        assertThat(maven.howToSet(Option.LAUNCH_LOG, "")).isEqualTo("-DcudaStackBudget.launchLog=");
        assertThat(maven.howToSet(Option.SKIP, "true")).isEqualTo("-DcudaStackBudget.skip=true");
    }

    @Test
    void anOptionOfThePomOnlyIsNamedByItsElement() {
        // file sets and beans: Maven cannot build them from a -D string
        assertThat(maven.howToSet(Option.LIBRARIES, "")).isEqualTo("<libraries>");
        assertThat(maven.howToSet(Option.LIBRARIES, "native"))
                .isEqualTo("<libraries><library><directory>native</directory></library></libraries>");
        assertThat(maven.howToSet(Option.DEVICES, "<preset>l4</preset>"))
                .isEqualTo("<devices><device><preset>l4</preset></device></devices>");
    }
}
