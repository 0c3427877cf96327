package io.github.cudastackbudget.maven;

import static org.apache.maven.api.plugin.testing.MojoExtension.setVariableValueToObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.CheckOptions;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Verdict;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.project.MavenProject;
import org.apache.maven.reporting.MavenReportException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parameter wiring and the data-source decision of the report goal (maven-plugin-testing-harness, JUnit 5): the JSON
 * of check when up to date, else its own scan. The stand-in for cuobjdump replays the recorded real cuobjdump output
 * of target/test-cuda/libframes.so (src/test/resources/recorded/cuobjdump) and counts its calls, so a test can tell
 * a scan from a rendered JSON.
 */
@MojoTest
class ReportMojoTest {

    private static final String POM = "src/test/resources/unit/report/pom.xml";
    private static final Path RECORDINGS = Path.of("src/test/resources/recorded/cuobjdump").toAbsolutePath();
    private static final Instant PAST = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path build;

    private Path replay;
    private Path calls;
    private Path library;
    private Path pom;

    @BeforeEach
    void buildDirectoryWithARealLibrary() throws Exception {
        Files.createDirectories(build.resolve("native"));
        library = build.resolve("native/libframes.so");
        Files.copy(Path.of("target/test-cuda/libframes.so"), library, StandardCopyOption.REPLACE_EXISTING);
        calls = build.resolve("cuobjdump-calls.log");
        replay = build.resolve("replay-cuobjdump");
        Files.writeString(replay, "#!/bin/sh\n# replays the recorded real cuobjdump 13.0 output of libframes.so\n"
                + "echo \"$@\" >> '" + calls + "'\n"
                + "if [ \"$1\" = \"--version\" ]; then cat '" + RECORDINGS + "/cuobjdump-version.txt'; exit 0; fi\n"
                + "cat '" + RECORDINGS + "/libframes.so.resource-usage.txt'\n");
        Files.setPosixFilePermissions(replay, PosixFilePermissions.fromString("rwxr-xr-x"));
        pom = build.resolve("pom.xml");
        Files.copy(Path.of(POM), pom);
        Files.setLastModifiedTime(pom, FileTime.from(PAST));
        Files.setLastModifiedTime(library, FileTime.from(PAST));
    }

    private Path json() {
        return build.resolve("cuda-stack-budget/cuda-stack-budget.json");
    }

