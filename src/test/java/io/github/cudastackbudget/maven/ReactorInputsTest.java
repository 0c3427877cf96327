package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarInput;
import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.apache.maven.model.Build;
import org.apache.maven.model.FileSet;
import org.apache.maven.model.Model;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aggregate's inputs over a reactor of real MavenProjects: every module's file sets and JARs, each attributed to
 * its module; a dependency JAR two modules share read once; and, through the whole check on real nvcc-built libraries,
 * which modules had none.
 */
class ReactorInputsTest {

    @TempDir
    Path tmp;

    private final List<String> info = new ArrayList<>();

    private MavenProject module(String artifactId, Path basedir, Artifact... dependencies) throws Exception {
        Model model = new Model();
        model.setGroupId("com.example");
        model.setArtifactId(artifactId);
        model.setVersion("1.0");
        model.setPackaging("pom");
        Build build = new Build();
        build.setDirectory(basedir.resolve("target").toString());
        model.setBuild(build);
        MavenProject project = new MavenProject(model);
        Files.createDirectories(basedir);
        project.setFile(basedir.resolve("pom.xml").toFile());
        project.setArtifact(artifact(artifactId, null, null));
        project.setArtifacts(new LinkedHashSet<>(List.of(dependencies)));
        return project;
    }

    private static Artifact artifact(String artifactId, String scope, File file) {
        DefaultArtifact artifact = new DefaultArtifact("com.example", artifactId, "1.0", scope, "jar", null,
                new DefaultArtifactHandler("jar"));
        artifact.setFile(file);
        return artifact;
    }

    private Path library(Path module, String name) throws Exception {
        Path target = Files.createDirectories(module.resolve("target/native")).resolve(name);
        return Files.copy(Path.of("target/test-cuda").resolve(name), target);
    }

