package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.launch.AgentException;
import io.github.cudastackbudget.core.launch.AgentLibrary;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Launched mode: provides the CUPTI injection library that records the kernels a run launches, and the log paths, as
 * project properties for the test run (or any job) that follows, the way JaCoCo's prepare-agent provides its agent.
 *
 * <p>It extracts the library from the plugin jar to {@code ${project.build.directory}/cuda-stack-budget-agent/} (only
 * when it changed) and sets these project properties:
 * <ul>
 *   <li>{@code cudaStackBudget.agentLibrary}: the library's absolute path (for {@code CUDA_INJECTION64_PATH} and
 *       {@code NVTX_INJECTION64_PATH});</li>
 *   <li>{@code cudaStackBudget.launchLog}: the kernel launch log (for {@code CUDA_STACK_BUDGET_LAUNCH_LOG}); the
 *       {@code check} goal reads this property, so it judges the launched kernels without further configuration;</li>
 *   <li>{@code cudaStackBudget.libraryLog}: the library log (for {@code CUDA_STACK_BUDGET_LIBRARY_LOG});</li>
 *   <li>{@code cudaStackBudget.agentEnv}: the variables as one shell snippet, {@code CUDA_INJECTION64_PATH=...
 *       NVTX_INJECTION64_PATH=... CUDA_STACK_BUDGET_LAUNCH_LOG=... CUDA_STACK_BUDGET_LIBRARY_LOG=...};</li>
 *   <li>{@code cudaStackBudget.agentEnvFile}: a file with the same variables as {@code export} lines, for shell steps
 *       outside Maven ({@code . target/cuda-stack-budget-agent/agent-env.sh}).</li>
 * </ul>
 * Pass them to Surefire/Failsafe with {@code <environmentVariables>} (see the site's "Launched mode" page). Processes
 * that write to the same log merge their records at exit.
 */
@Mojo(name = "prepare-agent", defaultPhase = LifecyclePhase.INITIALIZE, threadSafe = true)
public class PrepareAgentMojo extends AbstractStackBudgetMojo {

    /** The file of export lines, in {@code agentDirectory}. */
    public static final String AGENT_ENV_FILE = "agent-env.sh";

    /** The project properties this goal sets. */
    static final List<String> PROPERTIES = List.of(PropertyNames.AGENT_LIBRARY, PropertyNames.LAUNCH_LOG,
            PropertyNames.LIBRARY_LOG, PropertyNames.AGENT_ENV, PropertyNames.AGENT_ENV_FILE);

    // conv (issue 12): the goal's own skip
    /**
     * Skip this goal only, as {@code skip} ({@value PropertyNames#SKIP}) skips every goal of the plugin: its
     * properties are then set to empty strings (runs are not recorded; the check stays static). From the command
     * line: {@code -DcudaStackBudget.prepareAgent.skip}.
     */
    @Parameter(property = PropertyNames.PREPARE_AGENT_SKIP, defaultValue = "false")
    private boolean skipPrepareAgent;

    /** Where the injection library writes the kernel launch log. */
    @Parameter(property = PropertyNames.LAUNCH_LOG, defaultValue = "${project.build.directory}/cuda-stack-budget/launch.log")
    private String launchLog;

    /** Where the injection library writes the library log. Default: {@code <launchLog>.libraries}. */
    @Parameter(property = PropertyNames.LIBRARY_LOG)
    private String libraryLog;

    /**
     * Keep the logs of earlier runs, so that the records of this run are merged into them (JaCoCo's {@code append}).
     * {@code false} deletes them first, so the check sees this build's launches only.
     */
    @Parameter(property = PropertyNames.APPEND, defaultValue = "true")
    private boolean append;

    /** Where the injection library is extracted to ({@code -DcudaStackBudget.agentDirectory}). */
    @Parameter(property = PropertyNames.AGENT_DIRECTORY, defaultValue = "${project.build.directory}/cuda-stack-budget-agent", required = true)
    private File agentDirectory;

    /** The platform, overridable for tests. */
    String osName = System.getProperty("os.name");
    String osArch = System.getProperty("os.arch");
    AgentLibrary.Source source = AgentLibrary.packaged();

    @Override
    protected String subject() {
        return "CUDA launch recorder (prepare-agent)";
    }

    @Override
    protected boolean goalSkip() {
        return skipPrepareAgent;
    }

    @Override
    protected String goalSkipProperty() {
        return PropertyNames.PREPARE_AGENT_SKIP;
    }

    /** Like JaCoCo's argLine: empty values, so that ${...} in {@code <environmentVariables>} resolve to nothing. */
    @Override
    protected String skipped() {
        PROPERTIES.forEach(property -> project.getProperties().setProperty(property, ""));
        return ", so the " + PropertyNames.AGENT_LIBRARY + " and log properties are empty: runs are not recorded and "
                + "the check stays static";
    }

    @Override
    protected void executeMojo() throws MojoExecutionException {
        Path directory = agentDirectory.toPath().toAbsolutePath().normalize();
        Path library = directory.resolve(AgentLibrary.FILE_NAME);
        AgentLibrary.Extraction extraction;
        try {
            extraction = AgentLibrary.extract(source, directory, osName, osArch, MavenFrontend.INSTANCE);
        } catch (AgentException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        // -DcudaStackBudget.launchLog= (empty: "check statically in this build") reaches this goal too: keep the default
        Path launch = Objects.requireNonNullElse(MavenScanSupport.resolve(project, launchLog), Path.of(
                project.getBuild().getDirectory(), "cuda-stack-budget", "launch.log").toAbsolutePath().normalize());
        if (Files.isDirectory(launch)) {
            throw new MojoExecutionException("launchLog " + launch + " is a directory: name a file, e.g. "
                    + launch.resolve("launch.log"));
        }
        Path libraries = Objects.requireNonNullElse(MavenScanSupport.resolve(project, libraryLog),
                launch.resolveSibling(launch.getFileName() + CheckOptions.LIBRARY_LOG_SUFFIX));
        Map<String, String> environment = AgentLibrary.environment(library, launch, libraries);
        Path envFile = directory.resolve(AGENT_ENV_FILE);
        try {
            prepareLogs(launch, libraries);
            List<String> exports = new ArrayList<>();
            exports.add("# written by cuda-stack-budget:prepare-agent: . this file, then run the job");
            environment.forEach((name, value) -> exports.add("export " + name + "="
                    + AgentLibrary.shellSnippet(Map.of(name, value)).substring(name.length() + 1)));
            Files.write(envFile, exports, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot prepare the launch log directory " + launch.getParent() + " or "
                    + envFile + ": " + e.getMessage(), e);
        }
        Properties properties = project.getProperties();
        properties.setProperty(PropertyNames.AGENT_LIBRARY, library.toString());
        properties.setProperty(PropertyNames.LAUNCH_LOG, launch.toString());
        properties.setProperty(PropertyNames.LIBRARY_LOG, libraries.toString());
        properties.setProperty(PropertyNames.AGENT_ENV, AgentLibrary.shellSnippet(environment));
        properties.setProperty(PropertyNames.AGENT_ENV_FILE, envFile.toString());
        getLog().info("CUDA launch recorder " + (extraction == AgentLibrary.Extraction.WRITTEN ? "extracted to "
                : "up to date at ") + library);
        getLog().info("  " + PropertyNames.AGENT_ENV + " = " + properties.getProperty(PropertyNames.AGENT_ENV));
    }

    /** Creates the logs' directories; deletes the logs of earlier runs unless {@code append}. */
    private void prepareLogs(Path launch, Path libraries) throws IOException {
        Files.createDirectories(launch.getParent());
        Files.createDirectories(libraries.getParent());
        if (!append) {
            for (Path stale : List.of(launch, libraries)) {
                if (Files.deleteIfExists(stale)) {
                    getLog().info("Deleted the log of an earlier run (append is false): " + stale);
                }
            }
        }
    }
}
