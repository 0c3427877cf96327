package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * The template of the goals that are plain mojos (as JaCoCo's {@code AbstractJacocoMojo}): {@link #execute()} skips
 * with one log line naming the property that is set ({@value PropertyNames#SKIP} for every goal, or the goal's own
 * {@link #goalSkipProperty()}, e.g. {@value PropertyNames#CHECK_SKIP}), else runs {@link #executeMojo()} and turns the core's
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

    // agg (issue 12): module names in the log lines of a parallel build
    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    protected MavenSession session;

    /**
     * The goal's log: under a parallel build ({@code -T}) every line starts with {@code [artifactId] } (a
     * {@link ModuleLog}), so that the lines of modules built at once can be told apart; serial builds log unchanged.
     */
    @Override
    public Log getLog() {
        return ModuleLog.of(super.getLog(), session != null && session.isParallel(),
                project == null ? null : project.getArtifactId());
    }

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        String skippedBy = skippedBy(skip, goalSkip(), goalSkipProperty());
        if (skippedBy != null) {
            getLog().info(skipLine(subject(), skippedBy, skipped()));
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

    /**
     * The goal's own skip parameter ({@code skipCheck}, {@code skipPrepareAgent}, ...: a field of the goal with the
     * user property {@link #goalSkipProperty()}): {@code true} skips this goal only, where {@code skip} skips them all.
     */
    protected abstract boolean goalSkip();

    /** The user property of {@link #goalSkip()}: {@code cudaStackBudget.<goal>.skip} (a {@link PropertyNames} constant). */
    protected abstract String goalSkipProperty();

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

    /**
     * What skips the goal, as the skip line names it: {@value PropertyNames#SKIP}, the goal's own property, both
     * ({@code cudaStackBudget.skip and cudaStackBudget.check.skip}), or null when the goal runs.
     */
    static String skippedBy(boolean skip, boolean goalSkip, String goalSkipProperty) {
        if (skip && goalSkip) {
            return PropertyNames.SKIP + " and " + goalSkipProperty + " are";
        }
        return skip ? PropertyNames.SKIP + " is" : goalSkip ? goalSkipProperty + " is" : null;
    }

    /**
     * The one line a skipped goal logs: {@code Skipping the <subject>: <property> is set<consequence>.}
     *
     * @param skippedBy what {@link #skippedBy} returned
     */
    static String skipLine(String subject, String skippedBy, String consequence) {
        return "Skipping the " + subject + ": " + skippedBy + " set" + consequence + ".";
    }
}
