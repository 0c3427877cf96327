package io.github.cudastackbudget.maven;

import static org.apache.maven.api.plugin.testing.MojoExtension.setVariableValueToObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.launch.AgentLibrary;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wiring of the prepare-agent goal (maven-plugin-testing-harness, JUnit 5): extraction errors, the project properties
 * it sets, and that the check goal reads the launch log from the same property.
 */
@MojoTest
class PrepareAgentMojoTest {

    private static final String POM = "src/test/resources/unit/prepare-agent/pom.xml";

    @TempDir
    Path build;

    private MavenProject wire(PrepareAgentMojo mojo) throws Exception {
        Model model = new Model();
        model.setGroupId("io.github.cudastackbudget.test");
        model.setArtifactId("prepare-agent-harness");
        model.setVersion("1.0");
        Build modelBuild = new Build();
        modelBuild.setDirectory(build.toString());
        model.setBuild(modelBuild);
        MavenProject project = new MavenProject(model);
        project.setFile(new File(POM).getAbsoluteFile());
        setVariableValueToObject(mojo, "project", project);
        setVariableValueToObject(mojo, "launchLog", build.resolve("cuda-stack-budget/launch.log").toString());
        setVariableValueToObject(mojo, "agentDirectory", build.resolve("cuda-stack-budget-agent").toFile());
        return project;
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    void pluginJarWithoutTheLibraryIsAClearError(PrepareAgentMojo mojo) throws Exception {
        MavenProject project = wire(mojo);
        mojo.osName = "Linux";
        mojo.osArch = "amd64";
        mojo.source = () -> null; // what getResourceAsStream answers for a jar built without the CUPTI headers
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessage("this plugin jar carries no CUPTI injection library "
                        + "(/native/linux-x86_64/libcuda-stack-budget-cupti.so): it was built without the CUPTI "
                        + "headers; rebuild the plugin on a machine with the CUDA toolkit's CUPTI "
                        + "(extras/CUPTI/include) or use a released plugin jar");
        assertThat(project.getProperties()).doesNotContainKey(PropertyNames.LAUNCH_LOG);
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    void otherPlatformIsAClearError(PrepareAgentMojo mojo) throws Exception {
        wire(mojo);
        mojo.osName = "Mac OS X";
        mojo.osArch = "aarch64";
        assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessageStartingWith("the CUPTI injection library of launched mode is built for linux-x86_64 only, "
                        + "but this is Mac OS X/aarch64")
                .hasMessageContaining("-DcudaStackBudget.skip");
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    @MojoParameter(name = "skip", value = "true")
    void skipSetsEmptyPropertiesSoTheCheckStaysStatic(PrepareAgentMojo mojo) throws Exception {
        MavenProject project = wire(mojo);
        LogLines log = new LogLines();
        mojo.setLog(log);
        mojo.execute();
        assertThat(log.lines).containsExactly("INFO Skipping the CUDA launch recorder (prepare-agent): "
                + "cudaStackBudget.skip is set, so the cudaStackBudget.agentLibrary and log properties are empty: "
                + "runs are not recorded and the check stays static.");
        assertThat(project.getProperties()).containsOnlyKeys("cudaStackBudget.agentLibrary",
                "cudaStackBudget.launchLog", "cudaStackBudget.libraryLog", "cudaStackBudget.agentEnv",
                "cudaStackBudget.agentEnvFile");
        assertThat(project.getProperties().values()).allMatch(""::equals);
        assertThat(build.resolve("cuda-stack-budget-agent")).doesNotExist();
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    @MojoParameter(name = "skipPrepareAgent", value = "true")
    void theGoalsOwnSkipAlsoEmptiesThePropertiesAndNamesItsProperty(PrepareAgentMojo mojo) throws Exception {
        MavenProject project = wire(mojo);
        LogLines log = new LogLines();
        mojo.setLog(log);
        mojo.execute();
        assertThat(log.lines).containsExactly("INFO Skipping the CUDA launch recorder (prepare-agent): "
                + "cudaStackBudget.prepareAgent.skip is set, so the cudaStackBudget.agentLibrary and log properties "
                + "are empty: runs are not recorded and the check stays static.");
        assertThat(project.getProperties()).hasSize(5);
        assertThat(project.getProperties().values()).allMatch(""::equals);
        assertThat(build.resolve("cuda-stack-budget-agent")).doesNotExist();
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    void extractsThePackagedLibraryOnceAndSetsTheProperties(PrepareAgentMojo mojo) throws Exception {
        MavenProject project = wire(mojo);
        mojo.osName = "Linux";
        mojo.osArch = "amd64";
        byte[] packaged;
        try (var in = PrepareAgentMojo.class.getResourceAsStream(AgentLibrary.RESOURCE)) {
            assertThat(in).as("the build packages the injection library (src/main/native/build.sh, process-classes)")
                    .isNotNull();
            packaged = in.readAllBytes();
        }
        assertThat(packaged).startsWith(0x7f, 'E', 'L', 'F');
        mojo.execute();

        Path library = build.resolve("cuda-stack-budget-agent/libcuda-stack-budget-cupti.so");
        Path launchLog = build.resolve("cuda-stack-budget/launch.log");
        assertThat(library).hasBinaryContent(packaged);
        assertThat(launchLog.getParent()).isDirectory();
        assertThat(project.getProperties())
                .containsEntry("cudaStackBudget.agentLibrary", library.toString())
                .containsEntry("cudaStackBudget.launchLog", launchLog.toString())
                .containsEntry("cudaStackBudget.libraryLog", launchLog + ".libraries")
                .containsEntry("cudaStackBudget.agentEnv", "CUDA_INJECTION64_PATH=" + library
                        + " NVTX_INJECTION64_PATH=" + library + " CUDA_STACK_BUDGET_LAUNCH_LOG=" + launchLog + " CUDA_STACK_BUDGET_LIBRARY_LOG=" + launchLog
                        + ".libraries")
                .containsEntry("cudaStackBudget.agentEnvFile", build.resolve("cuda-stack-budget-agent/agent-env.sh")
                        .toString());
        assertThat(build.resolve("cuda-stack-budget-agent/agent-env.sh")).hasContent(String.join("\n",
                "# written by cuda-stack-budget:prepare-agent: . this file, then run the job",
                "export CUDA_INJECTION64_PATH=" + library,
                "export NVTX_INJECTION64_PATH=" + library,
                "export CUDA_STACK_BUDGET_LAUNCH_LOG=" + launchLog,
                "export CUDA_STACK_BUDGET_LIBRARY_LOG=" + launchLog + ".libraries"));

        // unchanged library: not rewritten
        var written = Files.getLastModifiedTime(library);
        Thread.sleep(20);
        mojo.execute();
        assertThat(Files.getLastModifiedTime(library)).isEqualTo(written);
        // a changed (e.g. truncated) copy is replaced
        Files.write(library, new byte[] {1, 2, 3});
        mojo.execute();
        assertThat(library).hasBinaryContent(packaged);
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    void appendKeepsEarlierLogsAndFalseDeletesThem(PrepareAgentMojo mojo) throws Exception {
        wire(mojo);
        mojo.osName = "Linux";
        mojo.osArch = "x86_64";
        Path launchLog = Files.createDirectories(build.resolve("cuda-stack-budget")).resolve("launch.log");
        Files.writeString(launchLog, "# cuda-stack-budget launch log 1\n# status: ok\n");
        Files.writeString(Path.of(launchLog + ".libraries"), "# cuda-stack-budget library log 1\n");
        mojo.execute();
        assertThat(launchLog).exists();
        setVariableValueToObject(mojo, "append", false);
        mojo.execute();
        assertThat(launchLog).doesNotExist();
        assertThat(Path.of(launchLog + ".libraries")).doesNotExist();
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    void pathsWithSpacesAreQuotedInTheSnippet(PrepareAgentMojo mojo) throws Exception {
        MavenProject project = wire(mojo);
        mojo.osName = "Linux";
        mojo.osArch = "amd64";
        Path launchLog = build.resolve("my logs/it's.log");
        setVariableValueToObject(mojo, "launchLog", launchLog.toString());
        mojo.execute();
        assertThat(project.getProperties().getProperty("cudaStackBudget.agentEnv"))
                .contains(" CUDA_STACK_BUDGET_LAUNCH_LOG='" + build + "/my logs/it'\\''s.log' ");
        assertThat(launchLog.getParent()).isDirectory();
    }

    @Test
    @InjectMojo(goal = "prepare-agent", pom = POM)
    void blankLaunchLogKeepsTheDefaultPath(PrepareAgentMojo mojo) throws Exception {
        MavenProject project = wire(mojo);
        mojo.osName = "Linux";
        mojo.osArch = "amd64";
        setVariableValueToObject(mojo, "launchLog", "");
        mojo.execute();
        assertThat(project.getProperties()).containsEntry("cudaStackBudget.launchLog",
                build.resolve("cuda-stack-budget/launch.log").toString());
    }

    @Test
    void checkReadsTheLaunchLogFromTheProjectPropertyThatPrepareAgentSets() throws Exception {
        // the generated plugin descriptor: check's launchLog/libraryLog have no default and read the properties
        // prepare-agent sets (Maven evaluates ${...} against user, system, then project properties)
        String descriptor = Files.readString(Path.of("target/classes/META-INF/maven/plugin.xml"));
        assertThat(configuration(descriptor, "check")).contains(
                "<launchLog implementation=\"java.lang.String\">${cudaStackBudget.launchLog}</launchLog>",
                "<libraryLog implementation=\"java.lang.String\">${cudaStackBudget.libraryLog}</libraryLog>");
        String prepare = configuration(descriptor, "prepare-agent");
        assertThat(prepare).contains("<launchLog implementation=\"java.lang.String\" default-value=\""
                + "${project.build.directory}/cuda-stack-budget/launch.log\">${cudaStackBudget.launchLog}</launchLog>");
        assertThat(descriptor).contains("<goal>prepare-agent</goal>");
        Matcher phase = Pattern.compile("<goal>prepare-agent</goal>.*?<phase>([^<]+)</phase>", Pattern.DOTALL)
                .matcher(descriptor);
        assertThat(phase.find()).isTrue();
        assertThat(phase.group(1)).isEqualTo("initialize");
        assertThat(PropertyNames.LAUNCH_LOG).isEqualTo("cudaStackBudget.launchLog");
    }

    private static String configuration(String descriptor, String goal) {
        int start = descriptor.indexOf("<goal>" + goal + "</goal>");
        assertThat(start).isNotNegative();
        int from = descriptor.indexOf("<configuration>", start);
        return descriptor.substring(from, descriptor.indexOf("</configuration>", from));
    }
}
