package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which JARs the goals look into, from a real MavenProject and real artifacts. */
class JarScanParametersTest {

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

    @Test
    void theProjectJarAndTheDependenciesOfTheChosenScopes() throws Exception {
        MavenProject project = project(jar("app-1.0.jar"), artifact("kernels", "compile", jar("kernels-1.0.jar")),
                artifact("runtime-libs", "runtime", jar("runtime-libs-1.0.jar")),
                artifact("tests", "test", jar("tests-1.0.jar")), artifact("api", "provided", jar("api-1.0.jar")));

        JarScanOptions options = new JarScanParameters(true, true, null, null, null).toOptions(project, line -> { });

        assertThat(options.jars()).extracting(JarInput::usedBy).containsExactly("com.example:app:1.0",
                "com.example:kernels:1.0", "com.example:runtime-libs:1.0");
        assertThat(options.jars().get(0).jar().getFileName().toString()).isEqualTo("app-1.0.jar");
        assertThat(new JarScanParameters(false, true, "test, provided", List.of("lib/*.so"), null)
                .toOptions(project, line -> { })).satisfies(test -> {
                    assertThat(test.jars()).extracting(JarInput::usedBy)
                            .containsExactly("com.example:tests:1.0", "com.example:api:1.0");
                    assertThat(test.includes()).containsExactly("lib/*.so");
                });
    }

    @Test
    void aProjectJarNotBuiltYetIsOneInformationLine() throws Exception {
        List<String> lines = new ArrayList<>();

        JarScanOptions options = new JarScanParameters(true, false, null, null, null)
                .toOptions(project(tmp.resolve("missing.jar").toFile()), lines::add);

        assertThat(options.jars()).isEmpty();
        assertThat(lines).singleElement().asString().contains("not built yet").contains("package");
    }

    @Test
    void anUnknownScopeNamesTheParameter() throws Exception {
        MavenProject project = project(jar("app-1.0.jar"));

        assertThatThrownBy(() -> new JarScanParameters(false, true, "compile,everything", null, null)
                .toOptions(project, line -> { }))
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("dependencyScopes 'compile,everything'").hasMessageContaining("'everything'");
    }
}
