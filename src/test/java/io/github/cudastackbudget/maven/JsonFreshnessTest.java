package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.scan.FileSetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "up to date" rule of the report goal, file by file (the harness tests cover it through the goal). */
class JsonFreshnessTest {

    private static final Instant WRITTEN = Instant.parse("2026-06-01T12:00:00Z");

    @TempDir
    Path dir;

    private Path json;
    private Path pom;
    private Path library;
    private List<FileSetSpec> fileSets;

    @BeforeEach
    void files() throws Exception {
        Files.createDirectories(dir.resolve("out"));
        json = Files.writeString(dir.resolve("out/cuda-stack-budget.json"), "{}");
        pom = touch(Files.writeString(dir.resolve("pom.xml"), "<project/>"), WRITTEN.minusSeconds(60));
        Files.createDirectories(dir.resolve("lib/deep"));
        library = touch(Files.writeString(dir.resolve("lib/deep/libx.so"), "x"), WRITTEN.minusSeconds(30));
        touch(json, WRITTEN);
        fileSets = List.of(new FileSetSpec(dir.resolve("lib"), FileSetSpec.DEFAULT_INCLUDES, List.of()));
    }

    private static Path touch(Path file, Instant time) throws Exception {
        Files.setLastModifiedTime(file, FileTime.from(time));
        return file;
    }

    @Test
    void notOlderThanEveryInputAndThePomIsUpToDate() throws Exception {
        JsonFreshness.Decision decision = JsonFreshness.decide(json, fileSets, List.of(), pom);
        assertThat(decision.upToDate()).isTrue();
        assertThat(decision.reason()).isEqualTo(json + " is up to date (not older than the 1 matched file(s) and the POM)");
    }

    @Test
    void equalTimesCountAsUpToDate() throws Exception {
        touch(library, WRITTEN);
        touch(pom, WRITTEN);
        assertThat(JsonFreshness.decide(json, fileSets, List.of(), pom).upToDate()).isTrue();
    }

    @Test
    void aNewerPatternMatchedFileMakesItStaleEvenWithoutDeviceCode() throws Exception {
        touch(Files.writeString(dir.resolve("lib/other.o"), "not even ELF"), WRITTEN.plusSeconds(1));
        JsonFreshness.Decision decision = JsonFreshness.decide(json, fileSets, List.of(), pom);
        assertThat(decision.upToDate()).isFalse();
        assertThat(decision.reason()).isEqualTo(dir.resolve("lib/other.o") + " is newer than " + json);
    }

    @Test
    void aNewerFileThePatternsDoNotMatchIsIgnored() throws Exception {
        touch(Files.writeString(dir.resolve("lib/notes.txt"), "text"), WRITTEN.plusSeconds(1));
        assertThat(JsonFreshness.decide(json, fileSets, List.of(), pom).upToDate()).isTrue();
    }

    @Test
    void aNewerExplicitFileMakesItStale() throws Exception {
        Path named = touch(Files.writeString(dir.resolve("named.bin"), "x"), WRITTEN.plusSeconds(1));
        assertThat(JsonFreshness.decide(json, List.of(), List.of(named), pom).upToDate()).isFalse();
    }

    @Test
    void aNewerPomMakesItStale() throws Exception {
        touch(pom, WRITTEN.plusSeconds(1));
        JsonFreshness.Decision decision = JsonFreshness.decide(json, fileSets, List.of(), pom);
        assertThat(decision.upToDate()).isFalse();
        assertThat(decision.reason()).endsWith("(the configuration may have changed)");
    }

    @Test
    void aMissingJsonIsStale() throws Exception {
        Files.delete(json);
        assertThat(JsonFreshness.decide(json, fileSets, List.of(), pom))
                .isEqualTo(new JsonFreshness.Decision(false, json + " does not exist (check has not run)"));
    }

    @Test
    void librariesTheJsonListsMustStillExist() {
        assertThat(JsonFreshness.missingLibraries(List.of(library.toString(), dir.resolve("gone.so").toString())))
                .containsExactly(dir.resolve("gone.so").toString());
    }

    // out (issue 12): check writes paths under the project relative to it
    @Test
    void aRelativeLibraryPathIsLookedUpUnderTheBaseDirectory() {
        String relative = dir.relativize(library).toString();

        assertThat(JsonFreshness.missingLibraries(dir, List.of(relative, "gone.so", library.toString())))
                .containsExactly("gone.so");
        assertThat(JsonFreshness.missingLibraries(dir.resolve("elsewhere"), List.of(relative)))
                .containsExactly(relative);
    }
}
