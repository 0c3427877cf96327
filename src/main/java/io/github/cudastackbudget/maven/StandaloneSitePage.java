package io.github.cudastackbudget.maven;

import java.lang.reflect.Field;
import java.util.Locale;
import org.apache.maven.doxia.siterenderer.Renderer;
import org.apache.maven.doxia.tools.SiteTool;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.reporting.AbstractMavenReport;
import org.apache.maven.reporting.MavenReportException;
import org.codehaus.plexus.PlexusContainer;
import org.codehaus.plexus.component.repository.exception.ComponentLookupException;
import org.codehaus.plexus.util.ReaderFactory;

/**
 * The standalone report page as maven-reporting-impl renders it (the site's skin, {@code outputDirectory}), for
 * {@link ReportMojo}, whose configured values it takes. Loaded only where AbstractMavenReport is on the class path:
 * the plugin realm that {@link SiteStack} sets up (or the tests' class path).
 */
final class StandaloneSitePage extends AbstractMavenReport {

    private final ReportMojo report;

    StandaloneSitePage(ReportMojo report) throws MojoExecutionException {
        this.report = report;
        outputDirectory = report.outputDirectory;
        project = report.project;
        mojoExecution = report.mojoExecution;
        reactorProjects = report.reactorProjects;
        repoSession = report.repoSession;
        remoteProjectRepositories = report.remoteProjectRepositories;
        siteDirectory = report.siteDirectory;
        locale = report.locale;
        outputTimestamp = report.outputTimestamp;
        outputFormat = report.outputFormat;
        PlexusContainer container = report.container();
        try {
            siteTool = container.lookup(SiteTool.class);
            siteRenderer = container.lookup(Renderer.class);
        } catch (ComponentLookupException e) {
            throw new MojoExecutionException("cannot find Doxia's site renderer for the standalone CUDA Stack Budget "
                    + "report: " + e.getMessage(), e);
        }
        try {
            // AbstractMavenReport looks up a SinkFactory for outputFormat through its private container
            Field field = AbstractMavenReport.class.getDeclaredField("container");
            field.setAccessible(true);
            field.set(this, container);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new MojoExecutionException("cannot prepare the standalone CUDA Stack Budget report: " + e, e);
        }
    }

    @Override
    public Log getLog() {
        return report.getLog();
    }

    @Override
    protected String getInputEncoding() {
        return report.inputEncoding() == null ? ReaderFactory.FILE_ENCODING : report.inputEncoding();
    }

    @Override
    protected String getOutputEncoding() {
        return report.outputEncoding() == null ? "UTF-8" : report.outputEncoding();
    }

    @Override
    public String getOutputName() {
        return report.getOutputName();
    }

    @Override
    public String getName(Locale locale) {
        return report.getName(locale);
    }

    @Override
    public String getDescription(Locale locale) {
        return report.getDescription(locale);
    }

    @Override
    public boolean canGenerateReport() {
        return report.canGenerateReport();
    }

    @Override
    protected void executeReport(Locale locale) throws MavenReportException {
        report.renderInto(getSink(), locale);
    }
}
