package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.scan.JarInput;
import io.github.cudastackbudget.core.scan.JarScanOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;

/**
 * What the {@code aggregate} goal scans: the union of every reactor module's inputs, each attributed to the module
 * ({@code groupId:artifactId:version}): the module's file sets (its build directory with the default library patterns,
 * or {@code libraries} resolved against the module), its own JAR ({@code scanProjectJar}) and its dependency JARs
 * ({@code scanDependencies}). A JAR several modules depend on is read once, attributed to its artifact and to the
 * modules that depend on it ({@code com.example:kernels:1.0 (dependency of com.example:app:1.0)}).
 *
 * <p>A module nested in another's directory comes first, so that a file both match belongs to the nested (more
 * specific) module; otherwise the reactor order is kept (the same under {@code -T}: it is the sorted reactor, not the
 * order modules finish in).
 *
 * @param modules      the modules' coordinates, in reactor order
 * @param fileSets     the file sets of every module, each owned by its module
 * @param jarScan      the JARs of every module
 * @param modulesOf    per "used by" value the modules a library with it counts for
 * @param lookedIn     per module where its libraries were looked for, for the line of a module without any
 */
record ReactorInputs(List<String> modules, List<FileSetSpec> fileSets, JarScanOptions jarScan,
        Map<String, List<String>> modulesOf, Map<String, String> lookedIn) {

    ReactorInputs {
        modules = List.copyOf(modules);
        fileSets = List.copyOf(fileSets);
        modulesOf = Map.copyOf(modulesOf);
        lookedIn = Map.copyOf(lookedIn);
    }

    /**
     * The inputs of {@code projects} for the shared scan parameters.
     *
     * @param root the reactor's root (relative directories in log lines are relative to its base directory)
     * @param info receives informational lines (a module's JAR is not built yet)
     * @throws MojoExecutionException an unknown dependency scope
     */
    static ReactorInputs of(List<MavenProject> projects, MavenProject root, MavenScanSupport.Parameters parameters,
            Consumer<String> info) throws MojoExecutionException {
        List<String> modules = new ArrayList<>();
        Map<String, List<String>> modulesOf = new LinkedHashMap<>();
        Map<String, String> lookedIn = new LinkedHashMap<>();
        List<FileSetSpec> fileSets = new ArrayList<>();
        List<JarInput> ownJars = new ArrayList<>();
        // a dependency JAR: its artifact and the modules that depend on it, in reactor order
        Map<Path, String> dependencyArtifacts = new LinkedHashMap<>();
        Map<Path, Set<String>> dependents = new LinkedHashMap<>();
        Set<Path> ownJarFiles = new LinkedHashSet<>();
        Path base = root.getBasedir().toPath();
        for (MavenProject project : nestedFirst(projects)) {
            String module = coordinates(project);
            modulesOf.put(module, List.of(module));
            List<FileSetSpec> sets = MavenScanSupport.fileSets(project, parameters.libraries(), module);
            fileSets.addAll(sets);
            lookedIn.put(module, sets.stream().map(set -> relative(base, set.directory())).distinct()
                    .reduce((a, b) -> a + ", " + b).orElse(""));
            JarScanOptions jars = new MavenScanSupport(project, line -> info.accept(module + ": " + line))
                    .jarScan(parameters);
            for (JarInput jar : jars.jars()) {
                Path file = jar.jar().toAbsolutePath().normalize();
                if (jar.usedBy().equals(module)) {
                    ownJars.add(new JarInput(file, module));
                    ownJarFiles.add(file);
                } else {
                    dependencyArtifacts.putIfAbsent(file, jar.usedBy());
                    dependents.computeIfAbsent(file, key -> new LinkedHashSet<>()).add(module);
                }
            }
        }
        for (MavenProject project : projects) {
            modules.add(coordinates(project));
        }
        List<JarInput> jars = new ArrayList<>(ownJars);
        for (Map.Entry<Path, String> dependency : dependencyArtifacts.entrySet()) {
            if (ownJarFiles.contains(dependency.getKey())) {
                continue; // a reactor module's JAR that another module depends on: read once, as the module's
            }
            List<String> users = List.copyOf(dependents.get(dependency.getKey()));
            String usedBy = dependency.getValue() + " (dependency of " + String.join(", ", users) + ")";
            jars.add(new JarInput(dependency.getKey(), usedBy));
            modulesOf.put(usedBy, users);
        }
        List<String> includes = parameters.jarIncludes() == null ? List.of() : parameters.jarIncludes();
        List<String> excludes = parameters.jarExcludes() == null ? List.of() : parameters.jarExcludes();
        return new ReactorInputs(modules, fileSets, new JarScanOptions(jars, includes, excludes), modulesOf, lookedIn);
    }

    /** The modules without a library among {@code scans}, in reactor order. */
    List<String> withoutLibraries(List<LibraryScan> scans) {
        Set<String> found = new LinkedHashSet<>();
        for (LibraryScan scan : scans) {
            found.addAll(modulesOf.getOrDefault(scan.usedBy(), List.of()));
        }
        return modules.stream().filter(module -> !found.contains(module)).toList();
    }

    /**
     * One line per library label that files of more than one module carry ({@code libnative.so} built by two
     * modules): the reports name libraries by label, so they cannot tell those apart. In reactor order of the label's
     * first file.
     */
    static List<String> sharedLabels(List<LibraryScan> scans) {
        Map<String, Set<String>> owners = new LinkedHashMap<>();
        for (LibraryScan scan : scans) {
            for (String label : scan.libraries()) {
                owners.computeIfAbsent(label, key -> new LinkedHashSet<>()).add(scan.usedBy());
            }
        }
        List<String> lines = new ArrayList<>();
        owners.forEach((label, users) -> {
            if (users.size() > 1) {
                lines.add(label + " is the name of libraries of " + String.join(" and ", users) + ": the reports name "
                        + "libraries by file name, so their kernels are listed under one name and attributed to the "
                        + "first; rename one of them to tell them apart");
            }
        });
        return lines;
    }

    /** The module a library's "used by" names: the module, or the modules a dependency JAR is used by. */
    String modulesNamed(String usedBy) {
        return String.join(", ", modulesOf.getOrDefault(usedBy, List.of()));
    }

    /** {@code groupId:artifactId:version}. */
    static String coordinates(MavenProject project) {
        return project.getGroupId() + ":" + project.getArtifactId() + ":" + project.getVersion();
    }

    /** Projects whose base directory lies inside another's come before it (deepest first); else reactor order. */
    private static List<MavenProject> nestedFirst(List<MavenProject> projects) {
        List<MavenProject> ordered = new ArrayList<>(projects);
        ordered.sort(Comparator.comparingInt((MavenProject project) -> -depth(project)));
        return ordered;
    }

    private static int depth(MavenProject project) {
        return project.getBasedir() == null ? 0 : project.getBasedir().toPath().toAbsolutePath().normalize()
                .getNameCount();
    }

    private static String relative(Path base, Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        Path from = base.toAbsolutePath().normalize();
        return absolute.startsWith(from) ? (from.equals(absolute) ? "." : from.relativize(absolute).toString())
                : absolute.toString();
    }
}