    private MavenProject wire(ReportMojo mojo) throws Exception {
        Model model = new Model();
        model.setGroupId("io.github.cudastackbudget.test");
        model.setArtifactId("report-harness");
        model.setVersion("1.0");
        Build modelBuild = new Build();
        modelBuild.setDirectory(build.toString());
        model.setBuild(modelBuild);
        MavenProject project = new MavenProject(model);
        project.setFile(pom.toFile());
        setVariableValueToObject(mojo, "project", project);
        setVariableValueToObject(mojo, "jsonReport", json().toFile());
        setVariableValueToObject(mojo, "cuobjdump", replay.toString());
        // these tests count the goal's scans by cuobjdump's calls: the kernel cache would serve the second scan
        setVariableValueToObject(mojo, "useCache", false);
        return project;
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void theKernelCacheParametersReachTheScan(ReportMojo mojo) throws Exception {
        wire(mojo);
        Path cache = build.resolve("kernel-cache");
        setVariableValueToObject(mojo, "useCache", true);
        setVariableValueToObject(mojo, "cacheDirectory", cache.toFile());
        setVariableValueToObject(mojo, "reportSource", "scan");
        assertThat(mojo.options().effectiveCacheDirectory()).isEqualTo(cache);
        mojo.load();
        mojo.load();
        assertThat(scans()).as("the second scan is served from the cache").isEqualTo(1);
        try (java.util.stream.Stream<Path> entries = Files.list(cache)) {
            // the entries (the hashes/ folder of remembered content hashes aside)
            assertThat(entries.filter(Files::isRegularFile).map(Path::toString).toList()).singleElement().asString()
                    .endsWith(".scan");
        }
        setVariableValueToObject(mojo, "useCache", false);
        assertThat(mojo.options().effectiveCacheDirectory()).isNull();
        mojo.load();
        assertThat(scans()).isEqualTo(2);
    }

    private long scans() throws Exception {
        return Files.exists(calls) ? Files.readAllLines(calls).stream().filter(l -> l.startsWith("--dump")).count() : 0;
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void pomConfigurationReachesTheScanOptions(ReportMojo mojo) throws Exception {
        wire(mojo);
        CheckOptions options = mojo.options();
        assertThat(options.engine()).isEqualTo("cuobjdump");
        assertThat(options.top()).isEqualTo(7);
        assertThat(options.maxReservation()).isEqualTo("5%");
        assertThat(options.maxStackPerThread()).isEqualTo("16 KiB");
        assertThat(options.devicePresets()).isEqualTo("l4");
        assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(options.parallelism()).isEqualTo(2);
        assertThat(options.cuobjdump()).isEqualTo(replay.toString());
        assertThat(options.devices()).containsExactly(
                new DeviceDefinition("h200-141gb", null, null, null, null, null, null, "3 GiB"),
                new DeviceDefinition(null, "my-ampere", "sm_80", null, "108", "2048", "80 GiB", null));
        assertThat(options.fileSets()).singleElement().satisfies(set -> {
            assertThat(set.directory()).isEqualTo(build);
            assertThat(set.includes()).contains("**/*.so", "**/*.cubin", "**/*.a");
        });
        // the scan writes its reports where check writes them: the JSON's directory
        assertThat(options.outputDirectory()).isEqualTo(json().getParent());
        assertThat(options.usedBy()).isEqualTo("io.github.cudastackbudget.test:report-harness:1.0");
        assertThat(options.verbose()).isFalse();
        assertThat(options.launchLog()).isNull();
        assertThat(options.frontend()).isSameAs(MavenFrontend.INSTANCE);
        assertThat(mojo.getOutputName()).isEqualTo("cuda-stack-budget");
        assertThat(mojo.getName(java.util.Locale.ROOT)).isEqualTo("CUDA Stack Budget");
        assertThat(mojo.getCategoryName()).isEqualTo(org.apache.maven.reporting.MavenReport.CATEGORY_PROJECT_REPORTS);
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "maxReservation", value = "1 GiB")
    void withoutJsonItScansWritesTheJsonAndAnExceededBudgetIsOnlyAVerdict(ReportMojo mojo) throws Exception {
        wire(mojo);
        ReportMojo.ReportData data = mojo.load();
        assertThat(scans()).isEqualTo(1);
        assertThat(json()).isRegularFile();
        assertThat(data.source()).startsWith("Figures from the report goal's own scan (").contains("does not exist");
        // 221,184 threads x 10,208 B (frameKernel<2550>) exceed my-ampere's 1 GiB: the model says FAIL, nothing is
        // thrown; the H200 has its own 3 GiB budget
        assertThat(data.model().devices()).extracting(DeviceReport::name)
                .containsExactly("h200-141gb", "my-ampere", "l4");
        assertThat(data.model().devices()).filteredOn(d -> d.status() == Verdict.FAIL).extracting(DeviceReport::name)
                .containsExactly("my-ampere");
        assertThat(data.model().violationsOf("my-ampere")).singleElement()
                .satisfies(v -> assertThat(v.actual()).isEqualTo(221_184L * 10_208));
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void anUpToDateJsonIsRenderedWithoutScanning(ReportMojo mojo) throws Exception {
        wire(mojo);
        mojo.load();
        assertThat(scans()).isEqualTo(1);
        ReportMojo.ReportData again = mojo.load();
        assertThat(scans()).as("rendered from the JSON, no second scan").isEqualTo(1);
        assertThat(again.source()).isEqualTo("Figures from cuda-stack-budget.json, written by the check goal.");
        // relative to the project's base directory (out, issue 12), found there although the working directory differs
        assertThat(again.model().libraries()).singleElement()
                .satisfies(lib -> assertThat(lib.path()).isEqualTo("native/libframes.so"));
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void aLibraryNewerThanTheJsonMakesItScan(ReportMojo mojo) throws Exception {
        wire(mojo);
        mojo.load();
        Files.setLastModifiedTime(library, FileTime.from(Files.getLastModifiedTime(json()).toInstant().plusSeconds(5)));
        ReportMojo.ReportData data = mojo.load();
        assertThat(scans()).isEqualTo(2);
        assertThat(data.source()).contains(library + " is newer than " + json());
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void aPomNewerThanTheJsonMakesItScan(ReportMojo mojo) throws Exception {
        wire(mojo);
        mojo.load();
        Files.setLastModifiedTime(pom, FileTime.from(Files.getLastModifiedTime(json()).toInstant().plusSeconds(5)));
        ReportMojo.ReportData data = mojo.load();
        assertThat(scans()).isEqualTo(2);
        assertThat(data.source()).contains(pom + " is newer than").contains("the configuration may have changed");
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void aJsonListingADeletedLibraryIsStale(ReportMojo mojo) throws Exception {
        wire(mojo);
        mojo.load();
        Files.delete(library);
        ReportMojo.ReportData data = mojo.load();
        assertThat(data.source()).contains("cuda-stack-budget.json lists libraries that no longer exist: "
                + "native/libframes.so");
        assertThat(data.model().noKernels()).isTrue();
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void anUnreadableJsonIsReplacedByAScan(ReportMojo mojo) throws Exception {
        wire(mojo);
        Files.createDirectories(json().getParent());
        Files.writeString(json(), "{ \"schemaVersion\": 99 }");
        ReportMojo.ReportData data = mojo.load();
        assertThat(scans()).isEqualTo(1);
        assertThat(data.source()).contains("cuda-stack-budget.json cannot be read");
        assertThat(Files.readString(json())).contains("\"schemaVersion\": 2");
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "reportSource", value = "json")
    void reportSourceJsonRendersAStaleJsonAndNeedsOne(ReportMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class)
                .hasMessage(json() + ": the JSON report does not exist; run the check goal first");
        setVariableValueToObject(mojo, "reportSource", "auto");
        mojo.load();
        setVariableValueToObject(mojo, "reportSource", "json");
        Files.setLastModifiedTime(library, FileTime.from(Files.getLastModifiedTime(json()).toInstant().plusSeconds(5)));
        ReportMojo.ReportData data = mojo.load();
        assertThat(scans()).isEqualTo(1);
        assertThat(data.source()).isEqualTo("Figures from cuda-stack-budget.json, written by the check goal.");
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "reportSource", value = "scan")
    void reportSourceScanAlwaysScans(ReportMojo mojo) throws Exception {
        wire(mojo);
        mojo.load();
        ReportMojo.ReportData data = mojo.load();
        assertThat(scans()).isEqualTo(2);
        assertThat(data.source()).isEqualTo("Figures from the report goal's own scan (reportSource is scan).");
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "reportSource", value = "sometimes")
    void unknownReportSourceIsOneLine(ReportMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class)
                .hasMessage("reportSource 'sometimes' is unknown: use auto, json or scan (cudaStackBudget.reportSource)");
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "maxReservation", value = "lots")
    void misuseStillFailsTheReportNamingTheParameter(ReportMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class)
                .hasMessageStartingWith("maxReservation 'lots' is not a size");
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void misuseFailsEvenWhenAnUpToDateJsonWouldBeRendered(ReportMojo mojo) throws Exception {
        wire(mojo);
        mojo.load();
        setVariableValueToObject(mojo, "maxStackPerThread", "big");
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class)
                .hasMessageStartingWith("maxStackPerThread 'big' is not a size");
        setVariableValueToObject(mojo, "maxStackPerThread", null);
        setVariableValueToObject(mojo, "devicePresets", "no-such-gpu");
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class).hasMessageContaining("no-such-gpu");
        setVariableValueToObject(mojo, "devicePresets", "l4");
        setVariableValueToObject(mojo, "engine", "magic");
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class)
                .hasMessage("engine 'magic' is unknown: use auto, cuobjdump or native");
        assertThat(scans()).isEqualTo(1);
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "timeout", value = "0")
    void timeoutBelowOneSecondIsRejectedAsInCheck(ReportMojo mojo) throws Exception {
        wire(mojo);
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class)
                .hasMessage("timeout 0 must be at least 1 second (cudaStackBudget.timeout)");
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "skip", value = "true")
    void skipMeansNoPage(ReportMojo mojo) throws Exception {
        wire(mojo);
        LogLines log = new LogLines();
        mojo.setLog(log);
        assertThat(mojo.canGenerateReport()).isFalse();
        assertThat(mojo.canGenerateReport()).as("the site plugin and AbstractMavenReport may both ask").isFalse();
        assertThat(log.lines).containsExactly("INFO Skipping the CUDA Stack Budget report: cudaStackBudget.skip is set.");
        setVariableValueToObject(mojo, "skip", false);
        assertThat(mojo.canGenerateReport()).isTrue();
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "skip", value = "true")
    void skippedStandaloneTheGoalLogsOneLineNamingTheProperty(ReportMojo mojo) throws Exception {
        wire(mojo);
        Plugin plugin = new Plugin();
        plugin.setGroupId("io.github.cudastackbudget");
        plugin.setArtifactId("cuda-stack-budget-maven-plugin");
        plugin.setVersion("0.1.0-SNAPSHOT");
        setVariableValueToObject(mojo, "mojoExecution", new MojoExecution(plugin, "report", "default-cli"));
        LogLines log = new LogLines();
        mojo.setLog(log);
        // AbstractMavenReport.execute(): canGenerateReport(), then its own "Skipping <plugin>:report report goal"
        mojo.execute();
        assertThat(log.lines).containsExactly("INFO Skipping the CUDA Stack Budget report: cudaStackBudget.skip is set.");
        assertThat(build.resolve("reports")).doesNotExist();
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    @MojoParameter(name = "skipReport", value = "true")
    void theGoalsOwnSkipMeansNoPageAndOneLineNamingItsProperty(ReportMojo mojo) throws Exception {
        wire(mojo);
        Plugin plugin = new Plugin();
        plugin.setGroupId("io.github.cudastackbudget");
        plugin.setArtifactId("cuda-stack-budget-maven-plugin");
        plugin.setVersion("0.1.0-SNAPSHOT");
        setVariableValueToObject(mojo, "mojoExecution", new MojoExecution(plugin, "report", "default-cli"));
        LogLines log = new LogLines();
        mojo.setLog(log);
        assertThat(mojo.canGenerateReport()).isFalse();
        mojo.execute();
        assertThat(log.lines).containsExactly(
                "INFO Skipping the CUDA Stack Budget report: cudaStackBudget.report.skip is set.");
        assertThat(build.resolve("reports")).doesNotExist();
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void theOwnScanHonoursTheLaunchLogAndANewerLogMakesTheJsonStale(ReportMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "maxReservation", "1 GiB");
        Path launch = build.resolve("runs/launch.log");
        Files.createDirectories(launch.getParent());
        Files.writeString(launch, "# cuda-stack-budget launch log 1\n# status: ok\n# processes: 1\n"
                + "_Z11frameKernelILi64EEvPii\tmain\t1024\n");
        Files.setLastModifiedTime(launch, FileTime.from(PAST));
        setVariableValueToObject(mojo, "launchLog", "runs/launch.log");
        assertThat(mojo.options().launchLog()).as("relative to the base directory").isEqualTo(launch);

        ReportMojo.ReportData data = mojo.load();
        assertThat(scans()).isEqualTo(1);
        // launched: my-ampere's 221,184 threads x 256 B (frameKernel<64>) are within 1 GiB; statically it fails
        assertThat(Files.readString(json())).contains("\"launchedReservationBytes\": " + (221_184L * 256),
                "\"unmatchedLaunchedKernels\": []");
        assertThat(data.model().devices()).filteredOn(d -> d.name().equals("my-ampere")).singleElement()
                .satisfies(d -> assertThat(d.status()).isEqualTo(Verdict.PASS));

        mojo.load();
        assertThat(scans()).as("the JSON is up to date").isEqualTo(1);
        Files.setLastModifiedTime(launch, FileTime.from(Files.getLastModifiedTime(json()).toInstant().plusSeconds(5)));
        ReportMojo.ReportData again = mojo.load();
        assertThat(scans()).isEqualTo(2);
        assertThat(again.source()).contains(launch + " is newer than " + json());
    }

    @Test
    @InjectMojo(goal = "report", pom = POM)
    void aMissingToolIsOneLineNamingTheProperty(ReportMojo mojo) throws Exception {
        wire(mojo);
        setVariableValueToObject(mojo, "cuobjdump", new File(build.toFile(), "no-such-cuobjdump").toString());
        assertThatThrownBy(mojo::load).isInstanceOf(MavenReportException.class)
                .hasMessageContaining("no-such-cuobjdump").hasMessageContaining("cudaStackBudget.cuobjdump");
    }
}
