package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.report.OutputOptions;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.doxia.sink.SinkFactory;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.FileSet;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.BuildPluginManager;
import org.apache.maven.plugin.LegacySupport;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.apache.maven.reporting.MavenMultiPageReport;
import org.apache.maven.reporting.MavenReportException;
import org.codehaus.plexus.PlexusContainer;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.repository.RemoteRepository;

/**
 * The "CUDA Stack Budget" page of the Maven site ({@code cuda-stack-budget.html}): per-device reservations, budgets
 * and verdicts, a bar chart, the worst kernels per device, the libraries, and the functions a device would JIT or
 * cannot run. Standalone ({@code mvn cuda-stack-budget:report}) the page goes to {@code target/reports/}.
 *
 * <p>Data: the JSON report that {@code check} wrote ({@code jsonReport}) when it is up to date, that is, not older
 * than any file the configured {@code libraries}/{@code libraryFiles} match, than the configured launch logs and than
 * the POM, with every library it lists still present; otherwise this goal scans with its own configuration (the same
 * parameters as {@code check}, launch logs included) and writes the JSON and text reports into {@code jsonReport}'s
 * directory. A budget that is exceeded
 * never fails the site: the page shows the verdict. Misuse (a bad size, an unknown engine, no cuobjdump where device
 * code exists) fails the goal with one line.
 *
 * <p>Platforms: the libraries table names each library's platform ({@code linux-x86_64}, {@code windows-x86_64},
 * {@code unknown} for a bare cubin), marked "not gated" when {@code platforms} leaves it out; where the libraries name
 * several platforms each device lists per platform its worst reservation, kernel and library (the JSON's
 * {@code platforms}, see {@code check}). As with the budgets, a {@code platforms} given on the command line to this
 * goal alone does not make an up-to-date JSON stale: the page shows what {@code check} judged.
 *
 * <p>Needs maven-site-plugin 3.20.0 or newer (Doxia 2); with an older one the goal stops with a line saying what to
 * pin.
 *
 * @since 2.0
 */
/*
 * (Not in the goal's description: the descriptor and help stay as they were.)
 * Class path (issue 11, "the goal pays only for what it uses"): the site stack (maven-reporting-impl, Doxia's site
 * renderer and skins, Velocity) is not a runtime dependency of the plugin, so that check and
 * prepare-agent do not resolve and load it. This class is a plain MavenMultiPageReport (reporting-api
 * and the Doxia sink API, two small jars): under mvn site the site plugin calls #generate with its own
 * Doxia 2 sink (its class realm supplies those packages); run standalone, #execute() renders the page through
 * StandaloneSitePage, an AbstractMavenReport that SiteStack runs in a class realm of this
 * plugin with maven-reporting-impl added as a plugin dependency.
 * (@since 2.0 above is AbstractMavenReport's, which the descriptor showed when this class extended it.)
 */
@Mojo(name = "report", threadSafe = true, requiresDependencyResolution = ResolutionScope.TEST)
public class ReportMojo extends AbstractMojo implements MavenMultiPageReport {

    private static final String SUBJECT = "CUDA Stack Budget report";

    /** Skip the report (the site then has no CUDA Stack Budget page). */
    @Parameter(property = PropertyNames.SKIP, defaultValue = "false")
    private boolean skip;

    // conv (issue 12): the goal's own skip
    /**
     * Skip this goal only, as {@code skip} ({@value PropertyNames#SKIP}) skips every goal of the plugin: the site then
     * has no CUDA Stack Budget page, and one log line names the property. From the command line:
     * {@code -DcudaStackBudget.report.skip}.
     */
    @Parameter(property = PropertyNames.REPORT_SKIP, defaultValue = "false")
    private boolean skipReport;

    /**
     * The JSON report of {@code check}, rendered when up to date. When this goal scans itself, it writes its
     * reports into this file's directory.
     */
    @Parameter(property = PropertyNames.JSON_REPORT,
            defaultValue = "${project.build.directory}/cuda-stack-budget/cuda-stack-budget.json", required = true)
    private File jsonReport;

    /**
     * Where the figures come from: {@code auto} (the JSON of {@code check} when up to date, else a scan),
     * {@code json} (always the JSON, with a warning when it is stale; fails when it is missing) or {@code scan}
     * (always scan).
     */
    @Parameter(property = PropertyNames.REPORT_SOURCE, defaultValue = "auto")
    private String reportSource;

