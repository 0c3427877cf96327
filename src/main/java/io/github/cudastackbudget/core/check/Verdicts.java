package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.budget.BudgetEvaluator;
import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.budget.Exclusion;
import io.github.cudastackbudget.core.budget.JitFrameLookup;
import io.github.cudastackbudget.core.budget.PlatformWorst;
import io.github.cudastackbudget.core.device.DeviceTarget;
import io.github.cudastackbudget.core.launch.LaunchedRun;
import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.model.PlatformSelection;
import io.github.cudastackbudget.core.selection.KernelIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Stage 4: each device's verdict against its budgets, in configuration order, over the libraries of the gated
 * platforms ({@link PlatformSelection}); where libraries of several platforms were read
 * ({@link PlatformSelection#several}), each device also over each platform's libraries alone (the per-platform
 * breakdown the reports show, every platform present a row).
 */
final class Verdicts {

    private Verdicts() {
    }

    /**
     * @param scans    every library read
     * @param index    the index of every library read
     * @param launched what a recorded run launched, or null for the static check
     * @throws CheckProblem a budget that cannot be resolved (a percentage for a device of unknown memory)
     */
    static List<DeviceResult> evaluate(CheckRequest request, List<LibraryScan> scans, KernelIndex index,
            LaunchedRun launched) throws CheckProblem {
        return evaluate(request, scans, index, launched, JitFrameLookup.NONE);
    }

    /** The verdicts, counting the JIT frames computed ({@link JitFrames}) for functions a device JIT-compiles. */
    static List<DeviceResult> evaluate(CheckRequest request, List<LibraryScan> scans, KernelIndex index,
            LaunchedRun launched, JitFrameLookup jitFrames) throws CheckProblem {
        return evaluate(request, scans, index, launched, jitFrames, Exclusion.NONE);
    }

    /** The verdicts without the functions {@code exclusion} takes out of a device's verdict (suppressions). */
    static List<DeviceResult> evaluate(CheckRequest request, List<LibraryScan> scans, KernelIndex index,
            LaunchedRun launched, JitFrameLookup jitFrames, Exclusion exclusion) throws CheckProblem {
        BudgetEvaluator evaluator = new BudgetEvaluator(request.defaultMaxReservation(), request.maxStackPerThread(),
                jitFrames, exclusion);
        BudgetEvaluator.Launched launchedFunctions = launched == null ? null
                : new BudgetEvaluator.Launched(launched.launchedFunctions(), launched.headline(),
                        launched.match().unmatched());
        PlatformSelection selection = request.platforms();
        List<LibraryScan> gated = scans.stream().filter(selection::gates).toList();
        KernelIndex judged = judged(selection, scans, index);
        java.util.SortedSet<String> platforms = new java.util.TreeSet<>();
        scans.forEach(scan -> platforms.add(scan.platform()));
        SortedMap<String, KernelIndex> byPlatform = breakdown(scans, platforms);
        List<DeviceTarget> targets = request.devices();
        int threads = Math.min(targets.size(), Math.max(1, request.parallelism()));
        if (threads <= 1) {
            List<DeviceResult> devices = new ArrayList<>();
            for (DeviceTarget target : targets) {
                devices.add(device(evaluator, judged, target, launchedFunctions, gated, scans, platforms, byPlatform,
                        selection));
            }
            return devices;
        }
        // the devices are independent: one thread each (the index is read-only), results in the configured order, and
        // the first device in that order that fails decides the error, whatever finished first
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads,
                runnable -> {
                    Thread thread = new Thread(runnable, "cuda-stack-budget-verdicts");
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            List<java.util.concurrent.Future<DeviceResult>> futures = new ArrayList<>(targets.size());
            for (DeviceTarget target : targets) {
                futures.add(pool.submit(() -> device(evaluator, judged, target, launchedFunctions, gated, scans,
                        platforms, byPlatform, selection)));
            }
            List<DeviceResult> devices = new ArrayList<>(targets.size());
            for (java.util.concurrent.Future<DeviceResult> future : futures) {
                devices.add(future.get());
            }
            return devices;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof CheckProblem problem) {
                throw problem;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CheckProblem("interrupted while judging the devices", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static DeviceResult device(BudgetEvaluator evaluator, KernelIndex judged, DeviceTarget target,
            BudgetEvaluator.Launched launchedFunctions, List<LibraryScan> gated, List<LibraryScan> scans,
            java.util.SortedSet<String> platforms, SortedMap<String, KernelIndex> byPlatform,
            PlatformSelection selection) throws CheckProblem {
        try {
            DeviceResult device = evaluator.evaluate(judged, target, launchedFunctions);
            if (gated.isEmpty() && !scans.isEmpty()) {
                device = device.withSkipReason("no library of the gated platforms (" + selection + ") was read: "
                        + "the " + scans.size() + " file(s) read are of " + String.join(", ", platforms)
                        + " and not judged");
            }
            if (!byPlatform.isEmpty()) {
                List<PlatformWorst> breakdown = new ArrayList<>();
                for (var entry : byPlatform.entrySet()) {
                    DeviceResult alone = evaluator.evaluate(entry.getValue(), target, null);
                    breakdown.add(new PlatformWorst(entry.getKey(), selection.gates(entry.getKey()),
                            alone.status(), alone.staticReservationBytes(), alone.worst()));
                }
                device = device.withPlatforms(breakdown);
            }
            return device;
        } catch (InvalidValueException e) {
            throw new CheckProblem(e.getMessage(), e);
        }
    }

    /**
     * Each platform's index, for the per-platform breakdown, where the reports show one
     * ({@link PlatformSelection#several}); else empty (issue 11: with one platform this indexed the same records a
     * second time, a third of the stage on a large library).
     */
    static SortedMap<String, KernelIndex> breakdown(List<LibraryScan> scans, java.util.Set<String> platforms) {
        SortedMap<String, KernelIndex> byPlatform = new TreeMap<>();
        if (PlatformSelection.several(platforms)) {
            for (String platform : platforms) {
                byPlatform.put(platform, KernelIndex.of(scans.stream()
                        .filter(scan -> scan.platform().equals(platform)).toList()));
            }
        }
        return byPlatform;
    }

    /** The index of the gated libraries: {@code index} itself when every library read is gated. */
    static KernelIndex judged(PlatformSelection selection, List<LibraryScan> scans, KernelIndex index) {
        List<LibraryScan> gated = scans.stream().filter(selection::gates).toList();
        return gated.size() == scans.size() ? index : KernelIndex.of(gated);
    }

    /**
     * The INFO line for libraries that are read but not judged, or null when every library read is gated.
     */
    static String notGated(PlatformSelection selection, List<LibraryScan> scans) {
        List<LibraryScan> left = scans.stream().filter(scan -> !selection.gates(scan)).toList();
        if (left.isEmpty()) {
            return null;
        }
        List<String> platforms = left.stream().map(LibraryScan::platform).distinct().sorted().toList();
        return left.size() + " file(s) with device code of " + (platforms.size() == 1 ? "platform " : "platforms ")
                + String.join(", ", platforms) + " are read and reported but not judged against the budgets (gated "
                + "platforms: " + selection + ")";
    }
}
