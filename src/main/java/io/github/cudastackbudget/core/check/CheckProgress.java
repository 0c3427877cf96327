package io.github.cudastackbudget.core.check;

/**
 * Where the stages report progress and warnings as they go (the front ends' {@code CheckProgress} is one). Called from
 * several threads.
 */
public interface CheckProgress {

    void info(String line);

    void warn(String line);

    /** What only someone finding out where the time goes wants (the Maven log's debug level); dropped by default. */
    default void debug(String line) {
    }
}
