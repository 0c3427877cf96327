package io.github.cudastackbudget.maven;

import java.util.Optional;
import org.apache.maven.artifact.versioning.ComparableVersion;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginManagement;
import org.apache.maven.project.MavenProject;

/**
 * Tells whether the maven-site-plugin of a build can render this report, and says what to pin when it cannot.
 *
 * <p>The report is built on maven-reporting-impl 4 and Doxia 2. maven-site-plugin 3.20.0 is the first release on
 * Doxia 2 (3.12.1, the last 3.x before it, is on Doxia 1.11; the 4.0.0-M milestones became 3.20.0). An older site
 * plugin hands the report a Doxia 1 sink: maven-site-plugin 3.12.1 (Maven 3.9's default) then skips the report with a
 * one-line LinkageError warning, and 3.3 (Maven 3.8's default) cannot even load the report class. This class gives the
 * goal one clear line instead, in the case where its code still runs (3.4 to 3.12.1).
 *
 * <p>Two facts are used: the Doxia {@code Sink} API the report is linked against at run time (the truth: with an old
 * site plugin its Doxia 1 interface wins), and the site plugin version in the project model (effective build plugins,
 * else plugin management), which names the culprit in the message.
 */
final class SitePluginCompatibility {

    /** The first maven-site-plugin release that renders reporting-api 4 / Doxia 2 reports. */
    static final String FIRST_SUPPORTED = "3.20.0";

    /** The version the message tells users to pin (the one the project's ITs run; kept equal to the POM's). */
    static final String RECOMMENDED = "3.22.0";

    static final String SITE_PLUGIN_KEY = "org.apache.maven.plugins:maven-site-plugin";

    private SitePluginCompatibility() {
    }

    /**
     * True when {@code sinkApi} (the {@code org.apache.maven.doxia.sink.Sink} interface as the report's code sees it)
     * is Doxia 2's: Doxia 2 added the no-argument {@code tableRows()}; Doxia 1 has only
     * {@code tableRows(int[], boolean)}.
     */
    static boolean isDoxia2(Class<?> sinkApi) {
        try {
            sinkApi.getMethod("tableRows");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The maven-site-plugin version the project model names (build plugins first, then plugin management). */
    static Optional<String> sitePluginVersion(MavenProject project) {
        Plugin plugin = project.getPlugin(SITE_PLUGIN_KEY);
        if (plugin == null || plugin.getVersion() == null) {
            PluginManagement management = project.getPluginManagement();
            plugin = management == null ? null : management.getPluginsAsMap().get(SITE_PLUGIN_KEY);
        }
        return plugin == null || plugin.getVersion() == null || plugin.getVersion().isBlank() ? Optional.empty()
                : Optional.of(plugin.getVersion().strip());
    }

    /** True when {@code version} is older than {@link #FIRST_SUPPORTED} (property references count as unknown). */
    static boolean isTooOld(String version) {
        if (version.contains("${")) {
            return false;
        }
        return new ComparableVersion(version).compareTo(new ComparableVersion(FIRST_SUPPORTED)) < 0;
    }

    /** The one line that says what is wrong and what to pin; {@code version} may be empty when unknown. */
    static String message(Optional<String> version) {
        return "The CUDA Stack Budget report needs maven-site-plugin " + FIRST_SUPPORTED + " or newer (Doxia 2), but "
                + "this build uses " + version.map(v -> "maven-site-plugin " + v).orElse("an older maven-site-plugin")
                + ": pin org.apache.maven.plugins:maven-site-plugin:" + RECOMMENDED
                + " in <build><pluginManagement> (see the plugin's README, \"Site report\")";
    }
}