    /** Worst kernels listed per device (0 = every kernel with a stack frame). */
    @Parameter(property = PropertyNames.TOP, defaultValue = MavenScanSupport.DEFAULT_TOP)
    private int top;

    /**
     * What to scan, as in {@code check} (default: the build directory, {@code **}/{@code *.so} and friends). No user
     * property (file sets); {@code -DcudaStackBudget.libraryFiles} on the command line.
     */
    @Parameter
    private List<FileSet> libraries;

    /** Files to scan, named one by one, as in {@code check} (comma-separated on the command line). */
    @Parameter(property = PropertyNames.LIBRARY_FILES)
    private List<File> libraryFiles;

    /** The cuobjdump executable, as in {@code check}. */
    @Parameter(property = PropertyNames.CUOBJDUMP)
    private String cuobjdump;

    /** How kernels are read, as in {@code check}. */
    @Parameter(property = PropertyNames.ENGINE, defaultValue = MavenScanSupport.DEFAULT_ENGINE)
    private String engine;

    /**
     * Look into the project's own JAR (when it has been built, i.e. from the {@code package} phase on) for native
     * libraries matching {@code jarIncludes}, read in place by the native reader. Labels read
     * {@code app-1.0.jar!/native/libx.so}.
     */
    @Parameter(property = PropertyNames.SCAN_PROJECT_JAR, defaultValue = MavenScanSupport.DEFAULT_SCAN_PROJECT_JAR)
    private boolean scanProjectJar;

    /**
     * Also look into the project's dependency JARs of {@code dependencyScopes} (e.g. a JavaCPP or RAPIDS artifact that
     * ships CUDA libraries); each library is attributed to its artifact in the "used by" listing.
     */
    @Parameter(property = PropertyNames.SCAN_DEPENDENCIES, defaultValue = MavenScanSupport.DEFAULT_SCAN_DEPENDENCIES)
    private boolean scanDependencies;

    /** The dependency scopes {@code scanDependencies} covers, comma-separated. */
    @Parameter(property = PropertyNames.DEPENDENCY_SCOPES, defaultValue = MavenScanSupport.DEFAULT_DEPENDENCY_SCOPES)
    private String dependencyScopes;

    /**
     * JAR entry patterns that count as libraries (default: the same patterns as {@code libraries}); comma-separated on
     * the command line.
     */
    @Parameter(property = PropertyNames.JAR_INCLUDES)
    private List<String> jarIncludes;

    /** JAR entry patterns to leave out; comma-separated on the command line. */
    @Parameter(property = PropertyNames.JAR_EXCLUDES)
    private List<String> jarExcludes;

    /** Target GPUs, as in {@code check} (no user property: beans; use {@code devicePresets} on the command line). */
    @Parameter
    private List<Device> devices;

    /**
     * Comma-separated catalog ids, as in {@code check} ({@code -DcudaStackBudget.devicePresets}; the old
     * {@code cudaStackBudget.devices} still works, with a warning).
     */
    @Parameter(property = PropertyNames.DEVICE_PRESETS)
    private String devicePresets;

    /**
     * Deprecated: the old user property of {@code devicePresets}; use {@code -DcudaStackBudget.devicePresets}.
     * {@code -DcudaStackBudget.devices=h200-141gb} still works, with one warning; {@code devicePresets} comes first
     * when both are set. (Not marked {@code @Deprecated}: Maven 3.9 would add a second warning, Maven 3.8 none.)
     */
    @Parameter(property = PropertyNames.DEPRECATED_DEVICE_PRESETS)
    private String devicesProperty;

    /** With no devices configured, look for local GPUs first, as in {@code check}. */
    @Parameter(property = PropertyNames.DETECT_LOCAL_DEVICES,
            defaultValue = MavenScanSupport.DEFAULT_DETECT_LOCAL_DEVICES)
    private boolean detectLocalDevices;

    /**
     * The platforms whose libraries are judged against the budgets: a comma-separated list of platform names as the
     * reports spell them ({@code linux-x86_64}, {@code linux-aarch64}, {@code windows-x86_64}) or bare operating
     * systems ({@code linux}, {@code windows}, {@code mac}) for every processor of that system. Empty (the default):
     * every platform. Libraries of other platforms are still read and listed in the reports, marked as not gated
     * (one INFO line names how many and their platforms). A bare cubin names no host (platform {@code unknown}) and
     * is always gated; leave such a file out through the file patterns instead. Where libraries of more than one
     * platform are read, the reports show per device each platform's worst reservation, kernel and library.
     */
    @Parameter(property = PropertyNames.PLATFORMS)
    private String platforms;

