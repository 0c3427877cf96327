package io.github.cudastackbudget.core.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.cudastackbudget.core.binary.BinaryKind;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryDiscoveryTest {

    private static final Frontend P = Frontend.PARAMETERS;

    /** Built by src/test/cuda/build-test-binaries.sh at generate-test-resources. */
    private static final Path TEST_CUDA = Path.of("target/test-cuda");

    @TempDir
    Path tmp;

    private Path base;

    private static Path real(String name) {
        Path file = TEST_CUDA.resolve(name);
        assertThat(file).as("%s is built by src/test/cuda/build-test-binaries.sh (mvn generate-test-resources)", file)
                .isRegularFile();
        return file;
    }

    private Path put(String relative, String realName) throws IOException {
        Path target = base.resolve(relative);
        Files.createDirectories(target.getParent());
        return Files.copy(real(realName), target);
    }

    private Path text(String relative) throws IOException {
        Path target = base.resolve(relative);
        Files.createDirectories(target.getParent());
        return Files.writeString(target, "plain text\n");
    }

    private static FileSetSpec set(Path directory, List<String> includes, List<String> excludes) {
        return new FileSetSpec(directory, includes, excludes);
    }

    @BeforeEach
    void layout() {
        base = tmp.resolve("target");
    }

    @Test
    void doubleStarMatchesTopLevelAndNestedFiles() throws IOException {
        Path top = put("libtop.so", "libhostonly.so");
        Path nested = put("a/b/libnested.so", "libhostonly.so");
        put("a/libother.dylib", "libhostonly.so");

        assertThat(LibraryDiscovery.expand(set(base, List.of("**/*.so"), List.of()))).containsExactly(
                base.resolve("a/b/libnested.so"), base.resolve("libtop.so"));
        assertThat(top).exists();
        assertThat(nested).exists();
    }

    @Test
    void versionedSharedObjectsMatchTheDotStarPattern() throws IOException {
        put("libx.so.1.2", "libhostonly.so");
        put("lib/liby.so.13", "libhostonly.so");
        put("libz.so", "libhostonly.so");

        assertThat(LibraryDiscovery.expand(set(base, List.of("**/*.so.*"), List.of())))
                .containsExactly(base.resolve("lib/liby.so.13"), base.resolve("libx.so.1.2"));
    }

    @Test
    void defaultIncludesCoverEveryCudaFileKind() throws IOException {
        for (String name : List.of("libframes.so", "frames.o", "libframes.a", "frames_sm90.cubin", "frames.fatbin")) {
            put("cuda/" + name, name);
        }
        put("cuda/libframes.so.1", "libframes.so");
        text("cuda/frames.cu");
        text("cuda/README.md");

        assertThat(LibraryDiscovery.expand(set(base, FileSetSpec.DEFAULT_INCLUDES, List.of())))
                .extracting(path -> path.getFileName().toString())
                .containsExactly("frames.fatbin", "frames.o", "frames_sm90.cubin", "libframes.a", "libframes.so",
                        "libframes.so.1");
    }

    @Test
    void excludesRemoveMatches() throws IOException {
        put("libkeep.so", "libhostonly.so");
        put("test-classes/libdrop.so", "libhostonly.so");
        put("deep/test-classes/x/libdrop2.so", "libhostonly.so");

        assertThat(LibraryDiscovery.expand(set(base, List.of("**/*.so"), List.of("**/test-classes/**"))))
                .containsExactly(base.resolve("libkeep.so"));
    }

    @Test
    void emptyIncludesMeanEverything() throws IOException {
        put("one.so", "libhostonly.so");
        text("two.txt");

        assertThat(LibraryDiscovery.expand(set(base, List.of(), List.of()))).containsExactly(base.resolve("one.so"),
                base.resolve("two.txt"));
    }

    @Test
    void missingBaseDirectoryYieldsNothing() throws Exception {
        FileSetSpec missing = set(tmp.resolve("no-such-dir"), FileSetSpec.DEFAULT_INCLUDES, List.of());

        assertThat(LibraryDiscovery.expand(missing)).isEmpty();
        LibraryDiscovery.Discovery discovery = LibraryDiscovery.discover(List.of(missing), List.of(), P);
        assertThat(discovery.filesProbed()).isZero();
        assertThat(discovery.withDeviceCode()).isEmpty();
        assertThat(discovery.explicitWithout()).isEmpty();
    }

    @Test
    void discoverKeepsDeviceCodeAndSkipsTheRestQuietly() throws Exception {
        Path so = put("libframes.so", "libframes.so");
        Path archive = put("lib/libframes.a", "libframes.a");
        put("libhostonly.so", "libhostonly.so");
        text("libnotelf.so");

        LibraryDiscovery.Discovery discovery = LibraryDiscovery.discover(
                List.of(set(base, FileSetSpec.DEFAULT_INCLUDES, List.of())), List.of(), P);

        assertThat(discovery.filesProbed()).isEqualTo(4);
        assertThat(discovery.withDeviceCode()).extracting(DeviceCodeProbe::file)
                .containsExactly(archive.toAbsolutePath().normalize(), so.toAbsolutePath().normalize());
        assertThat(discovery.withDeviceCode()).extracting(DeviceCodeProbe::kind)
                .containsExactly(BinaryKind.AR_ARCHIVE, BinaryKind.HOST_ELF);
        assertThat(discovery.explicitWithout()).isEmpty();
    }

    @Test
    void explicitMissingFileIsNamed() {
        Path missing = tmp.resolve("nowhere").resolve("libgone.so");

        assertThatThrownBy(() -> LibraryDiscovery.discover(List.of(), List.of(missing), P))
                .isInstanceOf(LibraryDiscovery.DiscoveryException.class)
                .hasMessage("library '" + missing + "' does not exist or is not a file: fix the path in libraryFiles="
                        + missing + " or remove it");
    }

    @Test
    void theMessageNamesTheOptionTheWayTheFrontEndSpellsIt() {
        Path missing = tmp.resolve("libgone.so");
        Frontend commandLine = new Frontend() {
            @Override
            public String name(Option option) {
                return "--" + option.parameter();
            }

            @Override
            public String howToSet(Option option, String example) {
                return "--" + option.parameter() + " " + example;
            }
        };

        assertThatThrownBy(() -> LibraryDiscovery.discover(List.of(), List.of(missing), commandLine))
                .hasMessageEndingWith(": fix the path in --libraryFiles " + missing + " or remove it");
    }

    @Test
    void explicitDirectoryIsRejected() throws IOException {
        Path directory = Files.createDirectories(tmp.resolve("adir.so"));

        assertThatThrownBy(() -> LibraryDiscovery.discover(List.of(), List.of(directory), P))
                .isInstanceOf(LibraryDiscovery.DiscoveryException.class)
                .hasMessageContaining(directory.toString());
    }

    @Test
    void explicitFilesWithoutDeviceCodeAreReported() throws Exception {
        Path notElf = text("notes.so");
        Path hostOnly = put("libhostonly.so", "libhostonly.so");
        Path device = put("libframes.so", "libframes.so");

        LibraryDiscovery.Discovery discovery = LibraryDiscovery.discover(List.of(), List.of(notElf, hostOnly, device),
                P);

        assertThat(discovery.filesProbed()).isEqualTo(3);
        assertThat(discovery.explicitWithout()).extracting(DeviceCodeProbe::file)
                .containsExactly(notElf.toAbsolutePath().normalize(), hostOnly.toAbsolutePath().normalize());
        assertThat(discovery.explicitWithout().get(0).kind()).isEqualTo(BinaryKind.UNKNOWN);
        assertThat(discovery.explicitWithout().get(1).kind()).isEqualTo(BinaryKind.HOST_ELF);
        assertThat(discovery.withDeviceCode()).extracting(DeviceCodeProbe::file)
                .containsExactly(device.toAbsolutePath().normalize());
    }

    @Test
    void fileMatchedTwiceIsProbedOnce() throws Exception {
        Path so = put("libframes.so", "libframes.so");
        FileSetSpec all = set(base, List.of("**/*.so"), List.of());

        LibraryDiscovery.Discovery discovery = LibraryDiscovery.discover(List.of(all, all),
                List.of(base.resolve("sub/../libframes.so")), P);

        assertThat(discovery.filesProbed()).isEqualTo(1);
        assertThat(discovery.withDeviceCode()).extracting(DeviceCodeProbe::file)
                .containsExactly(so.toAbsolutePath().normalize());
    }

    @Test
    // regression: libx.so -> libx.so.1 -> libx.so.1.2 was once scanned three times
    void symlinkedVersionNamesOfOneLibraryAreScannedOnce() throws Exception {
        // what CMake and libtool install: libx.so -> libx.so.1 -> libx.so.1.2 (one library, three names)
        Path real = put("lib/libx.so.1.2", "libframes.so");
        Files.createSymbolicLink(base.resolve("lib/libx.so.1"), Path.of("libx.so.1.2"));
        Files.createSymbolicLink(base.resolve("lib/libx.so"), Path.of("libx.so.1"));

        LibraryDiscovery.Discovery discovery = LibraryDiscovery.discover(
                List.of(set(base, FileSetSpec.DEFAULT_INCLUDES, List.of())), List.of(), P);

        assertThat(discovery.withDeviceCode()).as("one library reached through three names").hasSize(1);
        assertThat(real).exists();
    }
}
