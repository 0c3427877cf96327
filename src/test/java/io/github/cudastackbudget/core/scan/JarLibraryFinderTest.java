package io.github.cudastackbudget.core.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JAR entries found by pattern and read in place, over a real nvcc-built library (target/test-cuda). */
class JarLibraryFinderTest {

    private static final Path LIBRARY = Path.of("target/test-cuda/libframes.so");

    @TempDir
    static Path temp;

    private static byte[] library;
    private static Path jar;

    @BeforeAll
    static void buildJar() throws IOException {
        assertThat(LIBRARY).as("built by src/test/cuda/build-test-binaries.sh").exists();
        library = Files.readAllBytes(LIBRARY);
        jar = temp.resolve("app-1.0.jar");
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
            zip.write("Manifest-Version: 1.0\n".getBytes());
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("native/linux-x86_64/"));
            zip.closeEntry();
            putStored(zip, "native/linux-x86_64/libframes.so", library);
            zip.putNextEntry(new ZipEntry("native/linux-x86_64/libframes-deflated.so.1"));
            zip.write(library);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("libtop.so"));
            zip.write(library);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("io/example/App.class"));
            zip.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
            zip.closeEntry();
        }
    }

    private static void putStored(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(bytes.length);
        entry.setCompressedSize(bytes.length);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        entry.setCrc(crc.getValue());
        zip.putNextEntry(entry);
        zip.write(bytes);
        zip.closeEntry();
    }

    @Test
    void findsLibraryEntriesByTheDefaultPatternsIncludingTopLevelOnes() throws Exception {
        List<JarEntryLibrary> found = JarLibraryFinder.find(new JarInput(jar, "io.example:app:1.0"), List.of(), List.of());

        assertThat(found).extracting(JarEntryLibrary::entryName).containsExactly("libtop.so",
                "native/linux-x86_64/libframes-deflated.so.1", "native/linux-x86_64/libframes.so");
        assertThat(found).extracting(JarEntryLibrary::usedBy).containsOnly("io.example:app:1.0");
        assertThat(found.get(2).label()).isEqualTo("app-1.0.jar!/native/linux-x86_64/libframes.so");
        assertThat(found.get(2).stored()).isTrue();
        assertThat(found.get(1).stored()).isFalse();
        assertThat(found).extracting(JarEntryLibrary::size).containsOnly((long) library.length);
    }

    @Test
    void storedEntriesAreMappedInPlaceAndDeflatedOnesInflatedWithIdenticalBytes() throws Exception {
        for (JarEntryLibrary entry : JarLibraryFinder.find(new JarInput(jar, ""), List.of(), List.of())) {
            ByteBuffer bytes = entry.read();
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            assertThat(copy).as(entry.entryName()).isEqualTo(library);
        }
    }

    @Test
    void includesAndExcludesApplyToEntryNames() throws Exception {
        List<JarEntryLibrary> found = JarLibraryFinder.find(new JarInput(jar, ""), List.of("native/**/*.so*"),
                List.of("**/*-deflated*"));

        assertThat(found).extracting(JarEntryLibrary::entryName).containsExactly("native/linux-x86_64/libframes.so");
    }

    /** A Spring-Boot-style JAR: the library inside a stored nested JAR, and inside a deflated one. */
    @Test
    void entriesOfNestedJarsAreFoundAndReadInPlace() throws Exception {
        java.io.ByteArrayOutputStream nested = new java.io.ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(nested)) {
            putStored(zip, "native/libframes.so", library);
            zip.putNextEntry(new ZipEntry("native/libframes-deflated.so"));
            zip.write(library);
            zip.closeEntry();
        }
        Path boot = temp.resolve("boot-app.jar");
        try (OutputStream file = Files.newOutputStream(boot); ZipOutputStream zip = new ZipOutputStream(file)) {
            putStored(zip, "BOOT-INF/lib/kernels-1.0.jar", nested.toByteArray());
            zip.putNextEntry(new ZipEntry("WEB-INF/lib/deflated-1.0.jar"));
            zip.write(nested.toByteArray());
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("fixtures/not-a-zip.jar"));
            zip.write("a resource that only looks like a JAR".getBytes());
            zip.closeEntry();
        }

        List<JarEntryLibrary> found = JarLibraryFinder.find(new JarInput(boot, "io.example:boot:1.0"), List.of(),
                List.of());

        assertThat(found).extracting(JarEntryLibrary::label).containsExactly(
                "boot-app.jar!/BOOT-INF/lib/kernels-1.0.jar!/native/libframes-deflated.so",
                "boot-app.jar!/BOOT-INF/lib/kernels-1.0.jar!/native/libframes.so",
                "boot-app.jar!/WEB-INF/lib/deflated-1.0.jar!/native/libframes-deflated.so",
                "boot-app.jar!/WEB-INF/lib/deflated-1.0.jar!/native/libframes.so");
        for (JarEntryLibrary entry : found) {
            ByteBuffer bytes = entry.read();
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            assertThat(copy).as(entry.label()).isEqualTo(library);
        }
    }

    @Test
    void aJarWithoutCandidatesIsListedWithoutStartingCommonsCompress() throws Exception {
        Path plain = temp.resolve("plain-1.0.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(plain))) {
            zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
            zip.write("Manifest-Version: 1.0\n".getBytes());
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("native/"));
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("io/example/App.class"));
            zip.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("native/libexcluded.so"));
            zip.write(library);
            zip.closeEntry();
        }
        String zipFile = "org.apache.commons.compress.archivers.zip.ZipFile";
        // the finder in a class loader of its own (as Maven loads a plugin), to see what it loads
        try (FreshLoader fresh = new FreshLoader()) {
            assertThat(findIn(fresh, plain, List.of("native/libexcluded.so"))).isEqualTo(0);
            assertThat(fresh.loaded(zipFile)).as("commons-compress for a JAR without candidates").isFalse();

            assertThat(findIn(fresh, plain, List.of())).isEqualTo(1);
            assertThat(fresh.loaded(zipFile)).as("commons-compress for a JAR with a library").isTrue();
        }
        assertThat(JarLibraryFinder.find(new JarInput(plain, ""), List.of(), List.of("**/libexcluded.so"))).isEmpty();
    }

    /** How many entries the finder loaded by {@code loader} finds in {@code jar}, excluding {@code excludes}. */
    private static int findIn(ClassLoader loader, Path jar, List<String> excludes) throws Exception {
        Class<?> input = loader.loadClass(JarInput.class.getName());
        Object jarInput = input.getConstructor(Path.class, String.class).newInstance(jar, "");
        Object found = loader.loadClass(JarLibraryFinder.class.getName()).getMethod("find", input, List.class,
                List.class).invoke(null, jarInput, List.of(), excludes);
        return ((List<?>) found).size();
    }

    /** The plugin's classes, plexus-utils and commons-compress with its dependencies, under the platform loader. */
    private static final class FreshLoader extends URLClassLoader {
        FreshLoader() throws Exception {
            super(new URL[] {location(JarLibraryFinder.class), location(org.codehaus.plexus.util.SelectorUtils.class),
                    location(org.apache.commons.compress.archivers.zip.ZipFile.class),
                    location(org.apache.commons.io.IOUtils.class),
                    location(org.apache.commons.lang3.StringUtils.class)}, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }

        private static URL location(Class<?> type) {
            return type.getProtectionDomain().getCodeSource().getLocation();
        }
    }

    @Test
    void aMissingJarIsOneClearError() {
        Path missing = temp.resolve("gone.jar");
        assertThatThrownBy(() -> JarLibraryFinder.find(new JarInput(missing, "g:a:1"), List.of(), List.of()))
                .isInstanceOf(LibraryDiscovery.DiscoveryException.class)
                .hasMessageContaining("gone.jar").hasMessageContaining("g:a:1").hasMessageContaining("does not exist");
    }

    @Test
    void aFileThatIsNotAZipIsOneClearError() throws IOException {
        Path notZip = temp.resolve("not-a.jar");
        Files.write(notZip, library, java.nio.file.StandardOpenOption.CREATE);
        assertThatThrownBy(() -> JarLibraryFinder.find(new JarInput(notZip, ""), List.of(), List.of()))
                .isInstanceOf(LibraryDiscovery.DiscoveryException.class)
                .hasMessageContaining("not-a.jar").hasMessageContaining("cannot be read as a ZIP archive");
    }

    @Test
    void aTruncatedStoredEntryIsReportedWithItsLocation() throws Exception {
        JarEntryLibrary entry = JarLibraryFinder.find(new JarInput(jar, ""), List.of("native/**/libframes.so"),
                List.of()).get(0);
        JarEntryLibrary beyond = new JarEntryLibrary(entry.jar(), null, entry.entryName(), entry.size(), true,
                Files.size(jar) - 10, entry.crc(), entry.compressedSize(), "");
        assertThatThrownBy(beyond::read).isInstanceOf(IOException.class)
                .hasMessageContaining("app-1.0.jar!/native/linux-x86_64/libframes.so").hasMessageContaining("beyond");
    }
    @Test
    void aDeflatedEntryThatExpandsBeyondTheRatioIsRefusedBeforeInflating() throws Exception {
        // 64 MiB of zeros deflate to about 64 KB (1,000:1): a ZIP bomb shape no native library has
        Path bomb = temp.resolve("bomb.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(bomb))) {
            zip.putNextEntry(new ZipEntry("native/libbomb.so"));
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 64; i++) {
                zip.write(zeros);
            }
            zip.closeEntry();
        }
        assertThat(Files.size(bomb)).isLessThan(1 << 20);
        JarEntryLibrary entry = JarLibraryFinder.find(new JarInput(bomb, ""), List.of(), List.of()).get(0);

        assertThatThrownBy(entry::read).isInstanceOf(IOException.class)
                .hasMessageStartingWith(bomb.toAbsolutePath().normalize() + "!/native/libbomb.so: declares 67108864 bytes "
                        + "from " + entry.compressedSize() + " compressed bytes, an expansion beyond the 100:1");
    }

    @Test
    void aRealLibraryDeflatedIsFarBelowTheRatio() throws Exception {
        JarEntryLibrary entry = JarLibraryFinder.find(new JarInput(jar, ""), List.of(), List.of()).stream()
                .filter(e -> !e.stored()).findFirst().orElseThrow();
        assertThat(entry.size() / entry.compressedSize()).isLessThan(JarEntryLibrary.MAX_RATIO / 10);
        assertThat(entry.read().remaining()).isEqualTo((int) entry.size());
    }

    @Test
    void moreEntriesThanTheLimitIsOneClearError() throws Exception {
        Path many = temp.resolve("many.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(many))) {
            for (int i = 0; i < 101; i++) {
                zip.putNextEntry(new ZipEntry("e" + i + ".txt"));
                zip.closeEntry();
            }
        }
        assertThat(JarLibraryFinder.find(new JarInput(many, ""), List.of(), List.of(), 101)).isEmpty();
        assertThatThrownBy(() -> JarLibraryFinder.find(new JarInput(many, ""), List.of(), List.of(), 100))
                .isInstanceOf(LibraryDiscovery.DiscoveryException.class)
                .hasMessage("JAR '" + many.toAbsolutePath().normalize() + "' has more than 100 entries, more than any "
                        + "real JAR: it is damaged or hostile; leave it out of the scan or unpack the libraries it ships");
    }
}
