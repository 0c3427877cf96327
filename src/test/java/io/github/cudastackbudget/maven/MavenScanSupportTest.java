package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bridge to the core: which JARs the goals look into, from a real MavenProject and real artifacts. */
class MavenScanSupportTest {

    @TempDir
    Path tmp;

    private Artifact artifact(String artifactId, String scope, File file) {
        DefaultArtifact artifact = new DefaultArtifact("com.example", artifactId, "1.0", scope, "jar", null,
                new DefaultArtifactHandler("jar"));
        artifact.setFile(file);
        return artifact;
    }

    private MavenProject project(File ownJar, Artifact... dependencies) {
        Model model = new Model();
        model.setGroupId("com.example");
        model.setArtifactId("app");
        model.setVersion("1.0");
        model.setPackaging("jar");
        MavenProject project = new MavenProject(model);
        project.setArtifact(artifact("app", null, ownJar));
        Set<Artifact> artifacts = new LinkedHashSet<>(List.of(dependencies));
        project.setArtifacts(artifacts);
        return project;
    }

    private File jar(String name) throws Exception {
        return Files.write(tmp.resolve(name), new byte[] {'P', 'K', 5, 6}).toFile();
    }

    /** The shared parameters with the POM's defaults, JARs as given. */
    private static MavenScanSupport.Parameters jarParameters(boolean scanProjectJar, boolean scanDependencies,
            String dependencyScopes, List<String> includes, List<String> excludes) {
        return new MavenScanSupport.Parameters(null, null, null, "auto", scanProjectJar, scanDependencies,
                dependencyScopes, includes, excludes, null, null, true, null, null, null, null, 600, 0, 25, true, null);
    }

    private static JarScanOptions jars(MavenProject project, Consumer<String> log, boolean scanProjectJar,
            boolean scanDependencies, String dependencyScopes, List<String> includes, List<String> excludes)
            throws MojoExecutionException {
        return new MavenScanSupport(project, log).jarScan(jarParameters(scanProjectJar, scanDependencies,
                dependencyScopes, includes, excludes));
    }

    @Test
    void theProjectJarAndTheDependenciesOfTheChosenScopes() throws Exception {
        MavenProject project = project(jar("app-1.0.jar"), artifact("kernels", "compile", jar("kernels-1.0.jar")),
                artifact("runtime-libs", "runtime", jar("runtime-libs-1.0.jar")),
                artifact("tests", "test", jar("tests-1.0.jar")), artifact("api", "provided", jar("api-1.0.jar")));

        JarScanOptions options = jars(project, line -> { }, true, true, null, null, null);

        assertThat(options.jars()).extracting(JarInput::usedBy).containsExactly("com.example:app:1.0",
                "com.example:kernels:1.0", "com.example:runtime-libs:1.0");
        assertThat(options.jars().get(0).jar().getFileName().toString()).isEqualTo("app-1.0.jar");
        assertThat(jars(project, line -> { }, false, true, "test, provided", List.of("lib/*.so"), null))
                .satisfies(test -> {
                    assertThat(test.jars()).extracting(JarInput::usedBy)
                            .containsExactly("com.example:tests:1.0", "com.example:api:1.0");
                    assertThat(test.includes()).containsExactly("lib/*.so");
                });
    }

    @Test
    void aProjectJarNotBuiltYetIsOneInformationLine() throws Exception {
        List<String> lines = new ArrayList<>();

        JarScanOptions options = jars(project(tmp.resolve("missing.jar").toFile()), lines::add, true, false, null,
                null, null);

        assertThat(options.jars()).isEmpty();
        assertThat(lines).singleElement().asString().contains("not built yet").contains("package");
    }

    @Test
    void anUnknownScopeNamesTheParameter() throws Exception {
        MavenProject project = project(jar("app-1.0.jar"));

        assertThatThrownBy(() -> jars(project, line -> { }, false, true, "compile,everything", null, null))
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("dependencyScopes 'compile,everything' names the unknown scope 'everything': use a "
                        + "comma-separated list of compile, runtime, provided, system, test "
                        + "(cudaStackBudget.dependencyScopes)");
    }

    @Test
    void theOptionsSpeakMavenAndResolveTheLaunchLogsAgainstTheBaseDirectory() throws Exception {
        MavenProject project = project(jar("app-1.0.jar"));
        project.setFile(tmp.resolve("pom.xml").toFile());
        project.getModel().setBuild(new org.apache.maven.model.Build());
        project.getBuild().setDirectory(tmp.resolve("target").toString());
        MavenScanSupport.Parameters parameters = new MavenScanSupport.Parameters(null, null, null, null, false, false,
                null, null, null, null, "l4", false, "1 GiB", null, "runs/launch.log", " ", 30, 0, 5, true, "linux,windows-x86_64");

        CheckOptions options = new MavenScanSupport(project, line -> { }).options(parameters, tmp.resolve("out"),
                true);

        assertThat(options.frontend()).isSameAs(MavenFrontend.INSTANCE);
        assertThat(options.launchLog()).isEqualTo(tmp.resolve("runs/launch.log"));
        assertThat(options.libraryLog()).as("blank: the default next to the launch log").isNull();
        assertThat(options.effectiveLibraryLog()).isEqualTo(tmp.resolve("runs/launch.log.libraries"));
        assertThat(options.parallelism()).as("0: the core's default")
                .isEqualTo(CheckOptions.builder().outputDirectory(tmp).build().parallelism());
        assertThat(options.timeout()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(options.engine()).isEqualTo("auto");
        assertThat(options.fileSets()).singleElement()
                .satisfies(set -> assertThat(set.directory()).isEqualTo(tmp.resolve("target")));
        assertThat(options.usedBy()).isEqualTo("com.example:app:1.0");
        assertThat(options.verbose()).isTrue();
        assertThat(options.top()).isEqualTo(5);
        assertThat(options.platforms()).isEqualTo("linux,windows-x86_64");
    }

    @Test
    void aTimeoutBelowOneSecondNamesTheProperty() throws Exception {
        MavenProject project = project(jar("app-1.0.jar"));
        MavenScanSupport.Parameters parameters = new MavenScanSupport.Parameters(null, null, null, null, false, false,
                null, null, null, null, null, true, null, null, null, null, 0, 0, 25, true, null);

        assertThatThrownBy(() -> new MavenScanSupport(project, line -> { }).options(parameters, tmp, false))
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("timeout 0 must be at least 1 second (cudaStackBudget.timeout)");
    }

    // conv (issue 12): the old user property of devicePresets
    @Test
    void theOldDevicesPropertyStillWorksWithOneWarning() {
        LogLines log = new LogLines();
        assertThat(MavenScanSupport.devicePresets(null, "h200-141gb,l4", log)).isEqualTo("h200-141gb,l4");
        assertThat(log.lines).containsExactly("WARN cudaStackBudget.devices is deprecated: use "
                + "cudaStackBudget.devicePresets=h200-141gb,l4 (read this time)");

        log.lines.clear();
        assertThat(MavenScanSupport.devicePresets("l4", "h200-141gb", log)).isEqualTo("l4");
        assertThat(log.lines).containsExactly("WARN cudaStackBudget.devices is deprecated: use "
                + "cudaStackBudget.devicePresets=h200-141gb (ignored this time: devicePresets is set to 'l4')");

        log.lines.clear();
        assertThat(MavenScanSupport.devicePresets("l4", null, log)).isEqualTo("l4");
        assertThat(MavenScanSupport.devicePresets(null, " ", log)).isNull();
        assertThat(log.lines).isEmpty();
    }
}