    /**
     * Device code that cannot be read (a file with ELF, ar or fatbin structure the readers refuse, or fatbin magic
     * where no reader finds it) fails the build with one line naming the file, the offset and the problem. With
     * {@code false} it is a warning, and the report lists the file as unreadable.
     */
    @Parameter(property = PropertyNames.FAIL_ON_UNREADABLE,
            defaultValue = MavenScanSupport.DEFAULT_FAIL_ON_UNREADABLE)
    private boolean failOnUnreadable;

    /** Budget for every device without its own, as in {@code check}. */
    @Parameter(property = PropertyNames.MAX_RESERVATION)
    private String maxReservation;

    /** Largest allowed stack frame per thread, as in {@code check}. */
    @Parameter(property = PropertyNames.MAX_STACK_PER_THREAD)
    private String maxStackPerThread;

    /**
     * Launched mode, as in {@code check}: the kernel launch log of a recorded run; this goal's own scan then judges the
     * kernels that run launched. Blank: the static check.
     */
    @Parameter(property = PropertyNames.LAUNCH_LOG)
    private String launchLog;

    /** Launched mode, as in {@code check}: the library log of that run (default: {@code <launchLog>.libraries}). */
    @Parameter(property = PropertyNames.LIBRARY_LOG)
    private String libraryLog;

    /** Time limit in seconds for cuobjdump on one file. */
    @Parameter(property = PropertyNames.TIMEOUT, defaultValue = MavenScanSupport.DEFAULT_TIMEOUT)
    private int timeout;

    /** Files read at once (0 = number of processors, at most 8). */
    @Parameter(property = PropertyNames.PARALLELISM, defaultValue = MavenScanSupport.DEFAULT_PARALLELISM)
    private int parallelism;

    /**
     * The kernel cache's directory. Each library's read (kernel records, library labels, SASS and PTX targets, PTX
     * kernel names, platform) is stored there, keyed by the file's size and SHA-256, its name and the engine's version
     * (the native reader's and the plugin's; cuobjdump's {@code --version}), and served while the bytes are the same:
     * a re-check of unchanged libraries skips reading them. Default:
     * {@code $XDG_CACHE_HOME/cuda-stack-budget}, else {@code ~/.cache/cuda-stack-budget} (Linux, macOS);
     * {@code %LOCALAPPDATA%\cuda-stack-budget\cache} (Windows). Builds and modules may share it; delete the directory
     * to clear it. A directory that cannot be written is a warning, never a failure.
     */
    @Parameter(property = PropertyNames.CACHE_DIRECTORY)
    private File cacheDirectory;

    /** Serve unchanged libraries' reads from the kernel cache and store new ones; {@code false} reads every library. */
    @Parameter(property = PropertyNames.USE_CACHE, defaultValue = MavenScanSupport.DEFAULT_USE_CACHE)
    private boolean useCache;

    /**
     * How the frames of functions a device would JIT-compile from PTX (no embedded SASS runs on it, e.g. an sm_120
     * device and a library with sm_90 SASS and compute_90 PTX) are computed: {@code off} (the default: they are listed
     * as "frame unknown at build time", a device that runs nothing else is skipped, and one log line names this
     * parameter), or {@code ptxas}: the PTX the driver would choose is compiled with {@code ptxas -arch=sm_XX -v} for
     * each such device, only the modules holding functions a configured device needs, on all cores, with
     * {@code timeout} per module and the results in the kernel cache; the device then gets a figure and a verdict,
     * each such frame labelled "JIT" with the ptxas version in every report. See the JIT frames page.
     */
    @Parameter(property = PropertyNames.JIT_FRAMES, defaultValue = MavenScanSupport.DEFAULT_JIT_FRAMES)
    private String jitFrames;

    /**
     * The ptxas executable for {@code jitFrames} {@code ptxas}. Default: found on the {@code PATH}, then in
     * {@code $CUDA_HOME/bin}, {@code $CUDA_PATH/bin} and {@code /usr/local/cuda/bin}.
     */
    @Parameter(property = PropertyNames.PTXAS)
    private String ptxas;

    /**
     * The CUDA version of the driver the code will run under ({@code 12.8}, {@code 13.0}): the driver JIT-compiles
     * PTX with its own compiler, so JIT frames computed by a ptxas of another release get a warning. Not set: no
     * comparison.
     */
    @Parameter(property = PropertyNames.DRIVER_CUDA_VERSION)
    private String driverCudaVersion;

