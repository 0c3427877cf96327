package io.github.cudastackbudget.core.cache;

import io.github.cudastackbudget.core.text.Printable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The one way the caches store an entry: written to a temporary file in the same directory and moved over its name
 * atomically, so that readers (other builds, other {@code -T} modules) see a whole entry or none.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /**
     * Writes {@code bytes} as {@code directory/name}.
     *
     * @return null when written, else why the directory cannot be written (for the cache's one warning)
     */
    public static String write(Path directory, String name, byte[] bytes) {
        Path temporary = null;
        try {
            Files.createDirectories(directory);
            temporary = Files.createTempFile(directory, name + ".", ".tmp");
            try (OutputStream out = Files.newOutputStream(temporary)) {
                out.write(bytes);
            }
            Files.move(temporary, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            temporary = null;
            return null;
        } catch (AtomicMoveNotSupportedException e) {
            return "its file system cannot replace files atomically";
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return e.getClass().getSimpleName() + ": " + Printable.of(String.valueOf(e.getMessage()), 200);
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException e) {
                    // left behind; a later clean of the directory removes it
                }
            }
        }
    }
}
