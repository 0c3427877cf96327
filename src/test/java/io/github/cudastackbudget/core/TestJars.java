package io.github.cudastackbudget.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** JAR files of real test binaries for the tests, entries alternately stored and deflated, timestamps 0. */
public final class TestJars {

    private TestJars() {
    }

    /** Writes {@code jar} with each entry name holding the bytes of its file, in map order; returns {@code jar}. */
    public static Path jar(Path jar, Map<String, Path> entries) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(file)) {
            boolean stored = true;
            for (Map.Entry<String, Path> entry : entries.entrySet()) {
                byte[] bytes = Files.readAllBytes(entry.getValue());
                ZipEntry zipEntry = new ZipEntry(entry.getKey());
                zipEntry.setTime(0);
                if (stored) {
                    zipEntry.setMethod(ZipEntry.STORED);
                    zipEntry.setSize(bytes.length);
                    CRC32 crc = new CRC32();
                    crc.update(bytes);
                    zipEntry.setCrc(crc.getValue());
                }
                stored = !stored;
                zip.putNextEntry(zipEntry);
                zip.write(bytes);
                zip.closeEntry();
            }
        }
        return jar;
    }
}