    // AbstractMavenReport's parameters (maven-reporting-impl 4.0.0), declared here with its annotations and words:
    // the report's descriptor and help stay as they were when this class extended it (StandaloneSitePage gets them)

    /**
     * The shared output directory for the report. Note that this parameter is only evaluated
     * if the goal is run directly from the command line. If the goal is run indirectly as part of a site generation,
     * the shared output directory configured in the
     * <a href="https://maven.apache.org/plugins/maven-site-plugin/site-mojo.html#outputDirectory">Maven Site Plugin</a>
     * is used instead.
     *<p>
     * A plugin may use any subdirectory structure (either using a hard-coded name or, ideally, an additional
     * user-defined mojo parameter with a default value) to generate multi-page reports or external reports with the
     * main output file (entry point) denoted by {@code #getOutputName()}.
     */
    @Parameter(defaultValue = "${project.build.directory}/reports", required = true)
    protected File outputDirectory;

    /**
     * The Maven Project.
     */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    /**
     * The mojo execution
     */
    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    protected MojoExecution mojoExecution;

    /**
     * The reactor projects.
     */
    @Parameter(defaultValue = "${reactorProjects}", required = true, readonly = true)
    protected List<MavenProject> reactorProjects;

    /**
     * Specifies the input encoding.
     */
    @Parameter(property = "encoding", defaultValue = "${project.build.sourceEncoding}", readonly = true)
    private String inputEncoding;

    /**
     * Specifies the output encoding.
     */
    @Parameter(property = "outputEncoding", defaultValue = "${project.reporting.outputEncoding}", readonly = true)
    private String outputEncoding;

    /**
     * The repository system session.
     */
    @Parameter(defaultValue = "${repositorySystemSession}", readonly = true, required = true)
    protected RepositorySystemSession repoSession;

    /**
     * Remote project repositories used for the project.
     */
    @Parameter(defaultValue = "${project.remoteProjectRepositories}", readonly = true, required = true)
    protected List<RemoteRepository> remoteProjectRepositories;

    /**
     * Directory containing the <code>site.xml</code> file.
     */
    @Parameter(defaultValue = "${basedir}/src/site")
    protected File siteDirectory;

    /**
     * The locale to use  when the report generation is invoked directly as a standalone Mojo.
     *
     * @see org.apache.maven.doxia.tools.SiteTool#DEFAULT_LOCALE
     * @see org.apache.maven.doxia.tools.SiteTool#getSiteLocales(String)
     */
    @Parameter(defaultValue = "default")
    protected String locale;

    /**
     * Timestamp for reproducible output archive entries, either formatted as ISO 8601
     * <code>yyyy-MM-dd'T'HH:mm:ssXXX</code> or as an int representing seconds since the epoch (like
     * <a href="https://reproducible-builds.org/docs/source-date-epoch/">SOURCE_DATE_EPOCH</a>).
     */
    @Parameter(defaultValue = "${project.build.outputTimestamp}")
    protected String outputTimestamp;

    /**
     * The report output format: null by default, to represent a site, but can be configured to a Doxia Sink id.
     */
    @Parameter(property = "output.format")
    protected String outputFormat;

    /** The session, for running the standalone page in the class realm with the site stack (no new parameter). */
    @Component
    private LegacySupport legacySupport;

    @Component
    private BuildPluginManager buildPluginManager;

    @Component
    private PlexusContainer container;

    /** The current sink (from the site plugin, or the standalone page's). */
    private Sink sink;

    /** The current shared report output directory to use. */
    private File reportOutputDirectory;

    /** Set once the skip line is logged: the site plugin and AbstractMavenReport may each ask. */
    private boolean skipLogged;

    /**
     * Run standalone ({@code mvn cuda-stack-budget:report}): the page with the site's skin in
     * {@code outputDirectory}, as {@code AbstractMavenReport.execute()} renders it. A skipped goal logs its one line
     * and loads nothing more.
     */
    @Override
    public void execute() throws MojoExecutionException {
        if (!canGenerateReport()) {
            return;
        }
        SiteStack.renderStandalone(this);
    }

    /** Called by the site plugin: the page into its sink. */
    @Override
    public void generate(Sink sink, SinkFactory sinkFactory, Locale locale) throws MavenReportException {
        this.sink = sink;
        executeReport(locale);
        if (sink != null) {
            sink.close();
        }
    }

