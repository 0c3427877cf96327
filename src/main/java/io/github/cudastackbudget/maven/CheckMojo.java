package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.CheckException;
import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.CheckRunner;
import io.github.cudastackbudget.core.baseline.BaselineOptions;
import io.github.cudastackbudget.core.gate.GateOptions;
import io.github.cudastackbudget.core.report.OutputOptions;
import java.io.File;
import java.util.List;
import org.apache.maven.model.FileSet;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProjectHelper;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.repository.RemoteRepository;

/**
 * Checks the CUDA libraries a build produces against per-device stack-reservation budgets.
 *
 * <p>When a kernel with a per-thread stack frame of S bytes launches, the CUDA driver raises the context's stack limit
 * to S (rounded up to 16 B; the default is 1024 B) and keeps {@code S x maxResidentThreads} bytes of device memory
 * reserved until the process ends (maxResidentThreads = SM count x resident threads per SM: 270,336 on an H200). This
 * goal reads every kernel's frame from the built libraries (and from JARs that carry them) with the plugin's own
 * reader, no CUDA toolkit needed (with {@code engine} {@code auto}, NVIDIA's {@code cuobjdump} reads a file whose
 * layout that reader does not know; {@code engine} {@code cuobjdump} uses it for every file), chooses the SASS image
 * each target GPU would run by NVIDIA's compatibility rules, and fails the build when a device's worst-case
 * reservation exceeds its budget or a kernel's frame exceeds {@code maxStackPerThread}. With the {@code launchLog} of
 * a recorded run it judges the kernels that run launched.
 *
 * <p>Reports, written before the verdict in {@code outputDirectory}: by default {@code cuda-stack-budget.json},
 * {@code cuda-stack-budget.txt} and {@code cuda-stack-budget.html} (a standalone page that needs no network); with
 * {@code formats} also {@code cuda-stack-budget.md}, {@code TEST-cuda-stack-budget.xml} (JUnit) and
 * {@code cuda-stack-budget.sarif}. A check that cannot run writes them with its error.
 *
 * <p>Platforms: each library's platform is reported ({@code linux-x86_64}, {@code linux-aarch64},
 * {@code windows-x86_64}: the operating system from the fatbin's host flags, the processor from the ELF or PE header;
 * {@code linux} or {@code windows} for a bare {@code .fatbin}; {@code unknown} for a bare {@code .cubin}): JSON key
 * {@code platform} per library, a {@code platform:} line in the text report, a Platform column on both pages. With
 * {@code platforms} only the listed platforms' libraries are judged; the others carry {@code "gated": false}. Where
 * the libraries read name several platforms (a Linux {@code .so} and a Windows {@code .dll} in one JAR), every device
 * also carries {@code platforms}: per platform its {@code platform}, {@code gated}, {@code status} (the device over
 * that platform's libraries alone), {@code reservationBytes} (static worst case) and {@code worstKernel} (whose
 * {@code library} is that platform's worst library); the text report and both pages show the same breakdown. A bare
 * cubin or a bare fatbin next to libraries of its system does not count as another platform.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class CheckMojo extends AbstractStackBudgetMojo {

    // conv (issue 12): the goal's own skip
    /**
     * Skip this goal only, as {@code skip} ({@value PropertyNames#SKIP}) skips every goal of the plugin: one log line
     * names the property; no report is written. From the command line: {@code -DcudaStackBudget.check.skip}.
     */
    @Parameter(property = PropertyNames.CHECK_SKIP, defaultValue = "false")
    private boolean skipCheck;

    /**
     * What to scan, as file sets with Ant-style patterns ({@code **}/{@code *.so} also matches the top level). Default:
     * {@code ${project.build.directory}} with includes {@code **}/{@code *.so}, {@code **}/{@code *.so.*},
     * {@code **}/{@code *.cubin}, {@code **}/{@code *.fatbin}, {@code **}/{@code *.o}, {@code **}/{@code *.a},
     * {@code **}/{@code *.dll}. Files that are not ELF, PE, fatbin or cubin are skipped quietly. No user property:
     * Maven cannot build file sets from a {@code -D} string; use {@code libraryFiles}
     * ({@code -DcudaStackBudget.libraryFiles}) on the command line.
     */
    @Parameter
    private List<FileSet> libraries;

    /**
     * Files to scan, named one by one (in addition to {@code libraries}). A missing or unreadable one fails the build;
     * one without device code is reported. On the command line a comma-separated list, relative paths against the
     * project's base directory: {@code -DcudaStackBudget.libraryFiles=build/libx.so,build/liby.so}.
     */
    @Parameter(property = PropertyNames.LIBRARY_FILES)
    private List<File> libraryFiles;

    /**
     * The cuobjdump executable. Default: found on the {@code PATH}, then in {@code $CUDA_HOME/bin},
     * {@code $CUDA_PATH/bin}, {@code /usr/local/cuda/bin}. Needed only when device code is found.
     */
    @Parameter(property = PropertyNames.CUOBJDUMP)
    private String cuobjdump;

    /**
     * How kernels are read: {@code native} (the plugin's own reader: no CUDA toolkit needed), {@code cuobjdump}
     * (NVIDIA's tool), or {@code auto}: native, and cuobjdump for any file whose layout the native reader does not know.
     */
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
     * JAR entry patterns that count as libraries (default: the same patterns as {@code libraries}). On the command
     * line a comma-separated list: {@code -DcudaStackBudget.jarIncludes=native/**}{@code /*.so,lib/*.dll}.
     */
    @Parameter(property = PropertyNames.JAR_INCLUDES)
    private List<String> jarIncludes;

    /** JAR entry patterns to leave out; on the command line a comma-separated list. */
    @Parameter(property = PropertyNames.JAR_EXCLUDES)
    private List<String> jarExcludes;

    /**
     * Target GPUs, each a {@code <device>} with a catalog {@code <preset>} or explicit figures ({@code <name>},
     * {@code <computeCapability>}, {@code <maxResidentThreads>} or {@code <multiProcessorCount>} and
     * {@code <maxThreadsPerMultiProcessor>}, optional {@code <memory>}), an optional own {@code <maxReservation>} and
     * an optional own {@code <maxStackPerThread>} (this device's frame limit, used instead of the global one).
     * With no devices and no {@code devicePresets}, the GPUs of this machine are checked (nvidia-smi, matched to the
     * catalog), else a default set (t4, a100-sxm4-80gb, l4, h100-sxm5-80gb, h200-141gb, b200, rtx-5090) without a
     * budget: the figures are reported and nothing fails for lack of a budget. No user property: Maven cannot build
     * these beans from a {@code -D} string; name catalog devices on the command line with {@code devicePresets}
     * ({@code -DcudaStackBudget.devicePresets}) and a budget with {@code -DcudaStackBudget.maxReservation}.
     */
    @Parameter
    private List<Device> devices;

    /**
     * Comma-separated catalog ids checked in addition to {@code devices}, e.g. {@code h100-sxm5-80gb,l4}. The catalog
     * (32 GPUs from V100 to GB10, with sources) is listed on the devices page. User property
     * {@code cudaStackBudget.devicePresets}; the old {@code cudaStackBudget.devices} still works, with a warning.
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

    /** With no devices configured, look for local GPUs with nvidia-smi before falling back to the default set. */
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

    /**
     * Budget for every device without its own: {@code 1.5 GiB}, {@code 512MiB}, {@code 2 GB}, bytes, or {@code 2%}
     * of the device's memory. KiB/MiB/GiB are powers of 1024, kB/MB/GB powers of 1000. Compared with the total
     * reservation (threads x roundup16(largest frame)), which includes the driver's default 1024 B per thread. With a
     * complete {@code launchLog} it judges the launched kernels' reservation, else the static worst case.
     */
    @Parameter(property = PropertyNames.MAX_RESERVATION)
    private String maxReservation;

    /**
     * Largest allowed stack frame per thread of any kernel a device would run, e.g. {@code 4096} or {@code 8 KiB}. With
     * a complete {@code launchLog} only the launched kernels are judged (a kernel that never launches takes no stack).
     * A device's own {@code <device><maxStackPerThread>} comes before this one.
     */
    @Parameter(property = PropertyNames.MAX_STACK_PER_THREAD)
    private String maxStackPerThread;

    /**
     * Launched mode: the kernel launch log of a recorded run (written by the CUPTI injection library that
     * {@code prepare-agent} provides). With it the headline reservation, {@code maxReservation} and
     * {@code maxStackPerThread} judge only the kernels the run launched; the static worst case is still reported.
     * {@code prepare-agent} sets the project property {@code cudaStackBudget.launchLog}, which this parameter reads,
     * so nothing needs configuring here. A configured log that does not exist fails the build; an empty one, one whose
     * status is not {@code ok} or one with malformed lines gives warnings (an incomplete log keeps the static
     * headline). A blank value means the static check.
     */
    @Parameter(property = PropertyNames.LAUNCH_LOG)
    private String launchLog;

    /**
     * Launched mode: the library log of that run (the libraries it loaded). Default: {@code <launchLog>.libraries}
     * when it exists. Launched kernels that the configured libraries lack are looked up in the libraries it names.
     */
    @Parameter(property = PropertyNames.LIBRARY_LOG)
    private String libraryLog;

    /** Fail the build on a violation; {@code false} logs the same text as a warning. */
    @Parameter(property = PropertyNames.FAIL_ON_VIOLATION, defaultValue = "true")
    private boolean failOnViolation;

    /** Where the reports go ({@code -DcudaStackBudget.outputDirectory}, relative to the project's base directory). */
    @Parameter(property = PropertyNames.OUTPUT_DIRECTORY, defaultValue = "${project.build.directory}/cuda-stack-budget",
            required = true)
    private File outputDirectory;

    /** Rows in the verbose per-kernel listing (0 = all). */
    @Parameter(property = PropertyNames.TOP, defaultValue = MavenScanSupport.DEFAULT_TOP)
    private int top;

    /** List kernels with a stack frame per device and the libraries with their "used by" in the log. */
    @Parameter(property = PropertyNames.VERBOSE, defaultValue = "false")
    private boolean verbose;

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
     * <p>Its {@code results/} folder is the check-result cache: a re-check whose options and inputs are all the same
     * as an earlier one's (every input file's size and SHA-256, the suppressions and baseline files, the devices, the
     * budgets, the formats, the output directory, the plugin's version) writes that check's reports again, byte for
     * byte, and logs its warnings again, without reading or judging anything. Checks that depend on an external tool
     * (the cuobjdump engine, {@code jitFrames=ptxas}) or on a launch log are never stored there.
     */
    @Parameter(property = PropertyNames.CACHE_DIRECTORY)
    private File cacheDirectory;

    /**
     * Serve unchanged libraries' reads (and an identical earlier check's reports) from the cache in
     * {@code cacheDirectory} and store new ones; {@code false} reads every library and neither reads nor writes it.
     */
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

    // out (issue 12, outputs)
    /**
     * The reports to write into {@code outputDirectory}, comma-separated: {@code html}
     * ({@code cuda-stack-budget.html}, the standalone page), {@code json} ({@code cuda-stack-budget.json}),
     * {@code txt} ({@code cuda-stack-budget.txt}), {@code markdown} ({@code cuda-stack-budget.md}, a summary: verdict
     * per device, violations, failed and warned gate checks, warnings), {@code junit}
     * ({@code TEST-cuda-stack-budget.xml}: a test case per device budget and per gate check, for CI test views) and
     * {@code sarif} ({@code cuda-stack-budget.sarif}, SARIF 2.1.0 for code-scanning views: a result per violation
     * naming the library as the artifact). A report of a format not listed that an earlier run left is deleted. For
     * example {@code <formats>html,json,txt,junit,sarif</formats>} or {@code -DcudaStackBudget.formats=json,sarif}.
     * Independently of this list, when the environment variable {@code GITHUB_STEP_SUMMARY} is set (GitHub Actions),
     * the Markdown summary is appended to the file it names. Paths in every report are relative to the project's base
     * directory where the file lies under it. See the Outputs page.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.FORMATS, defaultValue = OutputOptions.DEFAULT_FORMATS)
    private String formats;

    /**
     * Fail the build when the check cannot run: a tool that cannot run ({@code cuobjdump} or {@code ptxas} missing,
     * failing or timing out), input that cannot be read (a missing {@code libraryFiles} entry or launch log, device
     * code the readers refuse). Either way the selected reports are written with the error, so none is left from an
     * earlier run. With {@code false} the error is one WARN line and the build continues (as dependency-check's
     * {@code failOnError}). A configuration that cannot be used (an unknown format, a budget that is no size) fails
     * either way; a budget exceeded is governed by {@code failOnViolation}.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.FAIL_ON_ERROR, defaultValue = "true")
    private boolean failOnError;

    // issue 12, baselines

    /**
     * A JSON report of an earlier check ({@code cuda-stack-budget.json}, schema 1 or 2) to compare with: per device
     * (matched by name) the headline reservation (the static worst case, or the launched kernels' in launched mode, as
     * the device's verdict uses) old against new, and the overall figure (the largest reservation of all devices).
     * The comparison is reported in every report (old, new and delta per device) and as {@code baseline} checks;
     * it fails the build only with {@code maxGrowth} (or a device's own {@code <maxGrowth>}). A file that does not
     * exist fails the build (unless {@code ignoreMissingBaseline}); one that is not a report always does. For the
     * previous release's attached report use {@code baselineArtifact} instead (not both).
     *
     * <pre>{@code
     * <baseline>${project.basedir}/src/budget/cuda-stack-budget-1.4.json</baseline>
     * <maxGrowth>10%</maxGrowth>
     * }</pre>
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.BASELINE)
    private File baseline;

    /**
     * The JSON report an earlier version attached ({@code attachReport}), resolved from the repositories as
     * japicmp's {@code oldVersion} is: {@code groupId:artifactId:version[:classifier]}, classifier default
     * {@value #REPORT_CLASSIFIER}, type {@code json} (an exact version; no range, no {@code LATEST}). It is then
     * used as {@code baseline} (not both). An artifact that does not exist fails the build unless
     * {@code ignoreMissingBaseline}.
     *
     * <pre>{@code
     * <baselineArtifact>${project.groupId}:${project.artifactId}:1.4.0</baselineArtifact>
     * <maxGrowth>64 MiB</maxGrowth>
     * }</pre>
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.BASELINE_ARTIFACT)
    private String baselineArtifact;

    /**
     * How much a reservation may grow over the baseline's before the build fails: a size ({@code 64 MiB},
     * {@code 512MiB}, bytes; as {@code maxReservation} reads them) or a percentage of the baseline's reservation
     * ({@code 10%}). It applies to every device without its own {@code <device><maxGrowth>} and to the overall figure
     * (the largest reservation of all devices). The failure names the device, the old and the new reservation, and
     * the kernel behind the new one (its library and arch; new since the baseline, or its frame grew). Not set: the
     * comparison is reported and gates nothing.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.MAX_GROWTH)
    private String maxGrowth;

    /**
     * A {@code baseline} file or {@code baselineArtifact} that does not exist is one INFO line, and the check goes on
     * without a comparison (a first release, a new module). An unreadable or corrupt baseline still fails the build.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.IGNORE_MISSING_BASELINE, defaultValue = "false")
    private boolean ignoreMissingBaseline;

    /**
     * Attach the JSON report to the project as an artifact (type {@code json}, classifier
     * {@value #REPORT_CLASSIFIER}), so that {@code install} and {@code deploy} publish it and a later version can
     * compare with it through {@code baselineArtifact}.
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.ATTACH_REPORT, defaultValue = "false")
    private boolean attachReport;

    /** The classifier of the attached JSON report (and the default of {@code baselineArtifact}'s). */
    static final String REPORT_CLASSIFIER = "cuda-stack-budget";

    @Parameter(defaultValue = "${repositorySystemSession}", readonly = true)
    private RepositorySystemSession repositorySession;

    @Parameter(defaultValue = "${project.remoteProjectRepositories}", readonly = true)
    private List<RemoteRepository> remoteRepositories;

    @Component
    private RepositorySystem repositorySystem;

    @Component
    private MavenProjectHelper projectHelper;

    // gate (issue 12): suppressions and rules
    /**
     * A checked-in suppressions file (the format is on the suppressions-and-rules page): each {@code <suppress>}
     * entry names a {@code <kernel>} glob ({@code *}, {@code ?}; matched against the mangled or the demangled name),
     * optionally a {@code <library>} glob (the library label or file name) and a {@code <device>} glob (name or preset
     * id), a required {@code <reason>} and an optional {@code <until>} date ({@code yyyy-MM-dd}). A suppressed kernel
     * leaves its device's verdict (the reservation and the frame limit are judged without it, so the next-worst
     * kernel becomes the worst) and is listed apart, with its reason, in every report. An expired entry
     * ({@code until} before today, UTC) suppresses nothing and fails the build naming the entry; an entry that
     * matches no kernel warns (see {@code failOnUnusedSuppressions}). For example:
     *
     * <pre>{@code
     * <suppressions>
     *   <suppress>
     *     <kernel>demo::stageTiles*</kernel>
     *     <library>libstackdemo.so</library>
     *     <reason>tile staging needs the scratch; rewritten in 2.0 (ISSUE-42)</reason>
     *     <until>2027-06-30</until>
     *   </suppress>
     * </suppressions>
     * }</pre>
     *
     * @since 0.1.0
     */
    @Parameter(property = PropertyNames.SUPPRESSIONS)
    private File suppressions;

    /** An entry of {@code suppressions} that matches no kernel fails the build (by default it only warns). */
    @Parameter(property = PropertyNames.FAIL_ON_UNUSED_SUPPRESSIONS, defaultValue = "false")
    private boolean failOnUnusedSuppressions;

    /**
     * Rules in the style of jacoco's {@code check}: each {@code <rule>} has an {@code <element>} ({@code DEVICE}, the
     * default: each device's reservation; {@code LIBRARY}: per library, what its kernels alone would reserve on each
     * device; {@code KERNEL}: each kernel's frame and reservation on each device), {@code <includes>} and
     * {@code <excludes>} globs ({@code *}, {@code ?}) over the device name or preset id, the library label or file
     * name, or the kernel's mangled or demangled name (no includes: all), and {@code <limits>}, each a
     * {@code <counter>} ({@code RESERVATION}, the default, in bytes; {@code INCREMENT}: the reservation over what the
     * driver's default 1 KiB per thread already holds; {@code FRAME}: the stack frame per thread;
     * {@code MEMORY_SHARE}: the reservation as a share of the device's memory), a {@code <maximum>} ({@code 1 GiB},
     * {@code 512MiB}, bytes, or {@code 2%} of the device's memory; {@code FRAME} takes sizes only,
     * {@code MEMORY_SHARE} percentages only) and a {@code <level>} ({@code ERROR}, the default: a breach fails the
     * build like an exceeded budget; {@code WARN}: it is logged as a warning). Every limit on every element judged is
     * a check in the reports (JSON {@code checks}, and the JUnit, SARIF and Markdown outputs). The flat
     * {@code maxReservation} is the short form of a {@code DEVICE} rule with a {@code RESERVATION} limit, and
     * {@code maxStackPerThread} of a {@code KERNEL} rule with a {@code FRAME} limit. For example:
     *
     * <pre>{@code
     * <rules>
     *   <rule>
     *     <element>LIBRARY</element>
     *     <includes><include>libmine*.so</include></includes>
     *     <excludes><exclude>libmine_debug.so</exclude></excludes>
     *     <limits>
     *       <limit><counter>RESERVATION</counter><maximum>512 MiB</maximum></limit>
     *       <limit><counter>MEMORY_SHARE</counter><maximum>0.5%</maximum><level>WARN</level></limit>
     *     </limits>
     *   </rule>
     * </rules>
     * }</pre>
     *
     * <p>POM only (Maven gives a list of beans no user property); the command line has no rules.
     *
     * @since 0.1.0
     */
    @Parameter
    private List<Rule> rules;

    @Override
    protected String subject() {
        return "CUDA stack budget check";
    }

    @Override
    protected boolean goalSkip() {
        return skipCheck;
    }

    @Override
    protected String goalSkipProperty() {
        return PropertyNames.CHECK_SKIP;
    }

    @Override
    protected void executeMojo() throws CheckException, MojoExecutionException, MojoFailureException {
        Log log = getLog();
        CheckRunner.Outcome outcome = runCheck(options(), failOnError);
        if (outcome == null) {
            return;
        }
        if (attachReport) {
            attachReport(outcome);
        }
        if (outcome.noKernels()) {
            outcome.summary().forEach(log::info);
            return;
        }
        judge(outcome, outcome.violations(), failOnViolation, "CUDA stack budget exceeded");
    }

    CheckOptions options() throws MojoExecutionException {
        CheckOptions.Builder options = new MavenScanSupport(project, getLog()::info).options(
                new MavenScanSupport.Parameters(libraries, libraryFiles, cuobjdump, engine, scanProjectJar,
                        scanDependencies, dependencyScopes, jarIncludes, jarExcludes, devices,
                        MavenScanSupport.devicePresets(devicePresets, devicesProperty, getLog()),
                        detectLocalDevices, maxReservation, maxStackPerThread, launchLog, libraryLog, timeout,
                        parallelism, top, failOnUnreadable, platforms), cacheDirectory, useCache,
                outputDirectory.toPath(), verbose)
                .toBuilder().jitFrames(jitFrames).ptxas(ptxas).driverCudaVersion(driverCudaVersion);
        options.output(outputOptions());
        options.gate(gateOptions());
        options.baseline(baselineOptions());
        return options.build();
    }

    /** The report files to write (formats) and how they name paths. */
    private OutputOptions outputOptions() {
        return OutputOptions.of(formats, project.getBasedir() == null ? null : project.getBasedir().toPath());
    }

    /** Suppressions and rules. */
    private GateOptions gateOptions() {
        return new GateOptions(suppressions == null ? null : suppressions.toPath(), failOnUnusedSuppressions,
                rules == null ? List.of() : rules.stream().map(rule -> rule == null
                        ? new GateOptions.RuleSpec(null, null, null, null) : rule.toSpec()).toList(), null);
    }

    /** The comparison with a previous report: the {@code baseline} file, or the resolved {@code baselineArtifact}. */
    private BaselineOptions baselineOptions() throws MojoExecutionException {
        boolean artifact = baselineArtifact != null && !baselineArtifact.isBlank();
        if (baseline != null && artifact) {
            throw new MojoExecutionException("baseline and baselineArtifact are both set: compare with one of them "
                    + "(the file " + baseline + " or the artifact " + baselineArtifact.strip() + ")");
        }
        if (artifact) {
            return new BaselineArtifact(repositorySystem, repositorySession, remoteRepositories, getLog())
                    .options(baselineArtifact, maxGrowth, ignoreMissingBaseline);
        }
        if (baseline == null) {
            return new BaselineOptions(null, maxGrowth, ignoreMissingBaseline);
        }
        return new BaselineOptions(baseline.toPath(), maxGrowth, ignoreMissingBaseline,
                BaselineArtifact.relative(project, baseline.toPath()));
    }

    /** Attaches the JSON report (type json, classifier {@value #REPORT_CLASSIFIER}) for install and deploy. */
    private void attachReport(CheckRunner.Outcome outcome) throws MojoExecutionException {
        java.nio.file.Path json = outcome.reports().stream()
                .filter(report -> report.getFileName().toString().equals(CheckRunner.JSON_REPORT)).findFirst()
                .orElseThrow(() -> new MojoExecutionException("attachReport is set, but this check wrote no "
                        + CheckRunner.JSON_REPORT + ": let it write the JSON report"));
        projectHelper.attachArtifact(project, "json", REPORT_CLASSIFIER, json.toFile());
        getLog().info("Attached " + json + " as " + project.getGroupId() + ":" + project.getArtifactId() + ":json:"
                + REPORT_CLASSIFIER + ":" + project.getVersion());
    }
}
