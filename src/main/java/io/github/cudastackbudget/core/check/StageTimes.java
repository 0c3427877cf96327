package io.github.cudastackbudget.core.check;

import java.util.ArrayList;
import java.util.List;

/**
 * The wall time of each named stage of one run, for a debug line (where a cold check's time goes: issue 11). Not
 * thread-safe: one per run, marked from the thread that runs the stages.
 */
public final class StageTimes {

    private final String title;
    private final List<String> parts = new ArrayList<>();
    private final long start = System.nanoTime();
    private long last = start;

    public StageTimes(String title) {
        this.title = title;
    }

    /** Ends the stage that began at the previous mark (or at construction). */
    public void mark(String stage) {
        long now = System.nanoTime();
        parts.add(stage + " " + (now - last) / 1_000_000 + " ms");
        last = now;
    }

    /** One line: the title, every stage in order, and the total. */
    public String line() {
        return title + ": " + String.join(", ", parts) + " (total " + (last - start) / 1_000_000 + " ms)";
    }
}