    @Override
    @Deprecated
    public void generate(Sink sink, Locale locale) throws MavenReportException {
        generate(sink, null, locale);
    }

    /** The standalone page's content into its sink (StandaloneSitePage; the page closes the sink). */
    void renderInto(Sink sink, Locale locale) throws MavenReportException {
        this.sink = sink;
        executeReport(locale);
    }

    /** The sink {@link #generate} was given. */
    Sink getSink() {
        return sink;
    }

    @Override
    public String getCategoryName() {
        return CATEGORY_PROJECT_REPORTS;
    }

    @Override
    public File getReportOutputDirectory() {
        if (reportOutputDirectory == null) {
            reportOutputDirectory = new File(outputDirectory.getAbsolutePath());
        }
        return reportOutputDirectory;
    }

    @Override
    public void setReportOutputDirectory(File reportOutputDirectory) {
        this.reportOutputDirectory = reportOutputDirectory;
        this.outputDirectory = reportOutputDirectory;
    }

    @Override
    public boolean isExternalReport() {
        return false;
    }

    // what StandaloneSitePage copies into AbstractMavenReport's fields
    String inputEncoding() {
        return inputEncoding;
    }

    String outputEncoding() {
        return outputEncoding;
    }

    MavenSession session() {
        return legacySupport.getSession();
    }

    BuildPluginManager buildPluginManager() {
        return buildPluginManager;
    }

    PlexusContainer container() {
        return container;
    }

    @Override
    public String getOutputName() {
        return "cuda-stack-budget";
    }

    @Override
    public String getName(Locale locale) {
        return SiteReportRenderer.TITLE;
    }

    @Override
    public String getDescription(Locale locale) {
        return "Device memory the CUDA driver reserves for thread stacks on each target GPU, against its budget, and "
                + "the kernels and libraries that cause it.";
    }

    @Override
    public boolean canGenerateReport() {
        String skippedBy = AbstractStackBudgetMojo.skippedBy(skip, skipReport, PropertyNames.REPORT_SKIP);
        if (skippedBy != null && !skipLogged) {
            skipLogged = true;
            getLog().info(AbstractStackBudgetMojo.skipLine(SUBJECT, skippedBy, ""));
        }
        return skippedBy == null;
    }

