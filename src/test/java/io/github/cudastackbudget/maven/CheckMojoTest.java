package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.apache.maven.api.plugin.testing.MojoExtension.setVariableValueToObject;

/**
 * Parameter wiring and exception types of the check goal (maven-plugin-testing-harness, JUnit 5). The stand-in for
 * cuobjdump replays the recorded real cuobjdump output of target/test-cuda/libframes.so
 * (src/test/resources/recorded/cuobjdump).
 */
@MojoTest
class CheckMojoTest {

    private static final String POM = "src/test/resources/unit/check/pom.xml";
    private static final Path RECORDINGS = Path.of("src/test/resources/recorded/cuobjdump").toAbsolutePath();

    @TempDir
    Path build;

    private Path replay;

    @BeforeEach
    void buildDirectoryWithARealLibrary() throws Exception {
        Files.createDirectories(build.resolve("native"));
        Files.copy(Path.of("target/test-cuda/libframes.so"), build.resolve("native/libframes.so"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(build.resolve("notes.txt"), "not a library");
        replay = build.resolve("replay-cuobjdump");
        Files.writeString(replay, "#!/bin/sh\n# replays the recorded real cuobjdump 13.0 output of libframes.so\n"
                + "if [ \"$1\" = \"--version\" ]; then cat '" + RECORDINGS + "/cuobjdump-version.txt'; exit 0; fi\n"
                + "cat '" + RECORDINGS + "/libframes.so.resource-usage.txt'\n");
        Files.setPosixFilePermissions(replay, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private void wire(CheckMojo mojo) throws Exception {
        Model model = new Model();
        model.setGroupId("io.github.cudastackbudget.test");
        model.setArtifactId("check-harness");
        model.setVersion("1.0");
        Build modelBuild = new Build();
        modelBuild.setDirectory(build.toString());
        model.setBuild(modelBuild);
        MavenProject project = new MavenProject(model);
        project.setFile(new File(POM).getAbsoluteFile());
        setVariableValueToObject(mojo, "project", project);
        setVariableValueToObject(mojo, "outputDirectory", build.resolve("cuda-stack-budget").toFile());
        setVariableValueToObject(mojo, "cuobjdump", replay.toString());
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void pomConfigurationReachesTheCore(CheckMojo mojo) throws Exception {
        wire(mojo);
        CheckOptions options = mojo.options();
        assertThat(options.engine()).isEqualTo("auto");
        assertThat(options.top()).isEqualTo(7);
        assertThat(options.maxReservation()).isEqualTo("5%");
        assertThat(options.maxStackPerThread()).isEqualTo("16 KiB");
        assertThat(options.devicePresets()).isEqualTo("l4");
        assertThat(options.devices()).containsExactly(
                new DeviceDefinition("h200-141gb", null, null, null, null, null, null, "3 GiB"),
                new DeviceDefinition(null, "my-ampere", "sm_80", null, "108", "2048", "80 GiB", null));
        assertThat(options.fileSets()).singleElement().satisfies(set -> {
            assertThat(set.directory()).isEqualTo(build);
            assertThat(set.includes()).contains("**/*.so", "**/*.so.*", "**/*.cubin", "**/*.fatbin", "**/*.o", "**/*.a");
        });
        assertThat(options.usedBy()).isEqualTo("io.github.cudastackbudget.test:check-harness:1.0");
        assertThat(options.frontend()).as("core messages name Maven's parameters").isSameAs(MavenFrontend.INSTANCE);
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void passingBudgetsWriteTheReports(CheckMojo mojo) throws Exception {
        wire(mojo);
        mojo.execute();
        Path json = build.resolve("cuda-stack-budget/cuda-stack-budget.json");
        assertThat(json).isRegularFile();
        assertThat(Files.readString(json)).contains("\"name\": \"my-ampere\"", "\"status\": \"pass\"")
                .doesNotContain("\"status\": \"fail\"");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "maxReservation", value = "1 GiB")
    void exceededBudgetIsAMojoFailureNamingDeviceKernelArchAndLibrary(CheckMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoFailureException.class)
                .hasMessageContaining("my-ampere: stack reservation")
                .hasMessageContaining("exceeds maxReservation 1.00 GiB")
                .hasMessageContaining("void frameKernel<2550>(int*, int) [sm_80] in libframes.so")
                .hasMessageNotContaining("more violation(s)")
                .hasMessageEndingWith("; raise the budget, shrink the kernel's frame, or set "
                        + "-DcudaStackBudget.failOnViolation=false to only warn.");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "maxStackPerThread", value = "4 KiB")
    void kernelFrameOverMaxStackPerThreadFailsOnEveryDevice(CheckMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("h200-141gb: kernel void frameKernel<2550>(int*, int) [sm_90a] in libframes.so"
                        + " has a stack frame of 10,200 B per thread, which exceeds maxStackPerThread 4,096 B")
                .hasMessageContaining("(and 2 more violation(s))");
        assertThat(build.resolve("cuda-stack-budget/cuda-stack-budget.json")).isRegularFile();
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "maxReservation", value = "1 GiB")
    @MojoParameter(name = "failOnViolation", value = "false")
    void failOnViolationFalseOnlyWarns(CheckMojo mojo) throws Exception {
        wire(mojo);
        LogLines log = new LogLines();
        mojo.setLog(log);
        mojo.execute();
        // the closing warning says what happened and why the build goes on; it gives no advice to set what is set
        assertThat(log.containing("CUDA stack budget exceeded")).singleElement().asString()
                .startsWith("WARN CUDA stack budget exceeded: my-ampere: stack reservation ")
                .contains(". See " + build.resolve("cuda-stack-budget/cuda-stack-budget.json") + ". ")
                .endsWith(". The build continues because failOnViolation is false.")
                .doesNotContain("failOnViolation=false");
        assertThat(log.lines).noneMatch(line -> line.startsWith("ERROR"));
        assertThat(Files.readString(build.resolve("cuda-stack-budget/cuda-stack-budget.json")))
                .contains("\"kind\":\"reservation\"");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "skip", value = "true")
    void skipDoesNothing(CheckMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "cuobjdump", "/nonexistent/cuobjdump");
        LogLines log = new LogLines();
        mojo.setLog(log);
        mojo.execute();
        assertThat(build.resolve("cuda-stack-budget")).doesNotExist();
        assertThat(log.lines).containsExactly(
                "INFO Skipping the CUDA stack budget check: cudaStackBudget.skip is set.");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "skipCheck", value = "true")
    void theGoalsOwnSkipDoesNothingAndNamesItsProperty(CheckMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "cuobjdump", "/nonexistent/cuobjdump");
        LogLines log = new LogLines();
        mojo.setLog(log);
        mojo.execute();
        assertThat(build.resolve("cuda-stack-budget")).doesNotExist();
        assertThat(log.lines).containsExactly(
                "INFO Skipping the CUDA stack budget check: cudaStackBudget.check.skip is set.");

        setVariableValueToObject(mojo, "skip", true);
        log.lines.clear();
        mojo.execute();
        assertThat(log.lines).containsExactly("INFO Skipping the CUDA stack budget check: cudaStackBudget.skip and "
                + "cudaStackBudget.check.skip are set.");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "maxReservation", value = "lots")
    void badSizeIsAMojoExecutionExceptionNamingTheParameter(CheckMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessageStartingWith("maxReservation 'lots' is not a size");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void missingCuobjdumpIsAMojoExecutionExceptionNamingTheProperty(CheckMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "cuobjdump", build.resolve("no-such-cuobjdump").toString());
        setVariableValueToObject(mojo, "engine", "cuobjdump");
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("no-such-cuobjdump").hasMessageContaining("cudaStackBudget.cuobjdump");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "engine", value = "magic")
    void unknownEngineIsAMojoExecutionException(CheckMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessage("engine 'magic' is unknown: use auto, cuobjdump or native");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void noDeviceCodeIsASuccessWithoutATool(CheckMojo mojo) throws Exception {
        wire(mojo);
        Files.delete(build.resolve("native/libframes.so"));
        setVariableValueToObject(mojo, "cuobjdump", "/nonexistent/cuobjdump");
        mojo.execute();
        assertThat(Files.readString(build.resolve("cuda-stack-budget/cuda-stack-budget.json")))
                .contains("\"libraries\": []");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void withoutLaunchLogTheOptionsAreStatic(CheckMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "launchLog", "  ");
        assertThat(mojo.options().launchLog()).isNull();
        assertThat(mojo.options().effectiveLibraryLog()).isNull();
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void launchLogJudgesTheLaunchedKernelsAndIsResolvedAgainstTheBaseDirectory(CheckMojo mojo) throws Exception {
        wire(mojo);
        // the H200 budget of 3 GiB passes either way; my-ampere's 5% of 80 GiB (4 GiB) too; 1 GiB fails statically
        setVariableValueToObject(mojo, "maxReservation", "1 GiB");
        Path log = build.resolve("cuda-stack-budget-in/launch.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, "# cuda-stack-budget launch log 1\n# status: ok\n# processes: 1\n"
                + "_Z11frameKernelILi64EEvPii\tmain\t1024\n");
        setVariableValueToObject(mojo, "launchLog", log.toString());
        assertThat(mojo.options().launchLog()).isEqualTo(log);
        assertThat(mojo.options().effectiveLibraryLog()).isEqualTo(Path.of(log + ".libraries"));
        mojo.execute();
        String json = Files.readString(build.resolve("cuda-stack-budget/cuda-stack-budget.json"));
        assertThat(json).contains("\"launchedReservationBytes\": " + (108L * 2048 * 256),
                "\"unmatchedLaunchedKernels\": []", "\"sharedPerBlock\":1024");

        setVariableValueToObject(mojo, "launchLog", "target/no-such/launch.log");
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining(new File(POM).getAbsoluteFile().getParentFile().toPath()
                        .resolve("target/no-such/launch.log").toString())
                .hasMessageContaining("(launchLog) does not exist: run the tests (or the job) under the prepare-agent");
    }
}
