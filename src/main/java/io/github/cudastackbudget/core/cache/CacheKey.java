package io.github.cudastackbudget.core.cache;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What a cached read is valid for: the same bytes (size and {@link ContentHash}), under the same name (the library
 * labels are the file name or the JAR entry's label), read by the same engine at the same version. Any difference is
 * another key, so a changed file, another toolkit or another plugin release never meets an old entry.
 *
 * @param engine        the engine id ({@code native}, {@code cuobjdump})
 * @param engineVersion what identifies the engine's output: the native reader's version and the plugin's; cuobjdump's
 *                      {@code --version} text and its executable's content hash
 * @param name          the name the library labels start with: the file name, or the JAR entry's label
 * @param size          the content's size in bytes
 * @param contentHash   {@link ContentHash} of the content
 */
public record CacheKey(String engine, String engineVersion, String name, long size, String contentHash) {

    public CacheKey {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(engineVersion, "engineVersion");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(contentHash, "contentHash");
    }

    /** The key as stored inside the entry and compared on read (one field a line). */
    public String text() {
        return "format=" + EntryFormat.VERSION + "\nengine=" + oneLine(engine) + "\nversion=" + oneLine(engineVersion)
                + "\nname=" + oneLine(name) + "\nsize=" + size + "\ncontent=" + contentHash + "\n";
    }

    /** The entry's file name: the SHA-256 of {@link #text()}, in hex, with {@code .scan}. */
    public String fileName() {
        return HexFormat.of().formatHex(ContentHash.sha256().digest(text().getBytes(StandardCharsets.UTF_8)))
                + EntryFormat.SUFFIX;
    }

    private static String oneLine(String value) {
        return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }
}