    /** A JAR holding a real library, as a dependency artifact ships it. */
    private File jar(String name, String entry, String library) throws Exception {
        Path jar = tmp.resolve("repo").resolve(name);
        Files.createDirectories(jar.getParent());
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.putNextEntry(new ZipEntry(entry));
            zip.write(Files.readAllBytes(Path.of("target/test-cuda").resolve(library)));
            zip.closeEntry();
        }
        return jar.toFile();
    }

    private static MavenScanSupport.Parameters parameters(List<FileSet> libraries, boolean scanDependencies) {
        return new MavenScanSupport.Parameters(libraries, null, null, "native", false, scanDependencies,
                "compile,runtime", null, null, null, null, false, null, null, null, null, 600, 0, 25, true, null);
    }

    @Test
    void eachModulesBuildDirectoryBelongsToTheModuleAndANestedModuleComesFirst() throws Exception {
        Path rootDir = tmp.resolve("root");
        MavenProject root = module("root", rootDir);
        MavenProject kernels = module("kernels", rootDir.resolve("kernels"));
        MavenProject docs = module("docs", rootDir.resolve("docs"));

        ReactorInputs inputs = ReactorInputs.of(List.of(root, kernels, docs), root, parameters(null, false),
                info::add);

        assertThat(inputs.modules()).containsExactly("com.example:root:1.0", "com.example:kernels:1.0",
                "com.example:docs:1.0");
        assertThat(inputs.fileSets()).extracting(FileSetSpec::directory, FileSetSpec::usedBy).containsExactly(
                tuple(rootDir.resolve("kernels/target"), "com.example:kernels:1.0"),
                tuple(rootDir.resolve("docs/target"), "com.example:docs:1.0"),
                tuple(rootDir.resolve("target"), "com.example:root:1.0"));
        assertThat(inputs.fileSets()).allSatisfy(set -> assertThat(set.includes())
                .isEqualTo(FileSetSpec.DEFAULT_INCLUDES));
        assertThat(inputs.lookedIn()).containsEntry("com.example:kernels:1.0", "kernels/target")
                .containsEntry("com.example:root:1.0", "target");
        assertThat(inputs.jarScan().jars()).isEmpty();
    }

    @Test
    void librariesFileSetsAreResolvedAgainstEachModule() throws Exception {
        Path rootDir = tmp.resolve("root");
        MavenProject root = module("root", rootDir);
        MavenProject kernels = module("kernels", rootDir.resolve("kernels"));
        FileSet native_ = new FileSet();
        native_.setDirectory("build/lib");
        native_.addInclude("*.so");

        ReactorInputs inputs = ReactorInputs.of(List.of(root, kernels), root, parameters(List.of(native_), false),
                info::add);

        assertThat(inputs.fileSets()).extracting(FileSetSpec::directory, FileSetSpec::includes, FileSetSpec::usedBy)
                .containsExactly(tuple(rootDir.resolve("kernels/build/lib"), List.of("*.so"), "com.example:kernels:1.0"),
                        tuple(rootDir.resolve("build/lib"), List.of("*.so"), "com.example:root:1.0"));
    }

    @Test
    void aDependencyJarTwoModulesShareIsReadOnceForBothAndTheWholeCheckSaysWhichModulesHadNone() throws Exception {
        Path rootDir = tmp.resolve("root");
        File shared = jar("gpu-kernels-2.0.jar", "native/libjitmixed.so", "libjitmixed.so");
        MavenProject root = module("root", rootDir);
        MavenProject app = module("app", rootDir.resolve("app"), artifact("gpu-kernels", "compile", shared));
        MavenProject service = module("service", rootDir.resolve("service"),
                artifact("gpu-kernels", "runtime", shared));
        MavenProject kernels = module("kernels", rootDir.resolve("kernels"));
        MavenProject docs = module("docs", rootDir.resolve("docs"));
        library(rootDir.resolve("kernels"), "libframes.so");

        ReactorInputs inputs = ReactorInputs.of(List.of(root, app, service, kernels, docs), root,
                parameters(null, true), info::add);

        String dependency = "com.example:gpu-kernels:1.0 (dependency of com.example:app:1.0, com.example:service:1.0)";
        assertThat(inputs.jarScan().jars()).extracting(JarInput::jar, JarInput::usedBy)
                .containsExactly(tuple(shared.toPath(), dependency));
        assertThat(inputs.modulesNamed(dependency)).isEqualTo("com.example:app:1.0, com.example:service:1.0");
        assertThat(inputs.modulesNamed("com.example:kernels:1.0")).isEqualTo("com.example:kernels:1.0");

        CheckRunner.Outcome outcome = CheckRunner.run(CheckOptions.builder().fileSets(inputs.fileSets())
                .jarScan(inputs.jarScan()).engine("native").devicePresets("h200-141gb").detectLocalDevices(false)
                .useCache(false).timeout(Duration.ofSeconds(60)).environment(Map.of("PATH", ""))
                .outputDirectory(tmp.resolve("out")).build(), new CheckListener() {
                    @Override
                    public void info(String line) {
                    }

                    @Override
                    public void warn(String line) {
                    }
                });

        assertThat(outcome.result().scans()).extracting(scan -> scan.libraries().get(0), LibraryScan::usedBy)
                .containsExactly(tuple("libframes.so", "com.example:kernels:1.0"),
                        tuple("gpu-kernels-2.0.jar!/native/libjitmixed.so", dependency));
        assertThat(inputs.withoutLibraries(outcome.result().scans()))
                .containsExactly("com.example:root:1.0", "com.example:docs:1.0");
        // the H200's worst kernel is the dependency's: its library names the artifact and the modules that use it
        assertThat(outcome.result().devices().get(0).worst().library())
                .isEqualTo("gpu-kernels-2.0.jar!/native/libjitmixed.so");
    }

    @Test
    void twoModulesShippingALibraryOfOneNameGetOneWarningNamingBoth() throws Exception {
        Path rootDir = tmp.resolve("root");
        MavenProject root = module("root", rootDir);
        MavenProject kernels = module("kernels", rootDir.resolve("kernels"));
        MavenProject other = module("other", rootDir.resolve("other"));
        library(rootDir.resolve("kernels"), "libframes.so");
        library(rootDir.resolve("other"), "libframes.so");
        library(rootDir.resolve("other"), "libjitmixed.so");
        ReactorInputs inputs = ReactorInputs.of(List.of(root, kernels, other), root, parameters(null, false),
                info::add);

        CheckRunner.Outcome outcome = CheckRunner.run(CheckOptions.builder().fileSets(inputs.fileSets())
                .engine("native").devicePresets("h200-141gb").detectLocalDevices(false).useCache(false)
                .timeout(Duration.ofSeconds(60)).environment(Map.of("PATH", "")).outputDirectory(tmp.resolve("out"))
                .build(), new CheckListener() {
                    @Override
                    public void info(String line) {
                    }

                    @Override
                    public void warn(String line) {
                    }
                });

        assertThat(ReactorInputs.sharedLabels(outcome.result().scans())).containsExactly("libframes.so is the name of "
                + "libraries of com.example:kernels:1.0 and com.example:other:1.0: the reports name libraries by file "
                + "name, so their kernels are listed under one name and attributed to the first; rename one of them to "
                + "tell them apart");
    }

    @Test
    void aReactorModulesJarThatAnotherModuleDependsOnIsReadOnceAsTheModules() throws Exception {
        Path rootDir = tmp.resolve("root");
        File kernelsJar = jar("kernels-1.0.jar", "native/libframes.so", "libframes.so");
        MavenProject root = module("root", rootDir);
        MavenProject kernels = module("kernels", rootDir.resolve("kernels"));
        kernels.getArtifact().setFile(kernelsJar);
        kernels.getModel().setPackaging("jar");
        MavenProject app = module("app", rootDir.resolve("app"), artifact("kernels", "compile", kernelsJar));
        MavenScanSupport.Parameters parameters = new MavenScanSupport.Parameters(null, null, null, "native", true,
                true, "compile,runtime", null, null, null, null, false, null, null, null, null, 600, 0, 25, true,
                null);

        ReactorInputs inputs = ReactorInputs.of(List.of(root, kernels, app), root, parameters, info::add);

        assertThat(inputs.jarScan().jars()).extracting(JarInput::jar, JarInput::usedBy)
                .containsExactly(tuple(kernelsJar.toPath(), "com.example:kernels:1.0"));
    }
}
