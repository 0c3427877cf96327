package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckException;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * The template of the goals that are plain mojos (as JaCoCo's {@code AbstractJacocoMojo}): {@link #execute()} skips
 * with one log line naming {@value PropertyNames#SKIP}, else runs {@link #executeMojo()} and turns the core's
 * {@link CheckException} (misuse, broken input) and defects into {@link MojoExecutionException}. A budget exceeded is
 * the goal's {@link MojoFailureException}. ({@code report} is an {@code AbstractMavenReport} and uses
 * {@link #skipLine} itself.)
 */
public abstract class AbstractStackBudgetMojo extends AbstractMojo {

    /**
     * Skip the goal: one log line says so. {@code prepare-agent} then sets its properties to empty strings (runs are
     * not recorded; the check stays static).
     */
    @Parameter(property = PropertyNames.SKIP, defaultValue = "false")
    private boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info(skipLine(subject(), skipped()));
            return;
        }
        try {
            executeMojo();
        } catch (CheckException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        } catch (RuntimeException e) {
            // a defect, not a user error: one line in the log; the trace stays available with -e
            throw new MojoExecutionException(subject() + " failed unexpectedly (" + e
                    + "); please report it with the build log", e);
        }
    }

    /**
     * The goal's work.
     *
     * @throws CheckException         misuse or broken input found by the core
     * @throws MojoExecutionException misuse found by the goal
     * @throws MojoFailureException   a budget exceeded
     */
    protected abstract void executeMojo() throws CheckException, MojoExecutionException, MojoFailureException;

    /** What the goal is, for log lines: {@code CUDA stack budget check}. */
    protected abstract String subject();

    /**
     * Called instead of {@link #executeMojo()} when the goal is skipped.
     *
     * @return what skipping means, appended to the skip line (e.g. {@code ", so ..."}), or an empty string
     */
    protected String skipped() {
        return "";
    }

    /** The one line a skipped goal logs: {@code Skipping the <subject>: cudaStackBudget.skip is set<consequence>.} */
    static String skipLine(String subject, String consequence) {
        return "Skipping the " + subject + ": " + PropertyNames.SKIP + " is set" + consequence + ".";
    }
}
