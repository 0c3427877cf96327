package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.text.Option;
import java.util.List;
import org.apache.maven.plugin.logging.Log;
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

    /**
     * Whether an identical earlier check's reports may be reused (the check-result cache, on with {@code useCache});
     * false for a goal that needs the whole result, not only the reports and lines.
     */
    protected boolean reusesResults() {
        return true;
    }

    /**
     * Runs the check the way {@code check} and {@code aggregate} both do: misuse always fails; a tool that cannot run
     * fails unless {@code failOnError} is false, then one WARN line and null (the reports carry the error).
     */
    protected final CheckRunner.Outcome runCheck(CheckOptions options, boolean failOnError) throws CheckException {
        try {
            return CheckRunner.run(options, MavenScanSupport.listener(getLog()), reusesResults());
        } catch (CheckRunner.InvalidOptions e) {
            throw e;
        } catch (CheckException e) {
            if (failOnError) {
                throw e;
            }
            getLog().warn("The " + subject() + " could not run: " + e.getMessage() + " (the build continues because "
                    + PropertyNames.FAIL_ON_ERROR + " is false; the reports say so)");
            return null;
        }
    }

    /**
     * Logs a finished check (its report lines, each violation as an error or, with {@code failOnViolation} false, a
     * warning, and the summary) and fails the build with the first violation when there is one.
     *
     * @param violations the violation lines as the goal words them (the aggregate names each kernel's module)
     * @param exceeded   the warning's opening when the build goes on ({@code CUDA stack budget exceeded})
     * @throws MojoFailureException a budget, rule or baseline exceeded, with {@code failOnViolation} true
     */
    protected final void judge(CheckRunner.Outcome outcome, List<String> violations, boolean failOnViolation,
            String exceeded) throws MojoFailureException {
        Log log = getLog();
        outcome.reportLines().forEach(log::info);
        for (String violation : violations) {
            if (failOnViolation) {
                log.error(violation);
            } else {
                log.warn(violation);
            }
        }
        outcome.summary().forEach(log::info);
        if (!outcome.failed()) {
            return;
        }
        String found = violations.get(0) + (violations.size() > 1 ? " (and " + (violations.size() - 1)
                + " more violation(s))" : "") + ". See " + outcome.reports().get(0);
        if (failOnViolation) {
            // a growth over the baseline is fixed by the limit or a newer baseline, not a budget
            boolean grew = outcome.grewOverBaseline();
            throw new MojoFailureException(found + "; raise the budget" + (grew ? " (for a growth over the baseline: "
                    + "maxGrowth, or accept it with a newer baseline)" : "") + ", shrink the kernel's frame, or set "
                    + MavenFrontend.INSTANCE.howToSet(Option.FAIL_ON_VIOLATION, "false") + " to only warn.");
        }
        log.warn(exceeded + ": " + found + ". The build continues because failOnViolation is false.");
    }
}
