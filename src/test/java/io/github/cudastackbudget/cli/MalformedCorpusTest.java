package io.github.cudastackbudget.cli;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every case of the malformed-input corpus ({@link MalformedCorpus}) gives its exact one-line message, the expected
 * exit status and no stack trace.
 */
class MalformedCorpusTest {

    static List<MalformedCorpus.Case> cases() throws IOException {
        return MalformedCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void givesItsOneLineMessage(MalformedCorpus.Case c, @TempDir Path work) throws IOException {
        MalformedCorpus.Outcome outcome = MalformedCorpus.run(c, work);
        assertThat(MalformedCorpus.verdict(c, outcome)).as("%s", c).isEqualTo("PASS");
    }
}
