package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.LaunchedFigures;
import io.github.cudastackbudget.core.budget.LaunchedImage;
import io.github.cudastackbudget.core.budget.LibraryFigures;
import io.github.cudastackbudget.core.budget.Violation;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.launch.LaunchedKernel;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.launch.MatchedKernel;
import io.github.cudastackbudget.core.model.FrameOrigin;
import io.github.cudastackbudget.core.model.KernelRecord;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.selection.FunctionChoice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * Builds the {@link ReportModel} of a check result: the records every output formats. The figures come from the
 * budget code (reservations, the what-if, each library's worst kernel); this class only chooses and names them.
 */
final class ReportModelBuilder {

    /**
     * The order of {@code kernels} within one function (library and name equal): arch, frame. Across functions it is
     * the index's own order, by library, then name ({@link KernelRecord.FunctionKey}).
     */
    private static final Comparator<KernelRecord> IMAGE_ORDER = Comparator.comparing(KernelRecord::arch)
            .thenComparingLong(KernelRecord::stackForRanking);

    private final CheckResult result;
    /** The row of each record already built (by identity): the devices' lists hold the same records as the table. */
    private final Map<KernelRecord, KernelRow> built = new java.util.IdentityHashMap<>();

    ReportModelBuilder(CheckResult result) {
        this.result = result;
    }

    ReportModel model() {
        // library, name, arch, frame, as one stable sort of every record would order them: the index holds the
        // functions in (library, name) order already, so only each function's few images are sorted (issue 11: the
        // sort of all of them compared the equal library and name strings of a function's images in full, on the
        // check's critical path)
        List<KernelRecord> records = new ArrayList<>(result.index().recordCount());
        for (List<KernelRecord> images : result.index().imagesByFunction().values()) {
            if (images.size() < 2) {
                records.addAll(images);
            } else {
                List<KernelRecord> sorted = new ArrayList<>(images);
                sorted.sort(IMAGE_ORDER);
                records.addAll(sorted);
            }
        }
        // issue 11: the devices' lists reuse the table's rows (the same records): one row and one name lookup each
        List<KernelRow> kernels = rows(records);
        for (int i = 0; i < records.size(); i++) {
            built.put(records.get(i), kernels.get(i));
        }
        List<ViolationReport> violations = result.violations().stream().map(this::violation).toList();
        return new ReportModel(ReportModel.SCHEMA_VERSION, result.engine(), result.deviceOrigin().phrase(),
                result.filesProbed(), libraries(), result.devices().stream().map(d -> device(d, violations)).toList(),
                kernels, violations, result.warnings(), launched(), result.scans().size(),
                result.unreadable().stream().map(u -> new ReportModel.Unreadable(u.source(), u.offset(), u.problem()))
                        .toList(), result.checks()).withSuppressed(suppressed());
    }

    // gate (issue 12): the kernels suppressions took out of the verdicts
    private List<SuppressedRow> suppressed() {
        return result.suppressed().stream().map(kernel -> new SuppressedRow(kernel.device(), row(kernel.image()),
                kernel.reservationBytes(), kernel.entry().index(), kernel.entry().kernel().text(),
                kernel.entry().reason(), kernel.entry().until() == null ? null : kernel.entry().until().toString()))
                .toList();
    }

    private List<LibraryReport> libraries() {
        List<LibraryReport> libraries = new ArrayList<>();
        for (LibraryScan scan : result.scans()) {
            boolean foundThroughLibraryLog = result.launched() != null && result.launched().fromLibraryLog(scan.path());
            for (String library : scan.libraries()) {
                LibraryFigures figures = LibraryFigures.of(scan, library);
                libraries.add(new LibraryReport(scan.path().toString(), library, figures.functions(), figures.records(),
                        labels(scan.sassArchesOf(library), false), labels(scan.ptxArchesOf(library), true),
                        figures.maxStack(), row(figures.worstWithFrame()), scan.usedBy(), foundThroughLibraryLog,
                        scan.platform(), result.gated(scan)));
            }
        }
        return libraries;
    }

    private DeviceReport device(DeviceResult device, List<ViolationReport> violations) {
        DeviceSpec spec = device.device();
        DeviceResult.WhatIf whatIf = device.whatIf();
        return new DeviceReport(spec.name(), spec.presetId(), spec.capability().dotted(), spec.capability().smName(),
                spec.maxResidentThreads(), spec.multiProcessorCount() == null ? null
                        : spec.multiProcessorCount().longValue(), spec.memoryBytes(), spec.source(),
                Verdict.of(device.status().id()), device.skipReason(),
                device.chosenArch() == null ? null : device.chosenArch().sassLabel(), device.fellBack(),
                new TreeMap<>(device.imageCounts()), device.reservationBytes(), device.staticReservationBytes(),
                device.incrementBytes(), device.budgetBytes(), row(device.headlineWorst()), row(device.worstLocal()),
                whatIf == null ? null : row(whatIf.nextWorst()), whatIf == null ? null : whatIf.reservationBytes(),
                rows(device.selected()), rows(device.unknownStack()), notes(device.jit()), notes(device.cannotRun()),
                notes(device.ambiguous()), violations.stream().filter(v -> v.device().equals(spec.name())).toList(),
                launched(device), spec.maxThreadsPerMultiProcessor() == null ? null
                        : spec.maxThreadsPerMultiProcessor().longValue(), device.platforms().stream()
                        .map(p -> new PlatformReport(p.platform(), p.gated(), Verdict.of(p.status().id()),
                                p.reservationBytes(), row(p.worst()))).toList());
    }

    private LaunchedDeviceReport launched(DeviceResult device) {
        LaunchedFigures launched = device.launched();
        if (launched == null) {
            return null;
        }
        boolean driverFrames = result.launched() != null
                && result.launched().log().format() == io.github.cudastackbudget.core.launch.LaunchLog.Format.AGENT_V2;
        List<LaunchedKernelRow> kernels = new ArrayList<>();
        for (LaunchedImage image : launched.kernels()) {
            kernels.add(new LaunchedKernelRow(row(image.image()), image.launch().maxDynamicShared(),
                    image.sharedPerBlock(), List.copyOf(image.launch().attributions()),
                    driverFrames ? image.source().id() : null, driver(image.launch().driver())));
        }
        List<DriverDifferenceRow> differences = launched.driverDifferences().stream()
                .map(difference -> new DriverDifferenceRow(row(difference.image()), driver(difference.driver())))
                .toList();
        return new LaunchedDeviceReport(launched.headline(), launched.reservationBytes(), launched.incrementBytes(),
                row(launched.worst()), row(device.worst()), kernels, notes(launched.jit()), notes(launched.cannotRun()),
                driverFrames, differences, launched.driverOtherArch().stream().map(LaunchedKernel::name).toList());
    }

    private static DriverFrameRow driver(io.github.cudastackbudget.core.launch.DriverFrame frame) {
        return frame == null ? null : new DriverFrameRow(frame.localBytes(), frame.registers(), frame.sharedBytes(),
                frame.arch() == null ? null : frame.arch().sassLabel());
    }

    private LaunchedRunReport launched() {
        LaunchedRun run = result.launched();
        if (run == null) {
            return null;
        }
        List<MatchedLaunch> matched = new ArrayList<>();
        for (MatchedKernel kernel : run.match().matched()) {
            matched.add(new MatchedLaunch(entry(kernel.kernel()), kernel.libraries(), kernel.notLoadedIn()));
        }
        return new LaunchedRunReport(run.log().file().toString(), run.log().format().label(),
                run.log().statusSummary(), run.headline(),
                run.libraryLog() == null ? null : run.libraryLog().file().toString(), run.kernelCount(),
                run.match().matched().size(), run.match().unmatched().size(),
                run.libraryLog() == null ? 0 : run.libraryLog().libraries().size(), strings(run.scannedFromLibraryLog()),
                strings(run.libraryLogNotHere()), matched, run.match().unmatched().stream().map(this::entry).toList());
    }

    private LaunchEntry entry(LaunchedKernel kernel) {
        return new LaunchEntry(kernel.name(), result.displayName(kernel.name()), List.copyOf(kernel.attributions()),
                kernel.maxDynamicShared(), driver(kernel.driver()));
    }

    private ViolationReport violation(Violation violation) {
        KernelRecord kernel = violation.kernel();
        return new ViolationReport(violation.device(), violation.kind(), violation.actual(), violation.limit(),
                kernel.name(), result.displayName(kernel), kernel.library(), kernel.arch().sassLabel()
                        + (kernel.origin().isStatic() ? "" : " " + kernel.origin().label()));
    }

    private List<FunctionNote> notes(List<FunctionChoice> choices) {
        List<FunctionNote> notes = new ArrayList<>(choices.size());
        for (FunctionChoice choice : choices) {
            String name = choice.function().name();
            notes.add(new FunctionNote(name, result.displayName(name), choice.function().library(),
                    choice.jitFrom() == null ? null : choice.jitFrom().ptxLabel(),
                    choice.chosen() == null ? null : choice.chosen().arch().sassLabel(), choice.chosen() == null
                            ? List.of() : choice.alternatives().stream().map(k -> k.arch().sassLabel()).toList()));
        }
        return notes;
    }

    private List<KernelRow> rows(List<KernelRecord> records) {
        return records.stream().map(this::row).toList();
    }

    /** A record as the report shows it (an UNKNOWN frame reads 0), or null. */
    private KernelRow row(KernelRecord record) {
        if (record == null) {
            return null;
        }
        KernelRow row = built.get(record);
        return row != null ? row : newRow(record);
    }

    private KernelRow newRow(KernelRecord record) {
        FrameOrigin origin = record.origin();
        return new KernelRow(record.name(), result.displayName(record), record.library(), record.arch().sassLabel(),
                record.registers(), record.stackUnknown() ? 0 : record.stack(), record.stackUnknown(), record.shared(),
                record.local(), origin.source().id(), origin.ptx() == null ? null : origin.ptx().ptxLabel(),
                origin.tool());
    }

    private static List<String> labels(SortedSet<GpuArch> arches, boolean ptx) {
        return arches.stream().map(arch -> ptx ? arch.ptxLabel() : arch.sassLabel()).toList();
    }

    private static List<String> strings(Collection<Path> paths) {
        return paths.stream().map(Path::toString).toList();
    }
}
