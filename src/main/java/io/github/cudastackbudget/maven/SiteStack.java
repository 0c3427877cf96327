package io.github.cudastackbudget.maven;

import org.apache.maven.model.Dependency;
import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.InvalidPluginDescriptorException;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.PluginConfigurationException;
import org.apache.maven.plugin.PluginDescriptorParsingException;
import org.apache.maven.plugin.PluginManagerException;
import org.apache.maven.plugin.PluginNotFoundException;
import org.apache.maven.plugin.PluginResolutionException;
import org.apache.maven.plugin.descriptor.MojoDescriptor;
import org.apache.maven.plugin.descriptor.PluginDescriptor;

/**
 * The site stack of the standalone report page, supplied only where that page is rendered.
 *
 * <p>maven-reporting-impl (AbstractMavenReport) with Doxia's site renderer, the skin handling and Velocity is 27 jars
 * that every goal of the plugin would resolve, put in its class realm and scan for components, while only the
 * standalone {@code report} goal uses them (under {@code mvn site} the site plugin brings its own). So the POM has it
 * at {@code provided} scope, and the standalone goal runs itself once more, through Maven's
 * {@link org.apache.maven.plugin.BuildPluginManager}, as this plugin with maven-reporting-impl added as a plugin
 * dependency (what a {@code <plugin><dependencies>} entry in a POM does): Maven resolves it from the plugin
 * repositories, builds a separate plugin realm with it (the realm cache keys on the plugin's dependencies), discovers
 * its components and injects the goal's configuration. There, {@link StandaloneSitePage} renders the page.
 */
final class SiteStack {

    /** AbstractMavenReport's class, present only in the realm with the site stack (and on the test class path). */
    static final String ABSTRACT_MAVEN_REPORT = "org.apache.maven.reporting.AbstractMavenReport";

    static final String REPORTING_GROUP_ID = "org.apache.maven.reporting";

    static final String REPORTING_IMPL = "maven-reporting-impl";

    /** The version the plugin is built against: the POM's {@code reporting-impl.version} (a test keeps them equal). */
    static final String REPORTING_IMPL_VERSION = "4.0.0";

    private SiteStack() {
    }

    /** True when {@code loader} sees AbstractMavenReport (the realm with the site stack, or a test class path). */
    static boolean available(ClassLoader loader) {
        try {
            Class.forName(ABSTRACT_MAVEN_REPORT, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The standalone page: here when the site stack is at hand, else in the realm that has it. */
    static void renderStandalone(ReportMojo report) throws MojoExecutionException {
        if (available(ReportMojo.class.getClassLoader())) {
            new StandaloneSitePage(report).execute();
            return;
        }
        MojoExecution execution = report.mojoExecution;
        if (execution == null || execution.getMojoDescriptor() == null
                || execution.getMojoDescriptor().getPluginDescriptor() == null) {
            throw new MojoExecutionException("the standalone CUDA Stack Budget report needs " + REPORTING_GROUP_ID + ":"
                    + REPORTING_IMPL + ", which this class path lacks; run it through Maven");
        }
        PluginDescriptor running = execution.getMojoDescriptor().getPluginDescriptor();
        Plugin plugin = withSiteStack(running.getPlugin() != null ? running.getPlugin() : execution.getPlugin());
        try {
            PluginDescriptor withSite = report.buildPluginManager().loadPlugin(plugin,
                    report.project.getRemotePluginRepositories(), report.session().getRepositorySession());
            MojoDescriptor goal = withSite.getMojo(execution.getGoal());
            MojoExecution inner = new MojoExecution(goal, execution.getExecutionId(), execution.getSource());
            inner.setConfiguration(execution.getConfiguration());
            inner.setLifecyclePhase(execution.getLifecyclePhase());
            report.buildPluginManager().executeMojo(report.session(), inner);
        } catch (MojoFailureException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        } catch (PluginManagerException e) {
            if (e.getCause() instanceof MojoExecutionException cause) {
                throw cause;
            }
            throw new MojoExecutionException("cannot run the standalone CUDA Stack Budget report with " + plugin.getId()
                    + " and " + REPORTING_IMPL + " " + REPORTING_IMPL_VERSION + ": " + e.getMessage(), e);
        } catch (PluginResolutionException | PluginNotFoundException | PluginDescriptorParsingException
                | InvalidPluginDescriptorException
                | PluginConfigurationException e) {
            throw new MojoExecutionException("cannot run the standalone CUDA Stack Budget report with " + plugin.getId()
                    + " and " + REPORTING_IMPL + " " + REPORTING_IMPL_VERSION + ": " + e.getMessage(), e);
        }
    }

    /** A copy of {@code plugin} (with the POM's own plugin dependencies) plus maven-reporting-impl, unless named. */
    static Plugin withSiteStack(Plugin plugin) {
        Plugin copy = plugin.clone();
        boolean named = copy.getDependencies().stream().anyMatch(dependency ->
                REPORTING_GROUP_ID.equals(dependency.getGroupId()) && REPORTING_IMPL.equals(dependency.getArtifactId()));
        if (!named) {
            Dependency dependency = new Dependency();
            dependency.setGroupId(REPORTING_GROUP_ID);
            dependency.setArtifactId(REPORTING_IMPL);
            dependency.setVersion(REPORTING_IMPL_VERSION);
            copy.addDependency(dependency);
        }
        return copy;
    }
}
