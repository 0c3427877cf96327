import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A build step (issue 11), run by the build as a single-file program ({@code java src/build/StoreClasses.java JAR})
 * after the shade plugin: rewrites the plugin jar with its class files stored instead of deflated, everything else
 * as it was, in the same order with the same times.
 *
 * <p>Why: every build loads the plugin's classes afresh, and inflating them was about a sixth of that loading (the
 * classes of a cached re-check: 85 of them, 14 ms of its 23 ms; {@code dev/results/bench-cold-2026-12-06.md}). The
 * jar grows from about 15 MB to about 23 MB; the native libraries of zstd-jni and lz4-java, most of its size, stay
 * deflated.
 */
public final class StoreClasses {

    private StoreClasses() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java StoreClasses.java JAR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path temporary = jar.resolveSibling(jar.getFileName() + ".tmp");
        int stored = 0;
        try (ZipFile in = new ZipFile(jar.toFile());
                ZipOutputStream out = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(temporary),
                        1 << 16))) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                byte[] bytes;
                try (InputStream content = in.getInputStream(entry)) {
                    bytes = content.readAllBytes();
                }
                ZipEntry copy = new ZipEntry(entry);
                if (entry.getName().endsWith(".class")) {
                    CRC32 crc = new CRC32();
                    crc.update(bytes);
                    copy.setMethod(ZipEntry.STORED);
                    copy.setSize(bytes.length);
                    copy.setCompressedSize(bytes.length);
                    copy.setCrc(crc.getValue());
                    stored++;
                } else {
                    copy.setMethod(ZipEntry.DEFLATED);
                    copy.setCompressedSize(-1); // deflated anew: the size follows the bytes written
                }
                out.putNextEntry(copy);
                out.write(bytes);
                out.closeEntry();
            }
        }
        Files.move(temporary, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("StoreClasses: " + stored + " class files of " + jar.getFileName() + " stored, "
                + Files.size(jar) + " bytes");
    }
}
