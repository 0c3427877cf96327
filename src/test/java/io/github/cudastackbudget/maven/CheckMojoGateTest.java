package io.github.cudastackbudget.maven;

import static org.apache.maven.api.plugin.testing.MojoExtension.setVariableValueToObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.gate.GateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
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

/**
 * The check goal's gate parameters (issue 12) as Maven configures them from a POM: {@code <rules>} beans and a
 * {@code <device><maxStackPerThread>} reach the core; a rule breached at ERROR is a MojoFailureException, an invalid
 * rule or suppressions file a MojoExecutionException. The library is the nvcc-built target/test-cuda/libframes.so.
 */
@MojoTest
class CheckMojoGateTest {

    private static final String POM = "src/test/resources/unit/check-gate/pom.xml";

    @TempDir
    Path basedir;

    @BeforeEach
    void projectWithARealLibrary() throws Exception {
        Files.createDirectories(basedir.resolve("target/native"));
        Files.copy(Path.of("target/test-cuda/libframes.so"), basedir.resolve("target/native/libframes.so"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    private void wire(CheckMojo mojo) throws Exception {
        Model model = new Model();
        model.setGroupId("io.github.cudastackbudget.test");
        model.setArtifactId("check-gate-harness");
        model.setVersion("1.0");
        Build build = new Build();
        build.setDirectory(basedir.resolve("target").toString());
        model.setBuild(build);
        MavenProject project = new MavenProject(model);
        Files.copy(Path.of(POM), basedir.resolve("pom.xml"), StandardCopyOption.REPLACE_EXISTING);
        project.setFile(basedir.resolve("pom.xml").toFile());
        setVariableValueToObject(mojo, "project", project);
        setVariableValueToObject(mojo, "outputDirectory", basedir.resolve("target/cuda-stack-budget").toFile());
        setVariableValueToObject(mojo, "engine", "native");
        setVariableValueToObject(mojo, "detectLocalDevices", false);
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void theRulesAndTheDevicesOwnFrameLimitReachTheCore(CheckMojo mojo) throws Exception {
        wire(mojo);

        CheckOptions options = mojo.options();

        assertThat(options.gate().rules()).containsExactly(
                new GateOptions.RuleSpec(null, List.of(), List.of(),
                        List.of(new GateOptions.LimitSpec(null, "1 GiB", "WARN"))),
                new GateOptions.RuleSpec("KERNEL", List.of("void frameKernel<*>(int*, int)"), List.of("*2550*"),
                        List.of(new GateOptions.LimitSpec("FRAME", "1 KiB", null))));
        assertThat(options.devices().get(0).maxStackPerThread()).isEqualTo("16 KiB");
        assertThat(options.devices().get(1).maxStackPerThread()).isNull();
        assertThat(options.gate().suppressions()).isNull();
        assertThat(options.gate().failOnUnusedSuppressions()).isFalse();
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void anErrorRuleFailsTheBuildAndAWarnRuleWarns(CheckMojo mojo) throws Exception {
        wire(mojo);
        LogLines log = new LogLines();
        mojo.setLog(log);

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("rule[2] KERNEL FRAME <= 1 KiB: kernel void frameKernel<1024>(int*, int) "
                        + "[sm_90a] in libframes.so on h200-141gb: stack frame 4,096 B per thread exceeds the maximum "
                        + "1 KiB (1,024 B)");
        assertThat(log.lines).anyMatch(line -> line.startsWith("WARN rule[1] DEVICE RESERVATION <= 1 GiB: device "
                + "h200-141gb: ") && line.endsWith("(level WARN)"));
        // the 10,200-B kernel is excluded from the rule, and within the H200's own 16 KiB frame limit
        assertThat(log.lines).noneMatch(line -> line.startsWith("ERROR") && line.contains("frameKernel<2550>"));
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    @MojoParameter(name = "failOnViolation", value = "false")
    void failOnViolationFalseTurnsABreachedRuleIntoAWarning(CheckMojo mojo) throws Exception {
        wire(mojo);
        LogLines log = new LogLines();
        mojo.setLog(log);

        mojo.execute();

        assertThat(log.lines).anyMatch(line -> line.startsWith("WARN rule[2] KERNEL FRAME <= 1 KiB: "));
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void anInvalidRuleIsAMojoExecutionExceptionNamingTheRuleAndField(CheckMojo mojo) throws Exception {
        wire(mojo);
        Limit limit = new Limit();
        limit.setCounter("STACK");
        limit.setMaximum("1 KiB");
        Rule rule = new Rule();
        rule.setLimits(List.of(limit));
        setVariableValueToObject(mojo, "rules", List.of(rule));

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessage("rules: rule[1] limit[1] counter 'STACK' is unknown: use RESERVATION, INCREMENT, FRAME, "
                        + "MEMORY_SHARE");
    }

    @Test
    @InjectMojo(goal = "check", pom = POM)
    void aMissingSuppressionsFileIsAMojoExecutionExceptionNamingIt(CheckMojo mojo) throws Exception {
        wire(mojo);
        Path missing = basedir.resolve("suppressions.xml");
        setVariableValueToObject(mojo, "suppressions", missing.toFile());

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessage("suppressions file " + missing + " does not exist: create it, or set suppressions to an "
                        + "existing file");
    }
}
