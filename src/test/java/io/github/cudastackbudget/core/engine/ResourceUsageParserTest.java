package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.model.KernelRecord;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NCCL;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NVJPEG;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.TORCHAUDIO;
import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.XLA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.github.cudastackbudget.core.arch.ArchVariant;
import io.github.cudastackbudget.core.arch.GpuArch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResourceUsageParserTest {

    private static final Map<String, ResourceUsageParser> PARSED = new ConcurrentHashMap<>();

    /** Parses a recording of the real cuobjdump once per test class run (GZIPInputStream over the fixture). */
    private static ResourceUsageParser parsed(String library) {
        return PARSED.computeIfAbsent(library, name -> {
            try (BufferedReader reader = RecordedCuobjdump.open(name)) {
                return ResourceUsageParser.parse(name, null, reader);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static ResourceUsageParser parse(String text) throws IOException {
        return ResourceUsageParser.parse("libtest.so", null, new StringReader(text));
    }

    private static GpuArch arch(String label) {
        return GpuArch.parse(label);
    }

    /** What the test itself reads from a recording, without the parser: an oracle for the counts. */
    private record Expected(int records, Set<String> sassArches, Set<String> ptxArches, Set<String> names) {
    }

    /**
     * Counts, independently of the parser, the {@code Function} lines that are directly followed by a usage line
     * inside {@code Fatbin elf code} blocks, and the distinct SASS and PTX arches.
     */
    private static Expected oracle(String library) {
        List<String> lines = RecordedCuobjdump.lines(library);
        int records = 0;
        Set<String> sass = new TreeSet<>();
        Set<String> ptx = new TreeSet<>();
        Set<String> names = new TreeSet<>();
        boolean elf = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.equals("Fatbin elf code:")) {
                elf = true;
            } else if (line.equals("Fatbin ptx code:")) {
                elf = false;
            } else if (line.startsWith("arch = ")) {
                (elf ? sass : ptx).add(line.substring("arch = ".length()).strip());
            } else if (elf && line.startsWith(" Function ") && line.endsWith(":") && i + 1 < lines.size()
                    && lines.get(i + 1).startsWith("  REG:")) {
                records++;
                names.add(line.substring(" Function ".length(), line.length() - 1));
            }
        }
        return new Expected(records, sass, ptx, names);
    }

    private static List<KernelRecord> find(ResourceUsageParser parser, String archLabel, String name) {
        return parser.records().stream()
                .filter(record -> record.arch().equals(arch(archLabel)) && record.name().equals(name)).toList();
    }

    @Nested
    class RecordedOutputs {

        @ParameterizedTest(name = "{0}: {1} records, {2} SASS arches")
        @CsvSource({
            "libnccl.so.2, 5312, 7",
            "libnvjpeg.36e11081.so.13, 2480, 10",
            "torchaudio_prefixctc.abi3.so, 108, 6",
            "xla_cuda_plugin.so, 5082, 6",
        })
        void countsMatchAnIndependentReadingAndTheLibrariesFigures(String library, int records, int sassArches) {
            Expected expected = oracle(library);
            ResourceUsageParser parser = parsed(library);

            // the figures documented for the real cuobjdump 13.0 (docs/cuda-binary-format.md section 0)
            assertThat(expected.records()).as("function records in the %s recording", library).isEqualTo(records);
            assertThat(parser.records()).as("records parsed from %s", library).hasSize(expected.records());
            Set<String> parsedNames = parser.records().stream().map(KernelRecord::name)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(parsedNames).isEqualTo(expected.names());

            Set<String> parsedSass = parser.sassArches().get(library).stream().map(GpuArch::sassLabel)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(parsedSass).hasSize(sassArches).isEqualTo(expected.sassArches());
            Set<String> parsedPtx = parser.ptxArches().get(library).stream().map(GpuArch::sassLabel)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(parsedPtx).isEqualTo(expected.ptxArches());
            assertThat(parser.libraries()).containsExactly(library);
            assertThat(parser.records()).allSatisfy(record -> {
                assertThat(record.library()).isEqualTo(library);
                assertThat(record.stackUnknown()).isFalse();
            });
            assertThat(parser.records().stream().map(KernelRecord::arch).map(GpuArch::sassLabel).distinct())
                    .containsExactlyInAnyOrderElementsOf(expected.sassArches());
            assertThat(parser.lines()).isEqualTo(RecordedCuobjdump.lines(library).size());
        }

        @Test
        void ncclLargestStackIsSendRecvOnSm100AndSm110() {
            ResourceUsageParser parser = parsed(NCCL);
            long max = parser.records().stream().mapToLong(KernelRecord::stack).max().orElseThrow();

            assertThat(max).isEqualTo(2040);
            assertThat(parser.records().stream().filter(record -> record.stack() == max))
                    .extracting(KernelRecord::library, r -> r.arch().sassLabel(), KernelRecord::name,
                            KernelRecord::registers, KernelRecord::stack, KernelRecord::shared, KernelRecord::local)
                    .containsExactly(
                            tuple(NCCL, "sm_100", "_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE", 96,
                                    2040L, 22592L, 0L),
                            tuple(NCCL, "sm_110", "_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE", 96,
                                    2040L, 22592L, 0L));
        }

        @Test
        void ncclSpecificRecords() {
            ResourceUsageParser parser = parsed(NCCL);

            // the very first function of the recording
            assertThat(parser.records().get(0)).isEqualTo(new KernelRecord(NCCL, arch("sm_75"),
                    "_Z32ncclSymkDevKernel_AllGather_STMC21ncclSymkDevWorkArgs4K", 32, 0, false, 0, 0));
            // SendRecv in every image: the frame differs per arch
            assertThat(parser.records().stream()
                    .filter(r -> r.name().equals("_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE")))
                    .extracting(r -> r.arch().sassLabel(), KernelRecord::stack, KernelRecord::shared)
                    .containsExactly(tuple("sm_75", 1040L, 7104L), tuple("sm_80", 1504L, 7104L),
                            tuple("sm_90", 1976L, 22592L), tuple("sm_100", 2040L, 22592L),
                            tuple("sm_120", 1240L, 22592L), tuple("sm_110", 2040L, 22592L));
            // a family-specific image (arch = sm_100f)
            assertThat(find(parser, "sm_100f", "_Z47ncclSymkDevKernel_ReduceScatter_LDMC_sum_f8e4m321ncclSymkDevWorkArgs4K"))
                    .containsExactly(new KernelRecord(NCCL, arch("sm_100f"),
                            "_Z47ncclSymkDevKernel_ReduceScatter_LDMC_sum_f8e4m321ncclSymkDevWorkArgs4K", 58, 8, false,
                            0, 0));
            assertThat(parser.records().stream().filter(r -> r.arch().variant() == ArchVariant.FAMILY)).hasSize(4);
        }

        @Test
        void nvjpegSpecificRecords() {
            ResourceUsageParser parser = parsed(NVJPEG);

            assertThat(find(parser, "sm_75", "_ZN6culj9215metadata_kernelEPNS_9ImageInfoEPmPKPKhm"))
                    .containsExactly(new KernelRecord(NVJPEG, arch("sm_75"),
                            "_ZN6culj9215metadata_kernelEPNS_9ImageInfoEPmPKPKhm", 62, 192, false, 0, 0));
            assertThat(find(parser, "sm_75",
                    "_ZN6nvjpeg33dctQuantInvJpegKernelMultiChannelI7ushort2Li1ELi32ELi8EEEvNS_24InvDctParamsMultiChannelE"))
                    .singleElement().extracting(KernelRecord::registers, KernelRecord::stack, KernelRecord::shared,
                            KernelRecord::local)
                    .containsExactly(31, 0L, 8192L, 0L);
            assertThat(find(parser, "sm_121",
                    "_ZN6nvjpeg33dctQuantInvJpegKernelMultiChannelI7ushort2Li1ELi32ELi8EEEvNS_24InvDctParamsMultiChannelE"))
                    .singleElement().extracting(KernelRecord::registers, KernelRecord::stack, KernelRecord::shared,
                            KernelRecord::local)
                    .containsExactly(36, 0L, 9216L, 0L);
            assertThat(parser.records().stream().mapToLong(KernelRecord::stack).max().orElseThrow()).isEqualTo(192);
        }

        @Test
        void torchaudioSpecificRecords() {
            ResourceUsageParser parser = parsed(TORCHAUDIO);
            String bitonic = "_ZN6cu_ctc33first_matrix__bitonic_topk_kernelILi256ELi128EEEvNS_7LogProbEiP6float2PiS4_S4_S4_iiiiiPfi";

            assertThat(find(parser, "sm_90", bitonic))
                    .containsExactly(new KernelRecord(TORCHAUDIO, arch("sm_90"), bitonic, 64, 8, false, 1024, 0));
            assertThat(find(parser, "sm_75", bitonic))
                    .containsExactly(new KernelRecord(TORCHAUDIO, arch("sm_75"), bitonic, 56, 0, false, 0, 0));
            assertThat(find(parser, "sm_100",
                    "_ZN6cu_ctc42topk_reduce_and_copy_list_per_batch_kernelILi128ELi2ELi8EEEvNS_7LogProbEiiiiPfPiiiiP6float2S2_S2_S3_S3_S3_S3_S3_iS2_"))
                    .singleElement().extracting(KernelRecord::registers, KernelRecord::stack, KernelRecord::shared)
                    .containsExactly(32, 0L, 5888L);
            // the only non-zero frame in the library
            assertThat(parser.records().stream().filter(r -> r.stack() > 0)).singleElement()
                    .extracting(r -> r.arch().sassLabel(), KernelRecord::name).containsExactly("sm_90", bitonic);
        }

        @Test
        void xlaSpecificRecords() {
            ResourceUsageParser parser = parsed(XLA);
            String run = "_ZN15stream_executor4cuda3RunILm16EN5Eigen8bfloat16EjEEvPT0_iS5_Pji";

            assertThat(find(parser, "sm_75", run))
                    .containsExactly(new KernelRecord(XLA, arch("sm_75"), run, 64, 2864, false, 0, 0));
            assertThat(find(parser, "sm_90", run))
                    .containsExactly(new KernelRecord(XLA, arch("sm_90"), run, 64, 2864, false, 1024, 0));
            assertThat(find(parser, "sm_120", run))
                    .containsExactly(new KernelRecord(XLA, arch("sm_120"), run, 64, 144, false, 1024, 0));
            assertThat(find(parser, "sm_120",
                    "_ZN3cub39_V_300200_SM_750_800_900_1000_1100_12006detail10radix_sort30DeviceSegmentedRadixSortKernelINS1_5radix10policy_hubI13__nv_bfloat16jiE10Policy1000ELb0ELNS0_9SortOrderE1ES6_jPKjSB_iNS1_21identity_decomposer_tEEEvPKT2_PSD_PKT3_PSH_T4_T5_iiT7_"))
                    .singleElement().extracting(KernelRecord::registers, KernelRecord::stack, KernelRecord::shared)
                    .containsExactly(254, 0L, 30976L);
        }

        @ParameterizedTest
        @ValueSource(strings = {NCCL, NVJPEG, TORCHAUDIO, XLA})
        void ptxImagesGiveArchesButNeverRecords(String library) {
            ResourceUsageParser parser = parsed(library);
            List<String> lines = RecordedCuobjdump.lines(library);
            // every PTX section in these recordings is "arch = sm_120" or "arch = sm_121": no SASS record may come
            // from a PTX section, so the number of records per arch must equal the Function lines of ELF sections
            Set<GpuArch> ptx = parser.ptxArches().get(library);
            assertThat(ptx).as("PTX arches of %s", library).isNotEmpty();
            assertThat(lines).contains("Fatbin ptx code:");
            for (GpuArch arch : ptx) {
                long inElf = countElfFunctions(lines, arch.sassLabel());
                assertThat(parser.records().stream().filter(r -> r.arch().equals(arch)).count())
                        .as("records of %s in %s", arch, library).isEqualTo(inElf);
            }
        }

        private long countElfFunctions(List<String> lines, String archLabel) {
            long count = 0;
            boolean elf = false;
            String current = null;
            for (String line : lines) {
                if (line.startsWith("Fatbin ")) {
                    elf = line.equals("Fatbin elf code:");
                    current = null;
                } else if (line.startsWith("arch = ")) {
                    current = line.substring(7);
                } else if (elf && archLabel.equals(current) && line.startsWith(" Function ")) {
                    count++;
                }
            }
            return count;
        }
    }

    @Nested
    class Format {

        private static final String USAGE_TAIL = " CONSTANT[0]:896 TEXTURE:0 SURFACE:0 SAMPLER:0";

        @Test
        void ptxSectionsGoToPtxArchesOnly() throws IOException {
            ResourceUsageParser parser = parse("""

                    Fatbin ptx code:
                    ================
                    arch = sm_90
                    code version = [9,0]
                    host = linux
                    compile_size = 64bit
                    compressed
                    ptxasOptions =\s
                     Function _Z3ptxPi:
                      REG:10 STACK:64 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0

                    Fatbin elf code:
                    ================
                    arch = sm_80
                    code version = [1,8]
                    host = linux
                    compile_size = 64bit

                    Resource usage:
                     Common:
                      GLOBAL:0
                     Function _Z3elfPi:
                      REG:8 STACK:16 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """);

            assertThat(parser.ptxArches()).containsOnlyKeys("libtest.so");
            assertThat(parser.ptxArches().get("libtest.so")).containsExactly(arch("sm_90"));
            assertThat(parser.sassArches().get("libtest.so")).containsExactly(arch("sm_80"));
            assertThat(parser.records()).containsExactly(
                    new KernelRecord("libtest.so", arch("sm_80"), "_Z3elfPi", 8, 16, false, 0, 0));
        }

        @Test
        void memberLinesSwitchTheLibraryLabel() throws IOException {
            ResourceUsageParser parser = parse("""

                    member /x/libfoo.a:foo.o:

                    Fatbin elf code:
                    ================
                    arch = sm_90
                    code version = [1,8]
                    host = linux
                    compile_size = 64bit

                    Resource usage:
                     Common:
                      GLOBAL:0
                     Function _Z3fooPi:
                      REG:8 STACK:256 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0

                    member /x/libfoo.a:bar.o:

                    Fatbin elf code:
                    ================
                    arch = sm_80
                    code version = [1,8]
                    host = linux
                    compile_size = 64bit

                    Resource usage:
                     Common:
                      GLOBAL:0
                     Function _Z3barPi:
                      REG:12 STACK:32 SHARED:48 LOCAL:8 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """);

            assertThat(parser.libraries()).containsExactly("libfoo.a(foo.o)", "libfoo.a(bar.o)");
            assertThat(parser.records()).containsExactly(
                    new KernelRecord("libfoo.a(foo.o)", arch("sm_90"), "_Z3fooPi", 8, 256, false, 0, 0),
                    new KernelRecord("libfoo.a(bar.o)", arch("sm_80"), "_Z3barPi", 12, 32, false, 48, 8));
            assertThat(parser.sassArches()).containsOnlyKeys("libfoo.a(foo.o)", "libfoo.a(bar.o)");
            assertThat(parser.sassArches().get("libfoo.a(foo.o)")).containsExactly(arch("sm_90"));
            assertThat(parser.sassArches().get("libfoo.a(bar.o)")).containsExactly(arch("sm_80"));
        }

        @Test
        void memberLineWithoutDirectoryStillNamesArchiveAndMember() throws IOException {
            ResourceUsageParser parser = parse("""
                    member libframes.a:frames.o:
                    Fatbin elf code:
                    arch = sm_90
                    Resource usage:
                     Function _Z13noStackKernelPi:
                      REG:8 STACK:0 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """);

            assertThat(parser.records()).singleElement().extracting(KernelRecord::library)
                    .isEqualTo("libframes.a(frames.o)");
        }

        @Test
        void unknownStackIsFlagged() throws IOException {
            ResourceUsageParser parser = parse("""

                    Fatbin elf code:
                    ================
                    arch = sm_90
                    code version = [1,8]
                    host = linux
                    compile_size = 64bit

                    Resource usage:
                     Common:
                      GLOBAL:0
                     Function _Z15recursiveKernelPii:
                      REG:24 STACK:UNKNOWN SHARED:0 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0
                     Function _Z7recursei:
                      REG:0 STACK:0 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """);

            assertThat(parser.records()).hasSize(2);
            KernelRecord recursive = parser.records().get(0);
            assertThat(recursive.name()).isEqualTo("_Z15recursiveKernelPii");
            assertThat(recursive.stackUnknown()).isTrue();
            assertThat(recursive.stack()).isZero();
            assertThat(recursive.stackForRanking()).isEqualTo(Long.MAX_VALUE);
            assertThat(recursive.registers()).isEqualTo(24);
            assertThat(parser.records().get(1).stackUnknown()).isFalse();
        }

        @Test
        void bareCubinUsesTheDefaultArch() throws IOException {
            // a bare cubin prints only the part from the empty line before "Resource usage:" (no arch line)
            String bare = """

                    Resource usage:
                     Common:
                      GLOBAL:0
                     Function _Z11frameKernelILi64EEvPii:
                      REG:8 STACK:256 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """;
            ResourceUsageParser parser = ResourceUsageParser.parse("frames_sm90.cubin", arch("sm_90a"),
                    new StringReader(bare));

            assertThat(parser.records()).containsExactly(new KernelRecord("frames_sm90.cubin", arch("sm_90a"),
                    "_Z11frameKernelILi64EEvPii", 8, 256, false, 0, 0));
            assertThat(parser.libraries()).containsExactly("frames_sm90.cubin");
            assertThat(parser.sassArches().get("frames_sm90.cubin")).containsExactly(arch("sm_90a"));
            assertThat(parser.defaultArch()).isEqualTo(arch("sm_90a"));
            assertThat(parser.fileLabel()).isEqualTo("frames_sm90.cubin");

            // without a default arch the same text has no arch context: an error, never a silently dropped kernel
            assertThatThrownBy(() -> ResourceUsageParser.parse("frames_sm90.cubin", null, new StringReader(bare)))
                    .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 6: the resource usage of _Z11frameKernelILi64EEvPii follows no 'arch = sm_NN' line");
        }

        @Test
        void usageWithoutArchIsAnError() {
            // issue 10: a kernel before any arch line was dropped silently
            assertThatThrownBy(() -> parse("""
                     Function _Z8noarchPi:
                      REG:8 STACK:999 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 2: the resource usage of _Z8noarchPi follows no 'arch = sm_NN' line");
        }

        @Test
        void usageWithoutFunctionIsAnError() {
            assertThatThrownBy(() -> parse("""

                    Fatbin elf code:
                    ================
                    arch = sm_90
                    Resource usage:
                     Common:
                      GLOBAL:0
                      REG:9 STACK:777 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 8: a resource usage line with no 'Function NAME:' line before it");
        }

        @Test
        void newFatbinSectionClearsTheFunctionContext() {
            assertThatThrownBy(() -> parse("""
                    Fatbin elf code:
                    arch = sm_90
                     Function _Z4lostPi:
                    Fatbin elf code:
                    arch = sm_80
                      REG:11 STACK:555 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 3: Function _Z4lostPi has no resource usage line (REG:n STACK:n SHARED:n "
                            + "LOCAL:n) before a 'Fatbin' line");
        }

        @Test
        void malformedFunctionLineIsAnErrorNotADroppedKernel() {
            // issue 10: 'Function NAME' without its colon dropped the kernel silently
            assertThatThrownBy(() -> parse("""
                    Fatbin elf code:
                    arch = sm_90
                     Function _Z4lostPi
                      REG:11 STACK:555 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0
                    """)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 3: unreadable Function line ' Function _Z4lostPi' (expected 'Function NAME:')");
        }

        @Test
        void malformedArchLineIsAnError() {
            assertThatThrownBy(() -> parse("""
                    Fatbin elf code:
                    arch  = sm_90
                    """)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 2: unreadable arch line 'arch  = sm_90' (expected 'arch = sm_NN')");
        }

        @Test
        void hugeNumbersAreRangeErrorsNamingTheLine() {
            // issue 10: REG over 2^31 and STACK over 2^63 were NumberFormatExceptions naming no file or line
            assertThatThrownBy(() -> parse("""
                    Fatbin elf code:
                    arch = sm_90
                     Function _Z1fPi:
                      REG:4294967296 STACK:0 SHARED:0 LOCAL:0
                    """)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 4: REG 4294967296 is out of range (at most 65535)");
            assertThatThrownBy(() -> parse("""
                    Fatbin elf code:
                    arch = sm_90
                     Function _Z1fPi:
                      REG:8 STACK:99999999999999999999 SHARED:0 LOCAL:0
                    """)).isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessage("line 4: STACK 99999999999999999999 is out of range (at most 4294967295)");
        }

        @Test
        void malformedUsageLineNamesTheLineNumber() {
            String text = String.join("\n",
                    "",
                    "Fatbin elf code:",
                    "================",
                    "arch = sm_90",
                    "Resource usage:",
                    " Function _Z3badPi:",
                    "  REG:x STACK:1 SHARED:0 LOCAL:0" + USAGE_TAIL);

            assertThatThrownBy(() -> parse(text))
                    .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessageContaining("line 7")
                    .hasMessageContaining("REG:x STACK:1");
        }

        @Test
        void malformedUsageLineThrowsEvenOutsideAFunction() {
            ResourceUsageParser parser = new ResourceUsageParser("libtest.so", null);
            parser.accept("");
            parser.accept(" Common:");

            assertThat(parser.lines()).isEqualTo(2);
            assertThatThrownBy(() -> parser.accept("  REG:12 STACK:banana SHARED:0 LOCAL:0"))
                    .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessageStartingWith("line 3:");
        }

        @Test
        void unreadableArchLineFails() {
            assertThatThrownBy(() -> parse("Fatbin elf code:\narch = sm_9x\n"))
                    .isInstanceOf(ResourceUsageParser.MalformedOutputException.class)
                    .hasMessageContaining("line 2");
        }

        @ParameterizedTest
        @CsvSource({
            "sm_90a, 90, ARCH_SPECIFIC",
            "sm_100f, 100, FAMILY",
            "sm_100a, 100, ARCH_SPECIFIC",
            "sm_121, 121, BASE",
            "sm_75, 75, BASE",
        })
        void archVariants(String label, int number, ArchVariant variant) throws IOException {
            ResourceUsageParser parser = parse("Fatbin elf code:\n================\narch = " + label + "\n"
                    + "code version = [1,8]\n\nResource usage:\n Common:\n  GLOBAL:0\n Function _Z1kv:\n"
                    + "  REG:4 STACK:16 SHARED:0 LOCAL:0" + USAGE_TAIL + "\n");

            KernelRecord record = parser.records().get(0);
            assertThat(record.arch().capability().number()).isEqualTo(number);
            assertThat(record.arch().variant()).isEqualTo(variant);
            assertThat(record.arch().sassLabel()).isEqualTo(label);
        }

        @Test
        void recordsKeepTheToolsOrderAndDuplicateNames() throws IOException {
            List<String> lines = new ArrayList<>();
            for (String archLabel : List.of("sm_90", "sm_80", "sm_90")) {
                lines.addAll(List.of("", "Fatbin elf code:", "================", "arch = " + archLabel, "",
                        "Resource usage:", " Common:", "  GLOBAL:0", " Function _Z1kv:",
                        "  REG:4 STACK:" + lines.size() + " SHARED:0 LOCAL:0" + USAGE_TAIL));
            }
            ResourceUsageParser parser = parse(String.join("\n", lines));

            assertThat(parser.records()).extracting(r -> r.arch().sassLabel(), KernelRecord::stack)
                    .containsExactly(tuple("sm_90", 0L), tuple("sm_80", 10L), tuple("sm_90", 20L));
            assertThat(new LinkedHashSet<>(parser.sassArches().get("libtest.so"))).containsExactly(arch("sm_80"),
                    arch("sm_90"));
        }
    }
}
