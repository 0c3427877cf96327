package io.github.cudastackbudget.core.cache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The content hashes of unchanged files, remembered (issue 11: a re-check of libtorch_cuda.so spent most of its time
 * reading its 456 MB again to hash them). Under {@code <cacheDirectory>/hashes}, one small file per input path holds
 * the file's size, modification time, status-change time (ctime), inode and device at the time it was hashed, and
 * its {@link ContentHash}. The hash is served again only while all five are unchanged.
 *
 * <p>Why that is safe: every write to a file, and every change of its times, sets its ctime to the current time, and
 * nothing but the kernel can set a ctime (unlike the modification time, which {@code touch} or an archive can set). A
 * file replaced by another gets a new ctime and mostly a new inode. As git's index does for "racily clean" files, a
 * hash is remembered only when the file's modification and change times are at least {@value #RACY_SECONDS} seconds
 * older than the moment the read began (a write in the same clock tick as the hashing would not show in the times),
 * and only when the five values read before and after hashing are equal. Where the file system has no ctime (the
 * {@code unix} attribute view: Windows), nothing is remembered and every file is hashed. A memo that cannot be read
 * or is corrupt is ignored and rewritten; one that cannot be written is skipped silently (the cache's own writes warn).
 */
public final class HashMemo {

    /** The folder under the cache directory. */
    public static final String SUBDIRECTORY = "hashes";

    static final int RACY_SECONDS = 2;

    private static final String MAGIC = "cuda-stack-budget hash memo 1";

    private final Path directory;
    private final long racyNanos;

    /** A memo under {@code cacheDirectory/hashes}; with a null directory, every file is hashed. */
    public HashMemo(Path cacheDirectory) {
        this(cacheDirectory, TimeUnit.SECONDS.toNanos(RACY_SECONDS));
    }

    HashMemo(Path cacheDirectory, long racyNanos) {
        this.directory = cacheDirectory == null ? null : cacheDirectory.resolve(SUBDIRECTORY);
        this.racyNanos = racyNanos;
    }

    /** A hash, and whether it was remembered (the file was not read). */
    public record Hash(String value, boolean remembered) {
    }

    /**
     * The {@link ContentHash} of a file: remembered where the file is unchanged, else read with up to
     * {@code threads} threads (and remembered for the next time where that is safe).
     *
     * @throws IOException when the file cannot be read
     */
    public Hash of(Path file, int threads) throws IOException {
        Snapshot before = snapshot(file);
        String remembered = remembered(before);
        if (remembered != null) {
            return new Hash(remembered, true);
        }
        String hash = ContentHash.of(file, threads);
        remember(before, hash);
        return new Hash(hash, false);
    }

    /**
     * A file as it is now, taken before its bytes are read: for {@link #remembered} and, once the bytes read are
     * known to have a hash, {@link #remember}.
     *
     * @param status its status (null where there is no memo or no ctime: nothing is remembered)
     * @param taken  when it was taken (nanoseconds since the epoch)
     */
    public record Snapshot(Path file, Status status, long taken) {
    }

    /** Takes a snapshot of the file (its status and the time); a file that does not exist is an exception. */
    public Snapshot snapshot(Path file) throws IOException {
        Status status = directory == null ? null : Status.of(file);
        return new Snapshot(file, status, epochNanos(FileTime.fromMillis(System.currentTimeMillis())));
    }

    /** The hash remembered for the file in the snapshot's state, or null (nothing was read). */
    public String remembered(Snapshot snapshot) {
        return snapshot.status() == null ? null : lookup(memo(snapshot.file()), snapshot.file(), snapshot.status());
    }

    /**
     * Remembers {@code hash} as the hash of the bytes read after the snapshot was taken, where that is safe: the file
     * was at least {@value #RACY_SECONDS} s old then, and its status is still the snapshot's.
     */
    public void remember(Snapshot snapshot, String hash) throws IOException {
        Status before = snapshot.status();
        if (before != null && before.olderThan(snapshot.taken() - racyNanos) && before.equals(Status.of(snapshot.file()))) {
            Path file = snapshot.file();
            byte[] text = (MAGIC + "\n" + file.toAbsolutePath().normalize() + "\n" + before.line() + "\n" + hash + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            AtomicFiles.write(directory, memo(file).getFileName().toString(), text); // a failure costs a later read
        }
    }

    private Path memo(Path file) {
        return directory.resolve(name(file));
    }

    /** Size, modification and change times (nanoseconds since the epoch), inode and device of a file. */
    public record Status(long size, long modified, long changed, long inode, long device) {

        /** The status, or null where the file system does not give a change time. */
        static Status of(Path file) throws IOException {
            Map<String, Object> attributes;
            try {
                attributes = Files.readAttributes(file, "unix:size,lastModifiedTime,ctime,ino,dev");
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                return null;
            }
            Object size = attributes.get("size");
            Object modified = attributes.get("lastModifiedTime");
            Object changed = attributes.get("ctime");
            Object inode = attributes.get("ino");
            Object device = attributes.get("dev");
            if (!(size instanceof Long s) || !(modified instanceof FileTime m) || !(changed instanceof FileTime c)
                    || !(inode instanceof Long i) || !(device instanceof Long d)) {
                return null;
            }
            return new Status(s, epochNanos(m), epochNanos(c), i, d);
        }

        boolean olderThan(long nanos) {
            return modified < nanos && changed < nanos;
        }

        String line() {
            return size + " " + modified + " " + changed + " " + inode + " " + device;
        }
    }

    private static long epochNanos(FileTime time) {
        return time.to(TimeUnit.NANOSECONDS);
    }

    /** The remembered hash, or null when there is none for exactly this file in this state. */
    private static String lookup(Path memo, Path file, Status status) {
        String text;
        try {
            if (!Files.isRegularFile(memo) || Files.size(memo) > 64 * 1024) {
                return null;
            }
            text = Files.readString(memo, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        String[] lines = text.split("\n", -1);
        if (lines.length != 5 || !lines[0].equals(MAGIC) || !lines[1].equals(file.toAbsolutePath().normalize().toString())
                || !lines[2].equals(status.line()) || !lines[4].isEmpty() || !lines[3].matches("[0-9a-f]{64}")) {
            return null;
        }
        return lines[3];
    }

    private static String name(Path file) {
        byte[] path = file.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8);
        return HexFormat.of().formatHex(ContentHash.sha256().digest(path)) + ".hash";
    }
}
