package io.github.cudastackbudget.core.cache;

import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.text.Printable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The content cache of kernel reads: one file per read ({@link EntryFormat}), named by its {@link CacheKey}, in one
 * directory that any number of builds may share.
 *
 * <p>Where: {@code ${XDG_CACHE_HOME:-~/.cache}/cuda-stack-budget} on Linux and macOS,
 * {@code %LOCALAPPDATA%\cuda-stack-budget\cache} on Windows, unless configured. Nothing is ever evicted; deleting the
 * directory clears it, at any time (a build running then only misses).
 *
 * <p>Safety: an entry is written to a temporary file in the same directory and moved over its name atomically, so
 * readers see a whole entry or none, and of two writers of one key the last wins (both wrote the same content). An
 * entry that is corrupt, truncated, of another layout or of another key is ignored with one warning naming it, and
 * rewritten. A directory that cannot be created or written is one warning, and the check goes on without storing; the
 * cache never fails a check. Called from several reading threads at once.
 */
public final class KernelCache {

    /** The directory's name under the user's cache folder. */
    public static final String DIRECTORY_NAME = "cuda-stack-budget";

    private final Path directory;
    private final Consumer<String> warn;
    private final String remedy;
    private final AtomicInteger hits = new AtomicInteger();
    private final AtomicInteger misses = new AtomicInteger();
    private final AtomicBoolean unwritable = new AtomicBoolean();

    /**
     * @param directory where the entries are (created on the first store)
     * @param warn      receives the warnings (one line each)
     * @param remedy    what the user can do about an unwritable directory, as the front end says it ("set another
     *                  cacheDirectory or -DcudaStackBudget.useCache=false")
     */
    public KernelCache(Path directory, Consumer<String> warn, String remedy) {
        this.directory = directory.toAbsolutePath().normalize();
        this.warn = warn;
        this.remedy = remedy;
    }

    /** A cache whose warnings name no option. */
    public KernelCache(Path directory, Consumer<String> warn) {
        this(directory, warn, "set another cache directory or turn the cache off");
    }

    /** The default directory of this user, by the process's environment and system properties. */
    public static Path defaultDirectory() {
        return defaultDirectory(System.getenv(), System.getProperty("os.name", ""),
                System.getProperty("user.home", "."));
    }

    /**
     * The default directory: on Windows {@code %LOCALAPPDATA%\cuda-stack-budget\cache} (else under the home's
     * {@code AppData\Local}), elsewhere {@code $XDG_CACHE_HOME/cuda-stack-budget} when that is an absolute path, else
     * {@code ~/.cache/cuda-stack-budget}.
     */
    public static Path defaultDirectory(Map<String, String> environment, String osName, String userHome) {
        if (osName.toLowerCase(Locale.ROOT).startsWith("windows")) {
            String local = environment.get("LOCALAPPDATA");
            Path base = local != null && !local.isBlank() ? Path.of(local)
                    : Path.of(userHome, "AppData", "Local");
            return base.resolve(DIRECTORY_NAME).resolve("cache");
        }
        String xdg = environment.get("XDG_CACHE_HOME");
        // the XDG base directory specification: a relative path is invalid and is ignored
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(userHome, ".cache");
        return base.resolve(DIRECTORY_NAME);
    }

    public Path directory() {
        return directory;
    }

    /**
     * The scan stored under {@code key}, for the read of {@code path}; empty (a miss) when there is none or it is
     * unusable (then with a warning).
     */
    public Optional<LibraryScan> load(CacheKey key, Path path, long startNanos) {
        Path file = directory.resolve(key.fileName());
        byte[] entry;
        if (!Files.isRegularFile(file)) {
            // no entry, or no directory yet (an unwritable one is the store's one warning)
            misses.incrementAndGet();
            return Optional.empty();
        }
        try {
            long size = Files.size(file);
            if (size > EntryFormat.MAX_ENTRY_BYTES) {
                warn.accept("Kernel cache entry " + file + " is " + size + " bytes, more than an entry may hold: "
                        + "ignored, it is rewritten");
                misses.incrementAndGet();
                return Optional.empty();
            }
            entry = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            misses.incrementAndGet();
            return Optional.empty();
        } catch (IOException e) {
            warn.accept("Kernel cache entry " + file + " cannot be read (" + Printable.of(String.valueOf(
                    e.getMessage()), 200) + "): ignored, the library is read again");
            misses.incrementAndGet();
            return Optional.empty();
        }
        try {
            LibraryScan scan = EntryFormat.read(entry, key, path, (System.nanoTime() - startNanos) / 1_000_000);
            hits.incrementAndGet();
            return Optional.of(scan);
        } catch (EntryFormat.Corrupt e) {
            warn.accept("Kernel cache entry " + file + " is unusable (" + e.getMessage() + "): ignored, it is "
                    + "rewritten");
            misses.incrementAndGet();
            return Optional.empty();
        }
    }

    /** Stores the scan under {@code key}; a failure is one warning for the whole check, never an error. */
    public void store(CacheKey key, LibraryScan scan) {
        if (unwritable.get()) {
            return;
        }
        byte[] entry = EntryFormat.write(key, scan);
        if (entry.length > EntryFormat.MAX_ENTRY_BYTES) {
            return;
        }
        String why = AtomicFiles.write(directory, key.fileName(), entry);
        if (why != null) {
            unwritable(why);
        }
    }

    private void unwritable(String why) {
        if (unwritable.compareAndSet(false, true)) {
            warn.accept("Kernel cache directory " + directory + " cannot be written (" + why + "): the check goes on "
                    + "without storing reads; " + remedy);
        }
    }

    public int hits() {
        return hits.get();
    }

    public int misses() {
        return misses.get();
    }

    /** The INFO line of one check: {@code Kernel cache: 3 hit(s), 1 miss(es) in /home/me/.cache/cuda-stack-budget}. */
    public String summary() {
        return "Kernel cache: " + hits() + " hit(s), " + misses() + " miss(es) in " + directory;
    }

    /**
     * The plugin's version (from its JAR's Maven metadata), part of the native engine's key; for a snapshot or a build
     * from class folders, also the modification time of the code, so that a rebuilt snapshot never meets entries of
     * the code before.
     */
    public static String pluginVersion() {
        return PluginVersion.TEXT;
    }

    private static final class PluginVersion {
        static final String TEXT = compute();

        private static String compute() {
            String version = "unknown";
            try (InputStream in = KernelCache.class.getResourceAsStream(
                    "/META-INF/maven/io.github.cudastackbudget/cuda-stack-budget-maven-plugin/pom.properties")) {
                if (in != null) {
                    Properties properties = new Properties();
                    properties.load(in);
                    version = properties.getProperty("version", version);
                }
            } catch (IOException e) {
                // stays unknown
            }
            if (version.equals("unknown") || version.endsWith("-SNAPSHOT")) {
                try {
                    java.net.URL location = KernelCache.class.getProtectionDomain().getCodeSource().getLocation();
                    Path code = Path.of(location.toURI());
                    if (Files.isDirectory(code)) {
                        // a class folder: the newest of the engine classes stands for the build
                        code = code.resolve("io/github/cudastackbudget/core/engine/NativeEngine.class");
                    }
                    version += " built " + Files.getLastModifiedTime(code).toMillis();
                } catch (Exception e) {
                    version += " built at an unknown time";
                }
            }
            return version;
        }
    }
}
