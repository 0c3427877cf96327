package io.github.cudastackbudget.maven;

import java.util.HashSet;
import java.util.Set;
import org.eclipse.aether.SessionData;

/**
 * The reactor projects that have reached a bound {@code aggregate} execution, kept in the session's data (one Maven
 * session, shared by the threads of a parallel build): the goal acts once, when the last expected project reaches it,
 * as maven-deploy-plugin's {@code deployAtEnd} does. Under {@code -T} projects finish out of order, so what counts is the
 * set of projects that arrived, never the order. The set is a JDK type, so that projects whose plugin class realms
 * differ (other plugin dependencies) still share it.
 */
final class ReactorCompletion {

    /** The set's element that says the last project has been told to act (no project id starts with a NUL). */
    private static final String COMPLETED = "\0completed";

    private ReactorCompletion() {
    }

    /**
     * One project reached the execution.
     *
     * @param data     the session's data (the repository session's {@code getData()})
     * @param key      the execution's key in it (the plugin and execution id)
     * @param project  the project that arrived ({@code groupId:artifactId})
     * @param expected every project that has the execution (including {@code project})
     * @return true exactly once per session and key: for the arrival that completes {@code expected}
     */
    static boolean arrive(SessionData data, String key, String project, Set<String> expected) {
        Set<String> reached = reached(data, key);
        synchronized (reached) {
            reached.add(project);
            if (reached.contains(COMPLETED) || !reached.containsAll(expected)) {
                return false;
            }
            reached.add(COMPLETED);
            return true;
        }
    }

    /** How many of {@code expected} have arrived so far. */
    static int count(SessionData data, String key, Set<String> expected) {
        Set<String> reached = reached(data, key);
        synchronized (reached) {
            return (int) expected.stream().filter(reached::contains).count();
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<String> reached(SessionData data, String key) {
        while (true) {
            Object present = data.get(key);
            if (present != null) {
                return (Set<String>) present;
            }
            // compare-and-set: of threads arriving at once, one installs the set and every thread uses it
            data.set(key, null, new HashSet<String>());
        }
    }
}
