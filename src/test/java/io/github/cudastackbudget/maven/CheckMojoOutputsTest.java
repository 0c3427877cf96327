package io.github.cudastackbudget.maven;

import static org.apache.maven.api.plugin.testing.MojoExtension.setVariableValueToObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckOptions;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check goal's outputs parameters (issue 12): {@code formats} and the project's base directory reach the core,
 * and {@code failOnError} turns a tool error into one warning (the reports still say it) but never misuse. The
 * library is the nvcc-built target/test-cuda/libframes.so; the tool error is a cuobjdump that does not exist.
 */
@MojoTest
class CheckMojoOutputsTest {

    private static final String POM = "src/test/resources/unit/check/pom.xml";

    @TempDir
    Path basedir;

    private Path out;

    @BeforeEach
    void projectWithARealLibrary() throws Exception {
        Files.createDirectories(basedir.resolve("target/native"));
        Files.copy(Path.of("target/test-cuda/libframes.so"), basedir.resolve("target/native/libframes.so"),
                StandardCopyOption.REPLACE_EXISTING);
        out = basedir.resolve("target/cuda-stack-budget");
    }

    private void wire(CheckMojo mojo) throws Exception {
        Model model = new Model();
        model.setGroupId("io.github.cudastackbudget.test");
        model.setArtifactId("check-harness");
        model.setVersion("1.0");
        Build build = new Build();
        build.setDirectory(basedir.resolve("target").toString());
        model.setBuild(build);
        MavenProject project = new MavenProject(model);
        Files.copy(Path.of(POM), basedir.resolve("pom.xml"), StandardCopyOption.REPLACE_EXISTING);
        project.setFile(basedir.resolve("pom.xml").toFile());
        setVariableValueToObject(mojo, "project", project);
        setVariableValueToObject(mojo, "outputDirectory", out.toFile());
        setVariableValueToObject(mojo, "engine", "native");
    }

    private void toolError(CheckMojo mojo) throws Exception {
        setVariableValueToObject(mojo, "engine", "cuobjdump");
        setVariableValueToObject(mojo, "cuobjdump", basedir.resolve("no-such-cuobjdump").toString());
    }

    private List<String> reports() throws Exception {
        try (Stream<Path> files = Files.list(out)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "formats", value = "junit,sarif")
    @MojoParameter(name = "maxReservation", value = "1 GiB")
    void formatsAndTheBaseDirectoryReachTheCore(CheckMojo mojo) throws Exception {
        wire(mojo);
        CheckOptions options = mojo.options();

        assertThat(options.output().formats()).containsExactly("junit,sarif");
        assertThat(options.output().baseDirectory()).isEqualTo(basedir);
        mojo.setLog(new LogLines());
        assertThatThrownBy(mojo::execute).hasMessageContaining("See " + out.resolve("TEST-cuda-stack-budget.xml"));
        assertThat(reports()).containsExactly("TEST-cuda-stack-budget.xml", "cuda-stack-budget.sarif");
        assertThat(Files.readString(out.resolve("cuda-stack-budget.sarif")))
                .contains("\"uri\" : \"target/native/libframes.so\"");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void theDefaultFormatsAreTodaysThree(CheckMojo mojo) throws Exception {
        wire(mojo);

        assertThat(mojo.options().output().formats()).containsExactly("html,json,txt");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "formats", value = "json,pdf")
    void anUnknownFormatIsAMojoExecutionExceptionNamingTheParameter(CheckMojo mojo) throws Exception {
        wire(mojo);

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessage("formats 'json,pdf': 'pdf' is not a report format; use a comma-separated list of json, "
                        + "txt, html, markdown, junit, sarif (default html,json,txt)");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void aToolErrorIsAMojoExecutionExceptionAndTheReportsSayIt(CheckMojo mojo) throws Exception {
        wire(mojo);
        toolError(mojo);

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("no-such-cuobjdump");
        assertThat(Files.readString(out.resolve("cuda-stack-budget.json"))).contains("\"error\": \"");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "failOnError", value = "false")
    void failOnErrorFalseTurnsAToolErrorIntoOneWarningAndTheReportsStillSayIt(CheckMojo mojo) throws Exception {
        wire(mojo);
        toolError(mojo);
        LogLines log = new LogLines();
        mojo.setLog(log);

        mojo.execute();

        assertThat(log.lines.stream().filter(line -> line.startsWith("WARN ")).toList()).singleElement().asString()
                .startsWith("WARN The CUDA stack budget check could not run: ").contains("no-such-cuobjdump")
                .endsWith("(the build continues because cudaStackBudget.failOnError is false; the reports say so)");
        assertThat(log.lines).noneMatch(line -> line.startsWith("ERROR"));
        assertThat(reports()).containsExactly("cuda-stack-budget.html", "cuda-stack-budget.json",
                "cuda-stack-budget.txt");
        assertThat(Files.readString(out.resolve("cuda-stack-budget.txt"))).contains("ERROR: the check could not run");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "failOnError", value = "false")
    @MojoParameter(name = "maxReservation", value = "lots")
    void failOnErrorFalseStillFailsOnMisuse(CheckMojo mojo) throws Exception {
        wire(mojo);
        toolError(mojo);

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessageStartingWith("maxReservation 'lots' is not a size");
    }
}
