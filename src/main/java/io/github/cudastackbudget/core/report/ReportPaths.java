package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.report.model.LaunchedRunReport;
import io.github.cudastackbudget.core.report.model.LibraryReport;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * Report paths relative to the project: every file path a report names (a library's file, the launch and library
 * logs, the libraries found through the library log, device code that could not be read) becomes relative to the
 * base directory when it lies under it ({@code target/native/libx.so}), and stays as it was otherwise (a dependency
 * JAR in the local repository, a system library). Library labels (file names, {@code app.jar!/lib/x.so}) are no paths
 * and stay. Separators are {@code /} on every system, so reports compare across machines.
 */
public final class ReportPaths {

    private ReportPaths() {
    }

    /** The model with its paths relative to {@code base} where under it; the model itself for a null base. */
    public static ReportModel relativeTo(ReportModel model, Path base) {
        if (base == null) {
            return model;
        }
        Path root = base.toAbsolutePath().normalize();
        List<LibraryReport> libraries = model.libraries().stream().map(library -> new LibraryReport(
                relative(library.path(), root), library.library(), library.kernels(), library.records(),
                library.sassArches(), library.ptxArches(), library.maxStack(), library.worstKernel(), library.usedBy(),
                library.foundThroughLibraryLog(), library.platform(), library.gated())).toList();
        LaunchedRunReport run = model.launched();
        LaunchedRunReport launched = run == null ? null : new LaunchedRunReport(relative(run.log(), root),
                run.format(), run.status(), run.headline(), run.libraryLog() == null ? null
                        : relative(run.libraryLog(), root), run.kernels(), run.matched(), run.unmatched(),
                run.librariesLoaded(), relative(run.foundThroughLibraryLog(), root),
                relative(run.notOnThisMachine(), root), run.matchedKernels(), run.unmatchedKernels());
        List<ReportModel.Unreadable> unreadable = model.unreadable().stream().map(file -> new ReportModel.Unreadable(
                relative(file.path(), root), file.offset(), file.problem())).toList();
        return new ReportModel(model.schemaVersion(), model.engine(), model.deviceOrigin(), model.filesProbed(),
                libraries, model.devices(), model.kernels(), model.violations(), model.warnings(), launched,
                model.filesWithDeviceCode(), unreadable, model.checks(), model.baseline())
                // gate (issue 12): the suppressed kernels name no path
                .withSuppressed(model.suppressed());
    }

    private static List<String> relative(List<String> paths, Path root) {
        return paths.stream().map(path -> relative(path, root)).toList();
    }

    /**
     * {@code path} relative to {@code root} with {@code /} separators when it is absolute and under it (a JAR entry's
     * {@code app.jar!/lib/x.so} by its JAR); else unchanged.
     */
    static String relative(String path, Path root) {
        int entry = path.indexOf("!/");
        String file = entry < 0 ? path : path.substring(0, entry);
        String rest = entry < 0 ? "" : path.substring(entry);
        Path candidate;
        try {
            candidate = Path.of(file);
        } catch (InvalidPathException e) {
            return path;
        }
        if (!candidate.isAbsolute()) {
            return path;
        }
        Path normalized = candidate.normalize();
        if (!normalized.startsWith(root) || normalized.equals(root)) {
            return path;
        }
        StringBuilder relative = new StringBuilder();
        for (Path part : root.relativize(normalized)) {
            if (relative.length() > 0) {
                relative.append('/');
            }
            relative.append(part);
        }
        return relative + rest;
    }
}
