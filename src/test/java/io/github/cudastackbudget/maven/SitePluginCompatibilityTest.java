package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginManagement;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The old-site-plugin detection. The real old plugin (maven-site-plugin 3.12.1 handing a Doxia 1 sink) is exercised
 * by the invoker IT report-old-site-plugin on Maven 3.8.7 and 3.9.16; here: the decision and its one line.
 */
class SitePluginCompatibilityTest {

    /** The shape of Doxia 1's table-rows events: only {@code tableRows(int[], boolean)}, no {@code tableRows()}. */
    interface Doxia1TableRows {
        void tableRows(int[] justification, boolean grid);

        void tableRows_();
    }

    @Test
    void theDoxia2SinkOnTheClasspathIsRecognised() {
        assertThat(SitePluginCompatibility.isDoxia2(Sink.class)).isTrue();
        assertThat(SitePluginCompatibility.isDoxia2(Doxia1TableRows.class)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"3.3, true", "3.7.1, true", "3.12.1, true", "3.20.0, false", "3.21.0, false", "3.22.0, false",
        "4.0.0, false", "${site.version}, false"})
    void versionsBefore3Point20AreTooOld(String version, boolean tooOld) {
        assertThat(SitePluginCompatibility.isTooOld(version)).isEqualTo(tooOld);
    }

    @Test
    void theVersionComesFromTheBuildPluginsThenFromPluginManagement() {
        assertThat(SitePluginCompatibility.sitePluginVersion(project(null, null))).isEmpty();
        assertThat(SitePluginCompatibility.sitePluginVersion(project(null, "3.21.0"))).contains("3.21.0");
        assertThat(SitePluginCompatibility.sitePluginVersion(project("3.12.1", "3.21.0"))).contains("3.12.1");
    }

    private static MavenProject project(String buildVersion, String managedVersion) {
        Model model = new Model();
        model.setBuild(new Build());
        if (managedVersion != null) {
            PluginManagement management = new PluginManagement();
            management.addPlugin(sitePlugin(managedVersion));
            model.getBuild().setPluginManagement(management);
        }
        if (buildVersion != null) {
            model.getBuild().addPlugin(sitePlugin(buildVersion));
        }
        return new MavenProject(model);
    }

    @Test
    void theMessageIsOneLineNamingBothVersions() {
        assertThat(SitePluginCompatibility.message(Optional.of("3.12.1"))).isEqualTo("The CUDA Stack Budget report "
                + "needs maven-site-plugin 3.20.0 or newer (Doxia 2), but this build uses maven-site-plugin 3.12.1: pin "
                + "org.apache.maven.plugins:maven-site-plugin:" + SitePluginCompatibility.RECOMMENDED
                + " in <build><pluginManagement> (see the plugin's README, \"Site report\")");
        assertThat(SitePluginCompatibility.message(Optional.empty()))
                .contains("but this build uses an older maven-site-plugin: pin").doesNotContain("\n");
    }

    @Test
    void theRecommendedVersionIsTheOneThePluginsOwnItsRun() throws Exception {
        Matcher pinned = Pattern.compile("<maven-site-plugin\\.version>([^<]+)</maven-site-plugin\\.version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertThat(pinned.find()).isTrue();
        assertThat(SitePluginCompatibility.RECOMMENDED).isEqualTo(pinned.group(1));
        // the site report page shows the pin; the README (which the message names) states the version
        assertThat(Files.readString(Path.of("src/site/markdown/site-report.md")))
                .contains("<version>" + pinned.group(1) + "</version>");
        assertThat(Files.readString(Path.of("README.md"))).contains("## Site report")
                .contains("maven-site-plugin` `" + pinned.group(1) + "`");
    }

    private static Plugin sitePlugin(String version) {
        Plugin plugin = new Plugin();
        plugin.setGroupId("org.apache.maven.plugins");
        plugin.setArtifactId("maven-site-plugin");
        plugin.setVersion(version);
        return plugin;
    }
}
