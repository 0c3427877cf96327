package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.baseline.BaselineOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.transfer.ArtifactNotFoundException;

/**
 * Issue 12: the {@code baselineArtifact} of {@code check} ({@code groupId:artifactId:version[:classifier]}, type
 * {@code json}) resolved through Maven's resolver with the session and the project's remote repositories, as japicmp
 * resolves its {@code oldVersion}, into the file the core compares with.
 */
final class BaselineArtifact {

    private final RepositorySystem system;
    private final RepositorySystemSession session;
    private final List<RemoteRepository> repositories;
    private final Log log;

    BaselineArtifact(RepositorySystem system, RepositorySystemSession session, List<RemoteRepository> repositories,
            Log log) {
        this.system = system;
        this.session = session;
        this.repositories = repositories == null ? List.of() : repositories;
        this.log = log;
    }

    /**
     * The parsed coordinates: group, artifact, version, classifier (default {@value CheckMojo#REPORT_CLASSIFIER}).
     *
     * @throws MojoExecutionException one line naming the parameter and the form it takes
     */
    static DefaultArtifact coordinates(String text) throws MojoExecutionException {
        String value = text.strip();
        String[] parts = value.split(":", -1);
        boolean blank = false;
        for (String part : parts) {
            blank |= part.isBlank();
        }
        if (parts.length < 3 || parts.length > 4 || blank) {
            throw new MojoExecutionException("baselineArtifact '" + value + "' is not groupId:artifactId:version"
                    + "[:classifier] (e.g. com.example:app:1.4.0, classifier default " + CheckMojo.REPORT_CLASSIFIER
                    + ")");
        }
        String version = parts[2].strip();
        String upper = version.toUpperCase(Locale.ROOT);
        if (version.matches(".*[\\[\\](),].*") || upper.equals("LATEST") || upper.equals("RELEASE")) {
            throw new MojoExecutionException("baselineArtifact '" + value + "' names the version '" + version
                    + "': give one exact version (e.g. 1.4.0), not a range, LATEST or RELEASE");
        }
        return new DefaultArtifact(parts[0].strip(), parts[1].strip(),
                parts.length == 4 ? parts[3].strip() : CheckMojo.REPORT_CLASSIFIER, "json", version);
    }

    /**
     * The baseline options for the artifact: its resolved file, named by its coordinates; without a file when it does
     * not exist and {@code ignoreMissing} is set (the core then compares nothing; one INFO line here).
     *
     * @throws MojoExecutionException bad coordinates; an artifact that does not exist (without {@code ignoreMissing})
     *                                or cannot be resolved, naming it and {@code ignoreMissingBaseline}
     */
    BaselineOptions options(String text, String maxGrowth, boolean ignoreMissing) throws MojoExecutionException {
        DefaultArtifact artifact = coordinates(text);
        String label = artifact.getGroupId() + ":" + artifact.getArtifactId() + ":" + artifact.getVersion() + ":"
                + artifact.getClassifier();
        try {
            ArtifactResult result = system.resolveArtifact(session, new ArtifactRequest(artifact, repositories, null));
            Path file = result.getArtifact().getFile().toPath();
            log.info("Baseline: " + label + " (" + file + ")");
            return new BaselineOptions(file, maxGrowth, ignoreMissing, label);
        } catch (ArtifactResolutionException e) {
            if (!missing(e)) {
                throw new MojoExecutionException("baselineArtifact " + label + " (type json) could not be resolved: "
                        + e.getMessage(), e);
            }
            if (ignoreMissing) {
                log.info("Baseline " + label + " (type json) does not exist in the repositories: nothing to compare "
                        + "with (a first release?); ignoreMissingBaseline is set, so the check goes on without one");
                return new BaselineOptions(null, maxGrowth, true, label);
            }
            throw new MojoExecutionException("baselineArtifact " + label + " (type json) does not exist in the "
                    + "repositories (" + repositories.stream().map(RemoteRepository::getId).toList() + " and the "
                    + "local one): check the version, publish it with attachReport, or set -D"
                    + PropertyNames.IGNORE_MISSING_BASELINE + "=true where there is none yet (a first release)", e);
        }
    }

    /** True when every failed request found no such artifact (rather than a broken transfer or repository). */
    private static boolean missing(ArtifactResolutionException e) {
        List<ArtifactResult> results = e.getResults();
        if (results == null || results.isEmpty()) {
            return false;
        }
        for (ArtifactResult result : results) {
            if (result.isResolved()) {
                continue;
            }
            if (result.getExceptions().isEmpty() || !result.getExceptions().stream()
                    .allMatch(problem -> problem instanceof ArtifactNotFoundException)) {
                return false;
            }
        }
        return true;
    }

    /** A path as the reports name it: relative to the project's base directory when under it. */
    static String relative(MavenProject project, Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        if (project == null || project.getBasedir() == null) {
            return absolute.toString();
        }
        Path base = project.getBasedir().toPath().toAbsolutePath().normalize();
        return absolute.startsWith(base) ? base.relativize(absolute).toString() : absolute.toString();
    }
}
