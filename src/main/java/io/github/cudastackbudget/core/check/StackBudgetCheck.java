package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.Exclusion;
import io.github.cudastackbudget.core.gate.SuppressedKernel;
import io.github.cudastackbudget.core.cache.KernelCache;
import io.github.cudastackbudget.core.text.Option;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.selection.KernelIndex;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.scan.JarEntryLibrary;
import io.github.cudastackbudget.core.scan.JarInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Maven-free pipeline, stage by stage: {@link Inputs} (which files and JAR entries hold device code),
 * {@link KernelReads} (their kernels), {@link LaunchedKernels} (what a recorded run launched), {@link JitFrames} (the frames of
 * what a device JIT-compiles, from ptxas), {@link Verdicts} (each
 * device against its budgets, without the kernels the suppressions of {@link GateStage} take out), the rules of
 * {@link GateStage} over the verdicts, with {@link CheckWarnings} collecting what the user should know. Writing reports and
 * deciding whether to fail is the caller's.
 */
public final class StackBudgetCheck {

    private StackBudgetCheck() {
    }

    /**
     * Runs the check.
     *
     * @throws CheckProblem for misuse or broken inputs, with one line that names the file, value or tool
     */
    public static CheckResult run(CheckRequest request, CheckProgress listener) throws CheckProblem {
        CheckWarnings warnings = new CheckWarnings(listener);
        // gate (issue 12): the suppressions file and the rules are parsed before anything is scanned
        StageTimes times = new StageTimes("Check stages");
        GateStage gate = GateStage.prepare(request);
        Inputs inputs = Inputs.find(request, warnings, listener);
        times.mark("inputs");
        if (inputs.isEmpty() && request.launch() == null) {
            return CheckResult.noDeviceCode(inputs.filesProbed(), request.deviceOrigin(), warnings.lines());
        }
        Engines engines = new Engines(request.engine(), request.frontend(), new CachedReads(
                request.cacheDirectory() == null ? null : new KernelCache(request.cacheDirectory(), listener::warn,
                        "set another " + request.frontend().name(Option.CACHE_DIRECTORY) + " or "
                                + request.frontend().howToSet(Option.USE_CACHE, "false"))));
        long start = System.nanoTime();
        KernelReads.Unreadable unreadable = new KernelReads.Unreadable(request, warnings);
        List<LibraryScan> read = KernelReads.read(request, inputs, engines, listener, unreadable);
        LaunchedKernels launched = LaunchedKernels.match(request.launch(), inputs, read, engines, listener, warnings);
        long scanMillis = (System.nanoTime() - start) / 1_000_000;
        times.mark("read");
        if (io.github.cudastackbudget.core.binary.ReadProfile.ENABLED) {
            listener.debug(io.github.cudastackbudget.core.binary.ReadProfile.line());
        }
        engines.reads().summary().ifPresent(listener::info);
        engines.warnings().forEach(warnings::warn);
        List<LibraryScan> scans = launched.scans();
        LaunchedRun run = launched.run();
        if (scans.isEmpty() && run == null) {
            return CheckResult.noDeviceCode(inputs.filesProbed(), request.deviceOrigin(), warnings.lines())
                    .withUnreadable(unreadable.found());
        }
        inputs.relocatable().forEach(warnings::relocatable);
        // the demangler (external tools, fed every name) runs while the index is built, the JIT frames are computed and
        // the devices are judged: none of them needs readable names. Its warnings wait until it ends, so the JIT-frame
        // stage's warnings come first, as they would with no overlap
        List<String> demanglerWarnings = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.CompletableFuture<Map<String, String>> names = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> request.demangler().displayNames(functionNames(scans, run), demanglerWarnings::add),
                        io.github.cudastackbudget.core.exec.Tasks.daemon("cuda-stack-budget-names"));
        List<DeviceResult> devices;
        KernelIndex index;
        JitFrames jitFrames;
        java.util.concurrent.CompletableFuture<String> jitHint = null;
        try {
            index = KernelIndex.of(scans);
            times.mark("index");
            // with jitFrames off the stage only says which functions would be JIT-compiled: found while the devices
            // are judged, and logged after them (nothing logs in between: the order of the lines is unchanged)
            if (scans.isEmpty()) {
                jitFrames = JitFrames.NONE;
            } else if (request.jit().mode() == JitOptions.Mode.OFF && !gate.suppresses()) {
                KernelIndex indexed = index;
                jitHint = java.util.concurrent.CompletableFuture.supplyAsync(() -> JitFrames.offHint(request, indexed),
                        io.github.cudastackbudget.core.exec.Tasks.daemon("cuda-stack-budget-jit-hint"));
                jitFrames = JitFrames.NONE;
            } else {
                jitFrames = JitFrames.compute(request, inputs, scans, index, listener, warnings);
            }
            times.mark("jit frames");
            // gate (issue 12): suppressions match readable names too, so with some the names come first
            Exclusion exclusion = gate.suppresses()
                    ? gate.exclusion(index, request, joinWarning(names, demanglerWarnings, warnings))
                    : Exclusion.NONE;
            devices = scans.isEmpty() ? List.of() : Verdicts.evaluate(request, scans, index, run, jitFrames, exclusion);
            times.mark("verdicts");
            if (jitHint != null) {
                String hint = io.github.cudastackbudget.core.exec.Tasks.join(jitHint);
                if (hint != null) {
                    listener.info(hint);
                }
            }
        } finally {
            if (jitHint != null) {
                jitHint.handle((value, failure) -> value).join();
            }
            names.handle((value, failure) -> value).join(); // the demangler never outlives the check
        }
        Map<String, String> displayNames = joinWarning(names, demanglerWarnings, warnings);
        times.mark("names");
        if (run != null) {
            warnings.launched(run, displayNames);
        }
        String notGated = Verdicts.notGated(request.platforms(), scans);
        if (notGated != null) {
            listener.info(notGated);
        }
        // judged as the verdicts are: a device that runs no SASS of the gated libraries is no error when it runs the others'
        warnings.devices(devices, Verdicts.judged(request.platforms(), scans, index), displayNames,
                request.deviceOrigin());
        warnings.driverDifferences(devices, displayNames);
        CheckResult result = new CheckResult(inputs.filesProbed(), scans, index, displayNames, devices,
                request.deviceOrigin(), warnings.lines(), engines.description(), scanMillis, run, unreadable.found(),
                request.platforms());
        // gate (issue 12): the suppressed kernels and a check per suppression entry, then the rules over the verdicts
        if (gate != GateStage.NONE) {
            List<SuppressedKernel> suppressed = gate.suppressed(devices);
            result = result.withSuppressed(suppressed).withChecks(gate.checks(result, suppressed, listener));
        }
        times.mark("warnings and gate");
        listener.debug(times.line());
        return result;
    }

    /**
     * What the first stage ({@link Inputs}) finds, for the check-result cache (issue 11): a text naming every input
     * with its probe and owner, and the files whose bytes decide the result (the files with device code and the JARs
     * searched).
     *
     * @param text  one line per input, the count of files probed first
     * @param files the files to hash, in discovery order
     * @param empty no file or JAR entry holds device code (the check has nothing to read)
     */
    public record InputFingerprint(String text, List<Path> files, boolean empty) {
        public InputFingerprint {
            files = List.copyOf(files);
        }
    }

    /**
     * Finds the inputs as {@link #run} does, without reading kernels or warning.
     *
     * @throws CheckProblem a configured input that does not exist or cannot be read (as {@link #run} would)
     */
    public static InputFingerprint fingerprint(CheckRequest request) throws CheckProblem {
        CheckProgress silent = new CheckProgress() {
            @Override
            public void info(String line) {
            }

            @Override
            public void warn(String line) {
            }
        };
        Inputs inputs = Inputs.find(request, new CheckWarnings(silent), silent);
        StringBuilder text = new StringBuilder("probed=" + inputs.filesProbed() + "\njars=" + inputs.jars() + "\n");
        List<Path> files = new ArrayList<>();
        for (DeviceCodeProbe probe : inputs.files()) {
            text.append("file=").append(probe).append("\towner=").append(inputs.owner(probe.file(), request.usedBy()))
                    .append('\n');
            files.add(probe.file());
        }
        for (JarEntryLibrary entry : inputs.jarEntries()) {
            text.append("entry=").append(entry).append('\n');
        }
        for (JarInput jar : request.jarScan().jars()) {
            text.append("jar=").append(jar).append('\n');
            files.add(jar.jar());
        }
        return new InputFingerprint(text.toString(), files, inputs.isEmpty());
    }

    /** The names as they end, the demangler's warnings logged once (the first call) after the stages before them. */
    private static Map<String, String> joinWarning(java.util.concurrent.CompletableFuture<Map<String, String>> names,
            List<String> pending, CheckWarnings warnings) {
        Map<String, String> value = io.github.cudastackbudget.core.exec.Tasks.join(names);
        synchronized (pending) {
            pending.forEach(warnings::warn);
            pending.clear();
        }
        return value;
    }

    /**
     * The mangled name of every function {@link KernelIndex#of} indexes (each record's, each PTX entry's of a scan that
     * lists them) and of every launched kernel no library holds: what the reports show readable.
     */
    static Set<String> functionNames(List<LibraryScan> scans, LaunchedRun run) {
        Set<String> names = new HashSet<>();
        for (LibraryScan scan : scans) {
            for (io.github.cudastackbudget.core.model.KernelRecord record : scan.records()) {
                names.add(record.name());
            }
            if (scan.ptxEntriesKnown()) {
                for (String library : scan.libraries()) {
                    for (io.github.cudastackbudget.core.arch.GpuArch target : scan.ptxArchesOf(library)) {
                        names.addAll(scan.ptxEntriesOf(library, target));
                    }
                }
            }
        }
        if (run != null) {
            run.match().unmatched().forEach(kernel -> names.add(kernel.name()));
        }
        return names;
    }
}
