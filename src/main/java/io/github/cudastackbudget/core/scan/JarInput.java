package io.github.cudastackbudget.core.scan;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A JAR (or any ZIP) whose native-library entries are scanned in place.
 *
 * @param jar    the archive
 * @param usedBy who ships it (a Maven artifact's coordinates), for the "used by" listing; may be empty
 */
public record JarInput(Path jar, String usedBy) {

    public JarInput {
        Objects.requireNonNull(jar, "jar");
        usedBy = usedBy == null ? "" : usedBy;
    }

    // written out in the generated one's form (issue 11): it is part of the check-result cache's key, and the
    // generated toString bootstraps through method handles, about 50 ms in a build's cold JVM
    @Override
    public String toString() {
        return "JarInput[jar=" + jar + ", usedBy=" + usedBy + "]";
    }
}