    /**
     * The log; when the goal is skipped, without the line {@code Skipping <plugin>:report report goal} that
     * {@code AbstractMavenReport.execute()} (final) logs after {@link #canGenerateReport()}'s own line, which names
     * the property: a skipped goal says so once.
     */
    @Override
    public Log getLog() {
        Log log = super.getLog();
        if (!skip && !skipReport) {
            return log;
        }
        return (Log) Proxy.newProxyInstance(Log.class.getClassLoader(), new Class<?>[] {Log.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("info") && args != null && args.length == 1
                            && args[0] instanceof CharSequence line && line.toString().startsWith("Skipping ")
                            && line.toString().endsWith(":report report goal")) {
                        return null;
                    }
                    try {
                        return method.invoke(log, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The page into {@link #getSink()}. */
    void executeReport(Locale locale) throws MavenReportException {
        Optional<String> siteVersion = SitePluginCompatibility.sitePluginVersion(project);
        if (!SitePluginCompatibility.isDoxia2(Sink.class)) {
            throw new MavenReportException(SitePluginCompatibility.message(siteVersion));
        }
        if (siteVersion.isPresent() && SitePluginCompatibility.isTooOld(siteVersion.get())) {
            // standalone run (our own Doxia 2 renderer): this page works, but `mvn site` will not show it
            getLog().warn("`mvn site` would not show this page: " + SitePluginCompatibility.message(siteVersion));
        }
        ReportData data = load();
        new SiteReportRenderer(getSink(), data.model(), top, data.source()).render();
    }

    /** The model and one sentence saying where it came from. */
    record ReportData(ReportModel model, String source) {
    }

    ReportData load() throws MavenReportException {
        Log log = getLog();
        ReportSource mode = ReportSource.parse(reportSource);
        CheckOptions options;
        try {
            options = options();
            // misuse fails the goal even when an up-to-date JSON makes the scan unnecessary
            CheckRunner.validate(options);
        } catch (MojoExecutionException | CheckException e) {
            throw new MavenReportException(e.getMessage(), e);
        }
        if (mode == ReportSource.SCAN) {
            return scan(options, "reportSource is scan");
        }
        Path json = jsonReport.toPath();
        JsonFreshness.Decision decision;
        try {
            decision = JsonFreshness.decide(json, options.fileSets(), inputFiles(options),
                    project.getFile() == null ? null : project.getFile().toPath());
        } catch (IOException e) {
            throw new MavenReportException("cannot compare the times of " + json + " and its inputs: "
                    + e.getMessage(), e);
        }
        if (mode == ReportSource.AUTO && !decision.upToDate()) {
            return scan(options, decision.reason());
        }
        ReportModel model;
        try {
            model = ReportModel.read(json);
        } catch (IOException e) {
            if (mode == ReportSource.JSON) {
                throw new MavenReportException(e.getMessage(), e);
            }
            log.warn("Cannot render the JSON report: " + e.getMessage());
            return scan(options, json.getFileName() + " cannot be read");
        }
        List<String> missing = JsonFreshness.missingLibraries(project.getBasedir() == null ? null
                : project.getBasedir().toPath(), model.libraries().stream().map(LibraryReport::path).toList());
        if (mode == ReportSource.AUTO && !missing.isEmpty()) {
            return scan(options, json.getFileName() + " lists libraries that no longer exist: "
                    + String.join(", ", missing));
        }
        if (!decision.upToDate()) {
            log.warn("Rendering " + json + " although it is stale (reportSource=json): " + decision.reason());
        }
        log.info("CUDA Stack Budget report from " + json + ": " + decision.reason());
        return new ReportData(model, "Figures from " + json.getFileName() + ", written by the check goal.");
    }

    /** What the JSON must not be older than, besides the file sets: the named files and the launch logs. */
    private static List<Path> inputFiles(CheckOptions options) {
        List<Path> files = new ArrayList<>(options.libraryFiles());
        if (options.launchLog() != null) {
            files.add(options.launchLog());
            files.add(options.effectiveLibraryLog());
        }
        return files;
    }

    private ReportData scan(CheckOptions options, String reason) throws MavenReportException {
        getLog().info("Scanning for the CUDA Stack Budget report: " + reason);
        CheckRunner.Outcome outcome;
        try {
            outcome = CheckRunner.run(options, MavenScanSupport.listener(getLog()));
        } catch (CheckException e) {
            throw new MavenReportException(e.getMessage(), e);
        }
        outcome.violations().forEach(getLog()::warn);
        Path written = outcome.reports().stream()
                .filter(path -> path.getFileName().toString().equals(CheckRunner.JSON_REPORT)).findFirst()
                .orElseThrow(() -> new MavenReportException("the scan wrote no " + CheckRunner.JSON_REPORT));
        try {
            return new ReportData(ReportModel.read(written),
                    "Figures from the report goal's own scan (" + reason + ").");
        } catch (IOException e) {
            throw new MavenReportException(e.getMessage(), e);
        }
    }

    /** The core's options of this goal's own scan: reports into {@code jsonReport}'s directory, no verbose listing. */
    CheckOptions options() throws MojoExecutionException {
        return new MavenScanSupport(project, getLog()::debug).options(new MavenScanSupport.Parameters(libraries,
                libraryFiles, cuobjdump, engine, scanProjectJar, scanDependencies, dependencyScopes, jarIncludes,
                jarExcludes, devices, MavenScanSupport.devicePresets(devicePresets, devicesProperty, getLog()),
                detectLocalDevices, maxReservation, maxStackPerThread, launchLog,
                libraryLog, timeout, parallelism, top, failOnUnreadable, platforms), cacheDirectory, useCache, jsonReport.getAbsoluteFile().getParentFile().toPath(), false)
                .toBuilder().jitFrames(jitFrames).ptxas(ptxas).driverCudaVersion(driverCudaVersion)
                // out (issue 12): the default reports, paths relative to the project as check writes them
                .output(OutputOptions.of(null, project.getBasedir() == null ? null : project.getBasedir().toPath()))
                .build();
    }

    /** The {@code reportSource} values. */
    enum ReportSource {
        AUTO, JSON, SCAN;

        static ReportSource parse(String value) throws MavenReportException {
            String text = value == null ? "auto" : value.strip().toLowerCase(Locale.ROOT);
            for (ReportSource source : values()) {
                if (source.name().toLowerCase(Locale.ROOT).equals(text)) {
                    return source;
                }
            }
            throw new MavenReportException("reportSource '" + value + "' is unknown: use auto, json or scan ("
                    + PropertyNames.REPORT_SOURCE + ")");
        }
    }
}
