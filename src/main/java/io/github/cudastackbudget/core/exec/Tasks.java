package io.github.cudastackbudget.core.exec;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/** Work the check starts on a thread of its own while it goes on, and joins later. */
public final class Tasks {

    private Tasks() {
    }

    /** Runs each task on a new daemon thread of this name (a build never waits for it to end). */
    public static Executor daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            thread.start();
        };
    }

    /** The task's value; its failure thrown as it was thrown there (an unchecked exception or an error). */
    public static <T> T join(CompletableFuture<T> task) {
        try {
            return task.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
