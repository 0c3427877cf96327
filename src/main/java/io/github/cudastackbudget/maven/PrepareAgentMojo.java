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
import java.util.Properties;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

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
 * Pass them to Surefire/Failsafe with {@code <environmentVariables>} (see the README, "Launched mode"). Processes that
 * write to the same log merge their records at exit.
 */
@Mojo(name = "prepare-agent", defaultPhase = LifecyclePhase.INITIALIZE, threadSafe = true)
public class PrepareAgentMojo extends AbstractMojo {

    /** Project property: the extracted injection library. */
    public static final String AGENT_LIBRARY_PROPERTY = "cudaStackBudget.agentLibrary";
    /** Project property (and the check's user property): the kernel launch log. */
    public static final String LAUNCH_LOG_PROPERTY = "cudaStackBudget.launchLog";
    /** Project property (and the check's user property): the library log. */
    public static final String LIBRARY_LOG_PROPERTY = "cudaStackBudget.libraryLog";
    /** Project property: the environment as one shell snippet. */
    public static final String AGENT_ENV_PROPERTY = "cudaStackBudget.agentEnv";
    /** Project property: the environment as a file of export lines. */
    public static final String AGENT_ENV_FILE_PROPERTY = "cudaStackBudget.agentEnvFile";
    /** The file of export lines, in {@code agentDirectory}. */
    public static final String AGENT_ENV_FILE = "agent-env.sh";

    /** Skip: set the properties to empty strings (runs are not recorded; the check stays static). */
    @Parameter(property = "cudaStackBudget.skip", defaultValue = "false")
    private boolean skip;

    /** Where the injection library writes the kernel launch log. */
    @Parameter(property = LAUNCH_LOG_PROPERTY, defaultValue = "${project.build.directory}/cuda-stack-budget/launch.log")
    private String launchLog;

    /** Where the injection library writes the library log. Default: {@code <launchLog>.libraries}. */
    @Parameter(property = LIBRARY_LOG_PROPERTY)
    private String libraryLog;

    /**
     * Keep the logs of earlier runs, so that the records of this run are merged into them (JaCoCo's {@code append}).
     * {@code false} deletes them first, so the check sees this build's launches only.
     */
    @Parameter(property = "cudaStackBudget.append", defaultValue = "true")
    private boolean append;

    /** Where the injection library is extracted to. */
    @Parameter(defaultValue = "${project.build.directory}/cuda-stack-budget-agent", required = true)
    private File agentDirectory;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** The platform, overridable for tests. */
    String osName = System.getProperty("os.name");
    String osArch = System.getProperty("os.arch");
    AgentLibrary.Source source = AgentLibrary.packaged();

    @Override
    public void execute() throws MojoExecutionException {
        if (skip) {
            // like JaCoCo's argLine: empty values, so ${...} in <environmentVariables> resolve to nothing
            for (String property : List.of(AGENT_LIBRARY_PROPERTY, LAUNCH_LOG_PROPERTY, LIBRARY_LOG_PROPERTY,
                    AGENT_ENV_PROPERTY, AGENT_ENV_FILE_PROPERTY)) {
                project.getProperties().setProperty(property, "");
            }
            getLog().info("Skipping prepare-agent (skip is set): the " + AGENT_LIBRARY_PROPERTY + " and log properties "
                    + "are empty, so runs are not recorded and the check stays static.");
            return;
        }
        Path directory = agentDirectory.toPath().toAbsolutePath().normalize();
        Path library = directory.resolve(AgentLibrary.FILE_NAME);
        AgentLibrary.Extraction extraction;
        try {
            extraction = AgentLibrary.extract(source, directory, osName, osArch);
        } catch (AgentException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        // -DcudaStackBudget.launchLog= (empty: "check statically in this build") reaches this goal too: keep the default
        Path launch = launchLog == null || launchLog.isBlank()
                ? Path.of(project.getBuild().getDirectory(), "cuda-stack-budget", "launch.log").toAbsolutePath().normalize()
                : absolute(launchLog);
        if (Files.isDirectory(launch)) {
            throw new MojoExecutionException("launchLog " + launch + " is a directory: name a file, e.g. "
                    + launch.resolve("launch.log"));
        }
        Path libraries = libraryLog == null || libraryLog.isBlank()
                ? launch.resolveSibling(launch.getFileName() + CheckOptions.LIBRARY_LOG_SUFFIX) : absolute(libraryLog);
        Map<String, String> environment = AgentLibrary.environment(library, launch, libraries);
        Path envFile = directory.resolve(AGENT_ENV_FILE);
        try {
            Files.createDirectories(launch.getParent());
            Files.createDirectories(libraries.getParent());
            if (!append) {
                for (Path stale : List.of(launch, libraries)) {
                    if (Files.deleteIfExists(stale)) {
                        getLog().info("Deleted the log of an earlier run (append is false): " + stale);
                    }
                }
            }
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
        properties.setProperty(AGENT_LIBRARY_PROPERTY, library.toString());
        properties.setProperty(LAUNCH_LOG_PROPERTY, launch.toString());
        properties.setProperty(LIBRARY_LOG_PROPERTY, libraries.toString());
        properties.setProperty(AGENT_ENV_PROPERTY, AgentLibrary.shellSnippet(environment));
        properties.setProperty(AGENT_ENV_FILE_PROPERTY, envFile.toString());
        getLog().info("CUDA launch recorder " + (extraction == AgentLibrary.Extraction.WRITTEN ? "extracted to "
                : "up to date at ") + library);
        getLog().info("  " + AGENT_ENV_PROPERTY + " = " + properties.getProperty(AGENT_ENV_PROPERTY));
    }

    private Path absolute(String file) {
        Path path = Path.of(file.strip());
        if (!path.isAbsolute()) {
            path = project.getBasedir().toPath().resolve(path);
        }
        return path.toAbsolutePath().normalize();
    }
}
