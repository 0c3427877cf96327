package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;

/**
 * Which JARs the goals look into for native libraries (read in place by the native reader), as the POM gives it.
 *
 * @param scanProjectJar   the project's own JAR, when it has been built
 * @param scanDependencies the project's dependency JARs of {@code dependencyScopes}
 * @param dependencyScopes comma-separated Maven scopes
 * @param includes         entry patterns, or null for the default library patterns
 * @param excludes         entry patterns to leave out, or null
 */
record JarScanParameters(boolean scanProjectJar, boolean scanDependencies, String dependencyScopes,
        List<String> includes, List<String> excludes) {

    private static final Set<String> SCOPES = Set.of(Artifact.SCOPE_COMPILE, Artifact.SCOPE_RUNTIME,
            Artifact.SCOPE_PROVIDED, Artifact.SCOPE_SYSTEM, Artifact.SCOPE_TEST);

    /**
     * The JARs to scan: the project's artifact file (a .jar or .zip that exists), then the resolved dependencies of
     * the chosen scopes, in the project's dependency order, each attributed to its coordinates.
     *
     * @param log receives one line when the project's JAR is not built yet
     * @throws MojoExecutionException naming {@code dependencyScopes} when it holds an unknown scope
     */
    JarScanOptions toOptions(MavenProject project, java.util.function.Consumer<String> log)
            throws MojoExecutionException {
        List<JarInput> jars = new ArrayList<>();
        if (scanProjectJar) {
            File file = project.getArtifact() == null ? null : project.getArtifact().getFile();
            if (file != null && file.isFile() && isArchive(file)) {
                jars.add(new JarInput(file.toPath(), coordinates(project.getArtifact())));
            } else if ("jar".equals(project.getPackaging())) {
                log.accept("The project's JAR is not built yet (run the check after 'package' to scan the native "
                        + "libraries packaged in it)");
            }
        }
        if (scanDependencies) {
            Set<String> scopes = scopes();
            for (Artifact artifact : project.getArtifacts()) {
                File file = artifact.getFile();
                if (scopes.contains(artifact.getScope()) && file != null && file.isFile() && isArchive(file)) {
                    jars.add(new JarInput(file.toPath(), coordinates(artifact)));
                }
            }
        }
        return new JarScanOptions(jars, includes == null ? List.of() : includes,
                excludes == null ? List.of() : excludes);
    }

    private Set<String> scopes() throws MojoExecutionException {
        Set<String> scopes = new LinkedHashSet<>();
        String value = dependencyScopes == null || dependencyScopes.isBlank() ? "compile,runtime" : dependencyScopes;
        for (String scope : Arrays.asList(value.split(","))) {
            String name = scope.strip().toLowerCase(Locale.ROOT);
            if (!SCOPES.contains(name)) {
                throw new MojoExecutionException("dependencyScopes '" + dependencyScopes + "' names the unknown scope '"
                        + scope.strip() + "': use a comma-separated list of compile, runtime, provided, system, test "
                        + "(cudaStackBudget.dependencyScopes)");
            }
            scopes.add(name);
        }
        return scopes;
    }

    private static boolean isArchive(File file) {
        String name = file.getName().toLowerCase(Locale.ROOT);
        return name.endsWith(".jar") || name.endsWith(".zip") || name.endsWith(".war") || name.endsWith(".ear");
    }

    private static String coordinates(Artifact artifact) {
        return artifact.getGroupId() + ":" + artifact.getArtifactId() + ":" + artifact.getVersion()
                + (artifact.getClassifier() == null || artifact.getClassifier().isEmpty() ? ""
                        : ":" + artifact.getClassifier());
    }
}
