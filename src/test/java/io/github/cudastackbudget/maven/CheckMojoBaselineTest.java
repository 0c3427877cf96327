package io.github.cudastackbudget.maven;

import static org.apache.maven.api.plugin.testing.MojoExtension.setVariableValueToObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.baseline.BaselineOptions;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 12: the baseline parameters of the check goal (harness) and baselineArtifact's coordinates. */
@MojoTest
class CheckMojoBaselineTest {

    private static final String POM = "src/test/resources/unit/check/pom.xml";

    @TempDir
    Path build;

    private void wire(CheckMojo mojo) throws Exception {
        Model model = new Model();
        model.setGroupId("io.github.cudastackbudget.test");
        model.setArtifactId("check-harness");
        model.setVersion("1.0");
        Build modelBuild = new Build();
        modelBuild.setDirectory(build.resolve("target").toString());
        model.setBuild(modelBuild);
        MavenProject project = new MavenProject(model);
        project.setFile(build.resolve("pom.xml").toFile());
        Files.createDirectories(build.resolve("target/native"));
        Files.copy(Path.of("target/test-cuda/libframes.so"), build.resolve("target/native/libframes.so"));
        setVariableValueToObject(mojo, "project", project);
        setVariableValueToObject(mojo, "outputDirectory", build.resolve("target/cuda-stack-budget").toFile());
        setVariableValueToObject(mojo, "engine", "native");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "maxGrowth", value = "10%")
    @MojoParameter(name = "ignoreMissingBaseline", value = "true")
    void theBaselineFileReachesTheCoreNamedRelativeToTheProject(CheckMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "baseline", build.resolve("src/budget/old.json").toFile());

        BaselineOptions baseline = mojo.options().baseline();

        assertThat(baseline).isEqualTo(new BaselineOptions(build.resolve("src/budget/old.json"), "10%", true,
                "src/budget/old.json"));
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void aMissingBaselineFailsTheGoalNamingTheFileAndTheProperty(CheckMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "baseline", build.resolve("old.json").toFile());

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessage("baseline old.json does not exist: name the cuda-stack-budget.json of an earlier check, "
                        + "or set -DcudaStackBudget.ignoreMissingBaseline=true where there is none yet (a first "
                        + "release)");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "maxReservation", value = "100 GiB")
    @MojoParameter(name = "maxGrowth", value = "0")
    void aGrowthOverTheBaselineIsAMojoFailure(CheckMojo mojo) throws Exception {
        wire(mojo);
        // the baseline: this check's own report, then its H200 figure as a 16 B smaller frame had given
        mojo.execute();
        Path json = build.resolve("target/cuda-stack-budget/cuda-stack-budget.json");
        Path baseline = build.resolve("baseline.json");
        Files.writeString(baseline, Files.readString(json).replace("\"reservationBytes\": 2759589888",
                "\"reservationBytes\": 2755264512"));
        setVariableValueToObject(mojo, "baseline", baseline.toFile());

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("h200-141gb: the reservation grew from 2.57 GiB (2,755,264,512 B) to 2.57 GiB "
                        + "(2,759,589,888 B) (+4.12 MiB (4,325,376 B), +0.2%) over the baseline baseline.json, more than"
                        + " maxGrowth 0 allows (+0 B)")
                .hasMessageEndingWith("; raise the budget (for a growth over the baseline: maxGrowth, or accept it "
                        + "with a newer baseline), shrink the kernel's frame, or set "
                        + "-DcudaStackBudget.failOnViolation=false to only warn.");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "baselineArtifact", value = "com.example:app:1.0")
    void baselineAndBaselineArtifactTogetherAreOneError(CheckMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "baseline", new File("old.json"));

        assertThatThrownBy(mojo::options).isInstanceOf(MojoExecutionException.class)
                .hasMessageStartingWith("baseline and baselineArtifact are both set: compare with one of them");
    }

    @Test
    void coordinatesTakeAnOptionalClassifierAndRefuseRangesAndLatest() throws Exception {
        DefaultArtifact plain = BaselineArtifact.coordinates(" com.example:app:1.4.0 ");
        assertThat(plain.toString()).isEqualTo("com.example:app:json:cuda-stack-budget:1.4.0");
        assertThat(BaselineArtifact.coordinates("com.example:app:1.4.0:gpu-report").getClassifier())
                .isEqualTo("gpu-report");
        assertThatThrownBy(() -> BaselineArtifact.coordinates("com.example:app"))
                .hasMessage("baselineArtifact 'com.example:app' is not groupId:artifactId:version[:classifier] (e.g. "
                        + "com.example:app:1.4.0, classifier default cuda-stack-budget)");
        assertThatThrownBy(() -> BaselineArtifact.coordinates("com.example::1.0"))
                .hasMessageStartingWith("baselineArtifact 'com.example::1.0' is not groupId:artifactId:version");
        assertThatThrownBy(() -> BaselineArtifact.coordinates("com.example:app:[1.0,2.0)"))
                .hasMessageContaining("give one exact version (e.g. 1.4.0), not a range, LATEST or RELEASE");
        assertThatThrownBy(() -> BaselineArtifact.coordinates("com.example:app:LATEST"))
                .hasMessageContaining("not a range, LATEST or RELEASE");
    }
}
