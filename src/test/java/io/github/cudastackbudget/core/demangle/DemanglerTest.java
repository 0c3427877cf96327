package io.github.cudastackbudget.core.demangle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DemanglerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** A kernel of src/test/cuda/frames.cu. */
    private static final String FRAME_KERNEL = "_Z11frameKernelILi64EEvPii";

    /**
     * g++ 13's mangling of {@code alpaka::detail::gpuKernel<reco::FillHits<3>,
     * alpaka::AccGpuUniformCudaHipRt<alpaka::DimInt<1ul>, unsigned int>, float*, int>(reco::FillHits<3>, float*, int)}.
     */
    private static final String ALPAKA_KERNEL = "_ZN6alpaka6detail9gpuKernelIN4reco8FillHitsILi3EEENS_22AccGpuUniformCudaHip"
            + "RtINS_6DimIntILm1EEEjEEJPfiEEEvT_DpT1_";

    private static Path llvmCxxfilt;

    @TempDir
    Path tmp;

    @BeforeAll
    static void findLlvmCxxfilt() {
        llvmCxxfilt = Demangler.fromEnvironment(Map.of("PATH", System.getenv().getOrDefault("PATH", ""))).tools()
                .stream().filter(tool -> tool.getFileName().toString().equals("llvm-cxxfilt")).findFirst()
                .orElse(null);
        assertThat(llvmCxxfilt).as("llvm-cxxfilt must be on the PATH for these tests (apt-get install llvm)")
                .isNotNull();
    }

    private Path script(String name, String body) throws IOException {
        Path file = tmp.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    @Nested
    class WithLlvmCxxfilt {

        @Test
        void fromEnvironmentPrefersLlvmCxxfilt() throws IOException {
            Path dir = Files.createDirectories(tmp.resolve("bin"));
            Path gnu = script("bin/c++filt", "cat");
            Path llvm = script("bin/llvm-cxxfilt", "cat");
            Demangler demangler = Demangler.fromEnvironment(Map.of("PATH", dir.toString()));

            assertThat(demangler.tools()).startsWith(llvm, gnu);
        }

        @Test
        void demanglesAFrameKernel() {
            Demangler demangler = new Demangler(List.of(llvmCxxfilt), TIMEOUT);

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL)))
                    .containsExactly(entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"));
        }

        @Test
        void manyNamesAreReadBySeveralProcessesWithTheSameResult() throws IOException {
            // issue 11: 3 slices of 4096 or more names, each read by its own llvm-cxxfilt
            List<String> many = new java.util.ArrayList<>();
            for (int i = 0; i < 3 * Demangler.NAMES_PER_PROCESS + 7; i++) {
                many.add("_Z11frameKernelILi" + i + "EEvPii");
            }
            Map<String, String> names = new Demangler(List.of(llvmCxxfilt), TIMEOUT).displayNames(many);

            assertThat(names).hasSize(many.size());
            for (int i = 0; i < many.size(); i++) {
                assertThat(names.get(many.get(i))).isEqualTo("void frameKernel<" + i + ">(int*, int)");
            }
            // a tool that fails on one slice only: one warning for all the names, and the next tool reads them all
            Path flaky = script("flaky", "input=$(cat); case \"$input\" in *ILi" + (2 * Demangler.NAMES_PER_PROCESS)
                    + "EE*) exit 3;; esac; printf '%s\\n' \"$input\" | " + llvmCxxfilt);
            List<String> warned = new java.util.ArrayList<>();
            Map<String, String> again = new Demangler(List.of(flaky, llvmCxxfilt), TIMEOUT).displayNames(many,
                    warned::add);
            assertThat(again).isEqualTo(names);
            assertThat(warned).singleElement().asString().startsWith("demangler " + flaky + " failed (exit 3)")
                    .endsWith("; " + many.size() + " kernel name(s) stay mangled unless the next demangler reads them");
        }

        @Test
        void batchKeepsEveryNameAndLeavesPlainNamesAlone() {
            Demangler demangler = new Demangler(List.of(llvmCxxfilt), TIMEOUT);

            Map<String, String> names = demangler.displayNames(List.of(FRAME_KERNEL, "frames_host_entry",
                    "_Z15recursiveKernelPii", "_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE",
                    "_Znot_really_mangled", FRAME_KERNEL));

            assertThat(names).containsOnly(
                    entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"),
                    entry("frames_host_entry", "frames_host_entry"),
                    entry("_Z15recursiveKernelPii", "recursiveKernel(int*, int)"),
                    entry("_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE",
                            "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"),
                    entry("_Znot_really_mangled", "_Znot_really_mangled"));
        }

        @Test
        void alpakaKernelIsShortenedToItsInnerKernel() {
            Demangler demangler = new Demangler(List.of(llvmCxxfilt), TIMEOUT);

            assertThat(demangler.displayNames(List.of(ALPAKA_KERNEL)))
                    .containsExactly(entry(ALPAKA_KERNEL, "reco::FillHits<3>"));
        }
    }

    @Nested
    class Fallbacks {

        @Test
        void noToolsKeepsTheMangledNames() {
            Demangler demangler = new Demangler(List.of(), TIMEOUT);

            assertThat(demangler.tools()).isEmpty();
            assertThat(demangler.displayNames(List.of(FRAME_KERNEL, "plain")))
                    .containsOnly(entry(FRAME_KERNEL, FRAME_KERNEL), entry("plain", "plain"));
        }

        @Test
        void toolPrintingTooManyLinesFallsBackToTheNextTool() throws IOException {
            Path doubling = script("doubling", "while read -r line; do echo \"$line\"; echo extra; done");
            Demangler demangler = new Demangler(List.of(doubling, llvmCxxfilt), TIMEOUT);

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL, "_Z15recursiveKernelPii"))).containsOnly(
                    entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"),
                    entry("_Z15recursiveKernelPii", "recursiveKernel(int*, int)"));
        }

        @Test
        void toolPrintingTooFewLinesFallsBackToTheNextTool() throws IOException {
            Path first = script("first-line-only", "read -r line; echo \"demangled-$line\"");
            Demangler demangler = new Demangler(List.of(first, llvmCxxfilt), TIMEOUT);

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL, "_Z15recursiveKernelPii"))).containsOnly(
                    entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"),
                    entry("_Z15recursiveKernelPii", "recursiveKernel(int*, int)"));
        }

        @Test
        void failingToolFallsBackToTheNextTool() throws IOException {
            Path failing = script("failing", "cat; exit 3");
            Demangler demangler = new Demangler(List.of(failing, llvmCxxfilt), TIMEOUT);

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL)))
                    .containsExactly(entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"));
        }

        @Test
        void missingToolFallsBackToTheNextTool() {
            Demangler demangler = new Demangler(List.of(tmp.resolve("no-such-tool"), llvmCxxfilt), TIMEOUT);

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL)))
                    .containsExactly(entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"));
        }

        @Test
        @Timeout(value = 20, unit = TimeUnit.SECONDS)
        void hangingToolIsStoppedAndTheNextToolUsed() throws IOException {
            Path hanging = script("hanging", "exec sleep 30");
            Demangler demangler = new Demangler(List.of(hanging, llvmCxxfilt), Duration.ofSeconds(1));

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL)))
                    .containsExactly(entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"));
        }

        @Test
        // regression: a demangler wrapper's hung child once outlived the timeout
        @Timeout(value = 40, unit = TimeUnit.SECONDS)
        void hangingChildOfAWrapperIsStoppedAndTheNextToolUsed() throws IOException {
            Path wrapper = script("wrapper", "sleep 25\ncat");
            Demangler demangler = new Demangler(List.of(wrapper, llvmCxxfilt), Duration.ofSeconds(1));
            long start = System.nanoTime();

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL)))
                    .containsExactly(entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }

        @Test
        void firstToolThatAnswersWins() throws IOException {
            Path first = script("first", "while read -r line; do echo \"first:$line\"; done");
            Demangler demangler = new Demangler(List.of(first, llvmCxxfilt), TIMEOUT);

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL)))
                    .containsExactly(entry(FRAME_KERNEL, "first:" + FRAME_KERNEL));
        }

        @Test
        void namesTheFirstToolLeavesUnchangedGoToTheNextToolOnly() throws IOException {
            // like GNU c++filt giving up on a very long name: it echoes that name unchanged
            Path partial = script("partial", "while read -r line; do case \"$line\" in "
                    + "*frameKernel*) echo \"partial:$line\" ;; *) echo \"$line\" ;; esac; done");
            Path log = tmp.resolve("second-stdin.txt");
            Path second = script("second", "tee '" + log + "' | '" + llvmCxxfilt + "'");
            Demangler demangler = new Demangler(List.of(partial, second), TIMEOUT);

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL, "_Z15recursiveKernelPii", "plain"))).containsOnly(
                    entry(FRAME_KERNEL, "partial:" + FRAME_KERNEL),
                    entry("_Z15recursiveKernelPii", "recursiveKernel(int*, int)"),
                    entry("plain", "plain"));
            assertThat(log).hasContent("_Z15recursiveKernelPii");
        }
    }

    /** Issue 10: a demangler that hangs, crashes, floods or errs gives one warning line and mangled names. */
    @Nested
    class HostileDemanglers {

        private final List<String> warnings = new java.util.ArrayList<>();

        private Map<String, String> names(Path tool, Duration timeout) {
            return new Demangler(List.of(tool), timeout).displayNames(List.of(FRAME_KERNEL), warnings::add);
        }

        @Test
        @Timeout(value = 20, unit = TimeUnit.SECONDS)
        void hangingDemanglerIsStoppedAtTheTimeoutWithAWarning() throws IOException {
            Path hanging = script("hanging", "exec sleep 60");
            long start = System.nanoTime();

            assertThat(names(hanging, Duration.ofSeconds(1))).containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(warnings).containsExactly("demangler " + hanging + " did not finish within 1 s and was "
                    + "stopped; 1 kernel name(s) stay mangled");
        }

        @Test
        void crashingDemanglerGivesAWarning() throws IOException {
            Path crashing = script("crashing", "echo 'Segmentation fault (core dumped)' >&2; kill -SEGV $$");

            assertThat(names(crashing, TIMEOUT)).containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            assertThat(warnings).singleElement().asString()
                    .startsWith("demangler " + crashing + " failed (exit 139)")
                    .endsWith("; 1 kernel name(s) stay mangled");
        }

        @Test
        void demanglerExitingZeroWithAnErrorGivesAWarning() throws IOException {
            Path erring = script("erring", "cat; echo 'c++filt: error: \033[31mbroken\033[0m' >&2; exit 0");

            assertThat(names(erring, TIMEOUT)).containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            assertThat(warnings).containsExactly("demangler " + erring + " exited 0 but printed an error: "
                    + "c++filt: error: \\x1b[31mbroken\\x1b[0m; 1 kernel name(s) stay mangled");
        }

        @Test
        @Timeout(value = 60, unit = TimeUnit.SECONDS)
        void floodingDemanglerKeepsNoMoreThanOneLinePerName() throws IOException {
            // two million lines of output for one name: counted, not kept
            Path flooding = script("flooding", "yes demangled | head -n 2000000");

            assertThat(names(flooding, TIMEOUT)).containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            assertThat(warnings).containsExactly("demangler " + flooding + " printed 2000000 line(s) for 1 name(s); "
                    + "1 kernel name(s) stay mangled");
        }

        @Test
        void controlCharactersInADemangledNameKeepTheMangledName() throws IOException {
            Path escaping = script("escaping", "read -r line; printf 'void k\033[2J()\\n'");

            assertThat(names(escaping, TIMEOUT)).containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            assertThat(warnings).isEmpty();
        }

        @Test
        void c1ControlCharactersAndDeleteKeepTheMangledNameButOtherNonAsciiIsShown() throws IOException {
            // U+009B (CSI, UTF-8 C2 9B) and U+007F are ISO controls; U+00A0 and U+00E9 are not
            Path csi = script("csi", "read -r line; printf 'void k\\302\\2332J()\\n'");
            assertThat(names(csi, TIMEOUT)).containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            Path delete = script("delete", "read -r line; printf 'void k\\177()\\n'");
            assertThat(names(delete, TIMEOUT)).containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            Path accented = script("accented", "read -r line; printf 'void k\\302\\240\\303\\251()\\n'");
            assertThat(names(accented, TIMEOUT)).containsExactly(entry(FRAME_KERNEL, "void k\u00a0\u00e9()"));
            assertThat(warnings).isEmpty();
        }

        @Test
        void missingDemanglerGivesAWarningAndTheNextOneIsTried() {
            Path missing = tmp.resolve("no-such-demangler");
            Map<String, String> names = new Demangler(List.of(missing, llvmCxxfilt), TIMEOUT)
                    .displayNames(List.of(FRAME_KERNEL), warnings::add);

            assertThat(names).containsExactly(entry(FRAME_KERNEL, "void frameKernel<64>(int*, int)"));
            assertThat(warnings).singleElement().asString().startsWith("demangler " + missing + " could not be run (")
                    .endsWith("; 1 kernel name(s) stay mangled unless the next demangler reads them");
        }

        @Test
        @Timeout(value = 20, unit = TimeUnit.SECONDS)
        void fromEnvironmentTakesTheConfiguredTimeout() throws IOException {
            Path dir = Files.createDirectories(tmp.resolve("slow-bin"));
            script("slow-bin/c++filt", "exec sleep 60");
            Demangler demangler = Demangler.fromEnvironment(Map.of("PATH", dir.toString()), Duration.ofSeconds(1));
            long start = System.nanoTime();

            assertThat(demangler.displayNames(List.of(FRAME_KERNEL), warnings::add))
                    .containsExactly(entry(FRAME_KERNEL, FRAME_KERNEL));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(warnings).singleElement().asString().contains("did not finish within 1 s");
        }
    }

    @Nested
    class ShortenAlpaka {

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "void alpaka::detail::gpuKernel<MyKernel, alpaka::AccGpuCudaRt<alpaka::DimInt<1ul>, unsigned int>>(MyKernel, float*)"
                    + " | MyKernel",
            "alpaka::detail::gpuKernel<ns::Inner<std::pair<int, float>, 3>, alpaka::AccGpuUniformCudaHipRt<alpaka::ApiCudaRt,"
                    + " std::integral_constant<unsigned long, 3ul>, unsigned int>, float const*>(ns::Inner<std::pair<int,"
                    + " float>, 3> const&, float const*) | ns::Inner<std::pair<int, float>, 3>",
            "void alpaka::detail::gpuKernel<(anonymous namespace)::Fill<float>, Acc>((anonymous namespace)::Fill<float>)"
                    + " | (anonymous namespace)::Fill<float>",
            "void alpaka::detail::gpuKernel<Only>(Only) | Only",
            "void alpaka::detail::gpuKernel< Spaced , Acc>() | Spaced",
            "void frameKernel<64>(int*, int) | void frameKernel<64>(int*, int)",
            "_Z11frameKernelILi64EEvPii | _Z11frameKernelILi64EEvPii",
        })
        void shortensToTheFirstTemplateArgument(String name, String expected) {
            assertThat(Demangler.shortenAlpaka(name)).isEqualTo(expected);
        }

        @Test
        void alreadyDemangledAlpakaNamesAreShortenedEvenWithoutTools() {
            String name = "alpaka::detail::gpuKernel<MyKernel, alpaka::AccGpuCudaRt<alpaka::DimInt<1ul>, unsigned int>>";

            assertThat(new Demangler(List.of(), TIMEOUT).displayNames(List.of(name)))
                    .containsExactly(entry(name, "MyKernel"));
        }
    }

    /** The names' order and dedup are a sorted set's, on the parallel path too (over 8,192 names) and with duplicates. */
    @Test
    void namesAreSortedAndDistinctAsASortedSetWouldHoldThem() {
        java.util.Random random = new java.util.Random(11);
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            // long shared prefixes, as mangled names have, and every tenth name twice
            String name = "_ZN2at6native" + random.nextInt(20) + "kernel" + Long.toString(random.nextLong(), 36);
            names.add(name);
            if (i % 10 == 0) {
                names.add(name);
            }
        }
        java.util.Collections.shuffle(names, random);
        assertThat(Demangler.sortedDistinct(names)).isEqualTo(new java.util.ArrayList<>(new java.util.TreeSet<>(names)))
                .hasSize(new java.util.HashSet<>(names).size());
        assertThat(Demangler.sortedDistinct(List.of("b", "a", "b"))).containsExactly("a", "b");
        assertThat(Demangler.sortedDistinct(List.of())).isEmpty();
    }
}
