package io.github.cudastackbudget.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.model.LibraryScan;
import io.github.cudastackbudget.core.engine.ResourceUsageParser;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The matching rules of {@link LaunchMatcher} over records parsed from the real cuobjdump 13.0 output recorded for
 * libframes.so (src/test/resources/recorded/cuobjdump), under several library labels.
 */
class LaunchMatcherTest {

    private static final Path RECORDING = Path.of("src/test/resources/recorded/cuobjdump/libframes.so.resource-usage.txt");
    private static final String K2550 = "_Z11frameKernelILi2550EEvPii";

    private static LibraryScan scan(Path path, String label) throws Exception {
        ResourceUsageParser parser;
        try (Reader reader = Files.newBufferedReader(RECORDING)) {
            parser = ResourceUsageParser.parse(label, null, reader);
        }
        return new LibraryScan(path, parser.libraries(), parser.records(), parser.sassArches(), parser.ptxArches(), "",
                0);
    }

    private static LaunchedKernel launched(String name) {
        return new LaunchedKernel(name, new TreeSet<>(List.of("main")), 0L);
    }

    private static LibraryLog libraryLog(String... paths) {
        return new LibraryLog(Path.of("/logs/launch.log.libraries"), List.of(paths).stream().map(Path::of).toList(),
                List.of());
    }

    @Test
    void withoutALibraryLogEveryLibraryHoldingTheNameCounts() throws Exception {
        List<LibraryScan> scans = List.of(scan(Path.of("/build/a/libframes.so"), "libframes.so"),
                scan(Path.of("/build/b/libcopy.so"), "libcopy.so"));
        LaunchMatch match = LaunchMatcher.match(List.of(launched(K2550), launched("_Z7unknownv")), scans, null);
        assertThat(match.matched()).singleElement().satisfies(kernel -> {
            assertThat(kernel.libraries()).containsExactly("libcopy.so", "libframes.so");
            assertThat(kernel.notLoadedIn()).isEmpty();
        });
        assertThat(match.unmatched()).extracting(LaunchedKernel::name).containsExactly("_Z7unknownv");
        assertThat(match.launchedFunctions()).hasSize(2);
    }

    @Test
    void theLibraryLogPicksTheLoadedCopyByPathOrByFileName() throws Exception {
        List<LibraryScan> scans = List.of(scan(Path.of("/build/a/libframes.so"), "libframes.so"),
                scan(Path.of("/build/b/libcopy.so"), "libcopy.so"));
        MatchedKernel byName = LaunchMatcher.match(List.of(launched(K2550)), scans,
                libraryLog("/gpu-machine/site-packages/libcopy.so")).matched().get(0);
        assertThat(byName.libraries()).containsExactly("libcopy.so");
        assertThat(byName.notLoadedIn()).containsExactly("libframes.so");
        MatchedKernel noneLoaded = LaunchMatcher.match(List.of(launched(K2550)), scans,
                libraryLog("/usr/lib/libc.so.6")).matched().get(0);
        assertThat(noneLoaded.libraries()).as("the log names neither copy: both count").hasSize(2);
    }

    @Test
    void aJarEntryCountsAsLoadedWhenTheLogNamesItsFileWhereverItWasExtracted() throws Exception {
        String label = "app.jar!/native/linux-x86_64/libframes.so";
        List<LibraryScan> scans = List.of(scan(Path.of("/build/app.jar"), label)
                        .fromJarEntry(new LibraryScan.JarEntry(label, "libframes.so")),
                scan(Path.of("/build/other.so"), "other.so"));
        MatchedKernel matched = LaunchMatcher.match(List.of(launched(K2550)), scans,
                libraryLog("/tmp/jni-1234/libframes.so")).matched().get(0);
        assertThat(matched.libraries()).containsExactly("app.jar!/native/linux-x86_64/libframes.so");
        assertThat(matched.notLoadedIn()).containsExactly("other.so");
    }

    @Test
    void aLabelThatOnlyLooksLikeAJarEntryIsAFileOnDisk() throws Exception {
        // the JAR entry is a typed field of the scan, not read from the label: this file is not loaded by the run
        List<LibraryScan> scans = List.of(scan(Path.of("/build/copy.so"), "app.jar!/native/libframes.so"),
                scan(Path.of("/build/other.so"), "other.so"));
        MatchedKernel matched = LaunchMatcher.match(List.of(launched(K2550)), scans,
                libraryLog("/tmp/jni-1234/libframes.so")).matched().get(0);
        assertThat(matched.libraries()).as("neither is loaded: both count").hasSize(2);
    }
}
