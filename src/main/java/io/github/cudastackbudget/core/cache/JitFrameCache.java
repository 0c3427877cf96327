package io.github.cudastackbudget.core.cache;

import io.github.cudastackbudget.core.text.Printable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The content cache of JIT frames: what ptxas gave for one PTX module compiled for one target by one ptxas version,
 * one small text file per key under {@code jit/} of the kernel cache's directory. Key: the SHA-256 of the PTX bytes,
 * the target ({@code sm_120}) and the ptxas version ({@code 13.0.88}); any difference is another file. Entries are
 * written atomically (a temporary file moved over the name); an unusable entry is one warning and is recompiled; an
 * unwritable directory is one warning for the whole check. Called from several threads.
 */
public final class JitFrameCache {

    /** The layout version written in every entry. */
    public static final int VERSION = 1;
    static final String SUFFIX = ".jit";
    private static final long MAX_ENTRY_BYTES = 64L << 20;

    /**
     * One kernel's figures as ptxas printed them.
     *
     * @param name         the mangled name
     * @param frame        bytes per thread
     * @param stackUnknown ptxas could not determine the stack (recursion)
     * @param registers    registers per thread, -1 when not printed
     */
    public record Frame(String name, long frame, boolean stackUnknown, int registers) {
    }

    /**
     * What a cached compilation is valid for.
     *
     * @param ptxHash      SHA-256 of the PTX bytes, hex
     * @param target       the ptxas target ({@code sm_120})
     * @param ptxasVersion ptxas's version ({@code 13.0.88})
     */
    public record Key(String ptxHash, String target, String ptxasVersion) {
        /** The key of {@code ptx} (position to limit). */
        public static Key of(ByteBuffer ptx, String target, String ptxasVersion) {
            MessageDigest digest = ContentHash.sha256();
            digest.update(ptx.duplicate());
            return new Key(HexFormat.of().formatHex(digest.digest()), target, ptxasVersion);
        }

        String text() {
            return "format=" + VERSION + "\nptx=" + ptxHash + "\ntarget=" + target + "\nptxas=" + ptxasVersion + "\n";
        }

        String fileName() {
            return HexFormat.of().formatHex(ContentHash.sha256().digest(text().getBytes(StandardCharsets.UTF_8)))
                    + SUFFIX;
        }
    }

    private final Path directory;
    private final Consumer<String> warn;
    private final String remedy;
    private final AtomicInteger hits = new AtomicInteger();
    private final AtomicInteger misses = new AtomicInteger();
    private final AtomicBoolean unwritable = new AtomicBoolean();

    /**
     * @param cacheDirectory the kernel cache's directory; entries go to its {@code jit/} folder
     * @param warn           receives the warnings
     * @param remedy         what the user can do about an unwritable directory
     */
    public JitFrameCache(Path cacheDirectory, Consumer<String> warn, String remedy) {
        this.directory = cacheDirectory.toAbsolutePath().normalize().resolve("jit");
        this.warn = warn;
        this.remedy = remedy;
    }

    public Path directory() {
        return directory;
    }

    /** The frames stored under {@code key}; empty (a miss) when there is none or it is unusable (then a warning). */
    public Optional<List<Frame>> load(Key key) {
        Path file = directory.resolve(key.fileName());
        if (!Files.isRegularFile(file)) {
            misses.incrementAndGet();
            return Optional.empty();
        }
        String text;
        try {
            if (Files.size(file) > MAX_ENTRY_BYTES) {
                return unusable(file, "larger than " + MAX_ENTRY_BYTES + " bytes");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            misses.incrementAndGet();
            return Optional.empty();
        } catch (IOException e) {
            return unusable(file, "cannot be read: " + Printable.of(String.valueOf(e.getMessage()), 200));
        }
        if (!text.startsWith(key.text()) || !text.endsWith("end\n")) {
            return unusable(file, "of another key or layout, or truncated");
        }
        List<Frame> frames = new ArrayList<>();
        String body = text.substring(key.text().length(), text.length() - "end\n".length());
        for (String line : body.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            try {
                if (fields.length != 4 || fields[0].isEmpty()) {
                    throw new NumberFormatException("4 fields expected");
                }
                long frame = Long.parseLong(fields[1]);
                int registers = Integer.parseInt(fields[3]);
                if (frame < 0 || !(fields[2].equals("0") || fields[2].equals("1"))) {
                    throw new NumberFormatException("bad value");
                }
                frames.add(new Frame(fields[0], frame, fields[2].equals("1"), registers));
            } catch (NumberFormatException e) {
                return unusable(file, "line '" + Printable.of(line, 80) + "' is not name, frame, unknown, registers");
            }
        }
        hits.incrementAndGet();
        return Optional.of(List.copyOf(frames));
    }

    private Optional<List<Frame>> unusable(Path file, String why) {
        warn.accept("JIT frame cache entry " + file + " is unusable (" + why + "): ignored, the module is compiled again");
        misses.incrementAndGet();
        return Optional.empty();
    }

    /** Stores the frames under {@code key}; a failure is one warning for the whole check. */
    public void store(Key key, List<Frame> frames) {
        if (unwritable.get()) {
            return;
        }
        StringBuilder text = new StringBuilder(key.text());
        for (Frame frame : frames) {
            if (frame.name().indexOf('\t') >= 0 || frame.name().indexOf('\n') >= 0) {
                return; // not representable: such a module is simply compiled again next time
            }
            text.append(frame.name()).append('\t').append(frame.frame()).append('\t')
                    .append(frame.stackUnknown() ? '1' : '0').append('\t').append(frame.registers()).append('\n');
        }
        text.append("end\n");
        String why = AtomicFiles.write(directory, key.fileName(), text.toString().getBytes(StandardCharsets.UTF_8));
        if (why != null) {
            unwritable(why);
        }
    }

    private void unwritable(String why) {
        if (unwritable.compareAndSet(false, true)) {
            warn.accept("JIT frame cache directory " + directory + " cannot be written (" + why + "): the check goes "
                    + "on without storing JIT frames; " + remedy);
        }
    }

    public int hits() {
        return hits.get();
    }

    public int misses() {
        return misses.get();
    }
}
