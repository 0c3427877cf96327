package io.github.cudastackbudget.core;

import static io.github.cudastackbudget.core.engine.RecordedCuobjdump.NCCL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.github.cudastackbudget.core.budget.DeviceResult;
import io.github.cudastackbudget.core.device.DefaultDevices;
import io.github.cudastackbudget.core.device.DeviceDefinition;
import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import io.github.cudastackbudget.core.scan.FileSetSpec;
import io.github.cudastackbudget.core.text.DashedFrontend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckRunnerTest {

    private static final String SEND_RECV_DISPLAY = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";

    @TempDir
    Path tmp;

    /** Settings with everything off; the builder methods below change one thing each. */
    private record Settings(List<FileSetSpec> fileSets, List<Path> files, String engine, String cuobjdump,
            List<DeviceDefinition> devices, String presets, String maxReservation, String maxStack, int parallelism,
            Map<String, String> environment, Path out) {

        CheckOptions options() {
            return new CheckOptions(fileSets, files, "com.example:app:1.0", engine, cuobjdump, Duration.ofSeconds(120),
                    parallelism, devices, presets, false, maxReservation, maxStack, out, 25, false, environment);
        }

        Settings presets(String value) {
            return new Settings(fileSets, files, engine, cuobjdump, devices, value, maxReservation, maxStack, parallelism,
                    environment, out);
        }

        Settings devices(DeviceDefinition... value) {
            return new Settings(fileSets, files, engine, cuobjdump, List.of(value), presets, maxReservation, maxStack,
                    parallelism, environment, out);
        }

        Settings maxReservation(String value) {
            return new Settings(fileSets, files, engine, cuobjdump, devices, presets, value, maxStack, parallelism,
                    environment, out);
        }

        Settings maxStack(String value) {
            return new Settings(fileSets, files, engine, cuobjdump, devices, presets, maxReservation, value, parallelism,
                    environment, out);
        }

        Settings engine(String value) {
            return new Settings(fileSets, files, value, cuobjdump, devices, presets, maxReservation, maxStack, parallelism,
                    environment, out);
        }

        Settings cuobjdump(String value) {
            return new Settings(fileSets, files, engine, value, devices, presets, maxReservation, maxStack, parallelism,
                    environment, out);
        }

        Settings environment(Map<String, String> value) {
            return new Settings(fileSets, files, engine, cuobjdump, devices, presets, maxReservation, maxStack, parallelism,
                    value, out);
        }

        Settings parallelism(int value) {
            return new Settings(fileSets, files, engine, cuobjdump, devices, presets, maxReservation, maxStack, value,
                    environment, out);
        }
    }

    private static Map<String, String> pathOnly() {
        return Map.of("PATH", System.getenv().getOrDefault("PATH", ""));
    }

    /** The nvcc-built libframes.so staged as libnccl.so.2 and a cuobjdump replaying the real libnccl.so.2 recording. */
    private Settings nccl() throws Exception {
        Path library = RecordedCuobjdump.stage(tmp.resolve("libs"), NCCL);
        Path cuobjdump = RecordedCuobjdump.replayByName(Files.createDirectories(tmp.resolve("tool")));
        return new Settings(List.of(), List.of(library), "cuobjdump", cuobjdump.toString(), List.of(), null, null, null, 2,
                pathOnly(), tmp.resolve("out"));
    }

    private static CheckRunner.Outcome run(Settings settings) throws CheckException {
        return CheckRunner.run(settings.options(), CheckListener.SILENT);
    }

    private static DeviceDefinition device(String name, String capability, String threads) {
        return new DeviceDefinition(null, name, capability, threads, null, null, null, null);
    }

    @Test
    void noDeviceCodeIsASuccessWithOneLine() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("target"));
        Files.copy(RecordedCuobjdump.testCuda("libhostonly.so"), dir.resolve("libhostonly.so"));
        Files.writeString(dir.resolve("notes.txt"), "not a library\n");
        Files.writeString(dir.resolve("libfake.so"), "a text file a default glob matches\n");
        Settings settings = new Settings(List.of(new FileSetSpec(dir, FileSetSpec.DEFAULT_INCLUDES, List.of())),
                List.of(), "auto", tmp.resolve("no-such-cuobjdump").toString(), List.of(), null, "1 MiB", null, 2,
                Map.of("PATH", ""), tmp.resolve("out"));

        CheckRunner.Outcome outcome = run(settings);

        assertThat(outcome.result().noKernels()).isTrue();
        assertThat(outcome.result().filesProbed()).isEqualTo(2);
        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.violations()).isEmpty();
        assertThat(outcome.summary().get(0))
                .isEqualTo("No CUDA kernels found in 2 scanned file(s): nothing to check.");
        assertThat(outcome.reportLines()).contains("  no CUDA kernels found: reservation is 0 B.");
        assertThat(outcome.result().warnings()).isEmpty();
        assertThat(outcome.reports()).hasSize(3).allSatisfy(report -> assertThat(report).isRegularFile());
    }

    @Test
    void deviceCodeWithoutCuobjdumpIsAClearError() throws Exception {
        Path fallback = Path.of("/usr/local/cuda/bin/cuobjdump");
        assumeThat(Files.isExecutable(fallback)).as("%s exists, so cuobjdump is never missing here", fallback)
                .isFalse();
        Settings settings = nccl().cuobjdump(null).environment(Map.of("PATH", ""));

        assertThatThrownBy(() -> run(settings))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining("cuobjdump was not found")
                .hasMessageEndingWith("install the CUDA toolkit or set cuobjdump=/path/to/cuobjdump")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> CheckRunner.run(settings.options().toBuilder().frontend(DashedFrontend.INSTANCE)
                .build(), CheckListener.SILENT))
                .hasMessageEndingWith("install the CUDA toolkit or set --cuobjdump /path/to/cuobjdump");
    }

    @Test
    void optionsThatAreWrongAreNamedAsTheFrontEndSpellsThem() throws Exception {
        CheckOptions options = nccl().options().toBuilder().frontend(DashedFrontend.INSTANCE).build();

        assertThatThrownBy(() -> CheckRunner.run(options.toBuilder().maxReservation("lots").build(),
                CheckListener.SILENT)).isInstanceOf(CheckException.class)
                .hasMessageStartingWith("--max-reservation 'lots' is not a size");
        assertThatThrownBy(() -> CheckRunner.run(options.toBuilder().maxStackPerThread("deep").build(),
                CheckListener.SILENT)).hasMessageStartingWith("--max-stack-per-thread 'deep' is not a size");
        assertThatThrownBy(() -> CheckRunner.run(options.toBuilder().parallelism(0).build(), CheckListener.SILENT))
                .hasMessage("--parallelism 0 must be at least 1");
        assertThatThrownBy(() -> CheckRunner.run(options.toBuilder().engine("bogus").build(), CheckListener.SILENT))
                .hasMessage("--engine 'bogus' is unknown: use auto, cuobjdump or native");
        assertThatThrownBy(() -> CheckRunner.run(nccl().maxReservation("lots").options(), CheckListener.SILENT))
                .as("the parameter ids without a front end").hasMessageStartingWith("maxReservation 'lots' is not a size");
    }

    @Test
    void cuobjdumpOptionThatIsNoExecutableIsAClearError() throws Exception {
        Path missing = tmp.resolve("cuda").resolve("bin").resolve("cuobjdump");
        Settings settings = nccl().cuobjdump(missing.toString());

        assertThatThrownBy(() -> run(settings))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("cuobjdump=/usr/local/cuda/bin/cuobjdump"); // as the options' front end spells it
    }

    @Test
    void cuobjdumpFoundOnThePath() throws Exception {
        Settings base = nccl();
        Path dir = Path.of(base.cuobjdump()).getParent();
        CheckRunner.Outcome outcome = run(base.cuobjdump(null).environment(Map.of("PATH", dir + ":"
                + System.getenv().getOrDefault("PATH", ""))).presets("h200-141gb"));

        assertThat(outcome.result().engine()).contains(base.cuobjdump());
        assertThat(outcome.result().index().recordCount()).isEqualTo(5312);
    }

    @Test
    void badMaxReservationNamesTheParameter() throws Exception {
        Settings settings = nccl().maxReservation("lots");

        assertThatThrownBy(() -> run(settings))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining("maxReservation")
                .hasMessageContaining("'lots'");
        assertThatThrownBy(() -> run(settings.maxReservation("150%")))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining("maxReservation '150%' must be between 0% and 100%");
    }

    @Test
    void badMaxStackPerThreadNamesTheParameter() throws Exception {
        assertThatThrownBy(() -> run(nccl().maxStack("deep")))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining("maxStackPerThread 'deep'");
    }

    @Test
    void nativeEngineNeedsNoToolkit() throws Exception {
        CheckRunner.Outcome outcome = run(nccl().engine("native").cuobjdump(null).environment(Map.of("PATH", ""))
                .presets("h200-141gb"));

        assertThat(outcome.result().engine()).startsWith("native reader");
        // the staged file is the nvcc-built libframes.so: the native reader reads its real contents
        assertThat(outcome.result().index().recordCount()).isEqualTo(15);
        assertThat(outcome.result().devices().get(0).worst().stack()).isEqualTo(10_200);
    }

    @Test
    void autoPrefersTheNativeReaderAndNeedsNoCuobjdump() throws Exception {
        CheckRunner.Outcome outcome = run(nccl().engine("auto").cuobjdump(null).environment(Map.of("PATH", ""))
                .presets("h200-141gb"));

        assertThat(outcome.result().engine()).startsWith("native reader").doesNotContain("cuobjdump");
        assertThat(outcome.result().index().recordCount()).isEqualTo(15);
        assertThat(outcome.result().warnings()).isEmpty();
    }

    /** libframes.so staged as libnccl.so.2 (by {@link #nccl()}) with its first fatbin container's version set to 2. */
    private Path unknownLayoutLibrary(Settings staged) throws Exception {
        Path library = staged.files().get(0);
        byte[] bytes = Files.readAllBytes(library);
        var region = io.github.cudastackbudget.core.binary.ByteRegion.of(library.toString(),
                java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN));
        var elf = io.github.cudastackbudget.core.binary.ElfFile.read(region);
        var fatbin = elf.sections().stream().filter(section -> section.name().equals(".nv_fatbin")).findFirst()
                .orElseThrow();
        int version = (int) fatbin.offset() + 4;
        assertThat(bytes[version]).as("container version").isEqualTo((byte) 1);
        bytes[version] = 2;
        Files.write(library, bytes);
        return library;
    }

    @Test
    void autoReadsAnUnknownLayoutWithCuobjdumpAndSaysSo() throws Exception {
        Settings settings = nccl().engine("auto").presets("h200-141gb");
        Path library = unknownLayoutLibrary(settings);

        CheckRunner.Outcome outcome = run(settings);

        // the replayed recording of the real libnccl.so.2
        assertThat(outcome.result().index().recordCount()).isEqualTo(5312);
        assertThat(outcome.result().warnings()).anySatisfy(warning -> assertThat(warning)
                .startsWith(library.getFileName() + " was read with cuobjdump: the native reader does not know its "
                        + "layout").contains("container version 2"));
        assertThat(outcome.result().engine()).contains("native reader").contains(settings.cuobjdump());
    }

    @Test
    void anUnknownLayoutWithoutCuobjdumpIsOneClearError() throws Exception {
        Settings settings = nccl();
        Path library = unknownLayoutLibrary(settings);

        assertThatThrownBy(() -> run(settings.engine("auto").cuobjdump(null).environment(Map.of("PATH", ""))))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining(library.toString())
                .hasMessageContaining("container version 2")
                .hasMessageContaining("cuobjdump, which could read it, is not available either")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> run(settings.engine("native")))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining("container version 2")
                .hasMessageContaining("engine=cuobjdump");
    }

    @Test
    void unknownEngineListsTheChoices() throws Exception {
        assertThatThrownBy(() -> run(nccl().engine("bogus")))
                .isInstanceOf(CheckException.class)
                .hasMessage("engine 'bogus' is unknown: use auto, cuobjdump or native");
    }

    @Test
    void engineIdIsCaseInsensitive() throws Exception {
        CheckRunner.Outcome outcome = run(nccl().engine("CUOBJDUMP").presets("h200-141gb"));

        assertThat(outcome.result().index().recordCount()).isEqualTo(5312);
    }

    @Test
    void parallelismBelowOneIsRejected() throws Exception {
        assertThatThrownBy(() -> run(nccl().parallelism(0)))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining("parallelism 0");
    }

    @Test
    void missingExplicitLibraryIsNamed() throws Exception {
        Path missing = tmp.resolve("lib").resolve("libgone.so");
        Settings base = nccl();
        Settings settings = new Settings(List.of(), List.of(missing), "auto", base.cuobjdump(), List.of(), null, null,
                null, 2, pathOnly(), tmp.resolve("out"));

        assertThatThrownBy(() -> run(settings))
                .isInstanceOf(CheckException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void everyConfiguredDeviceWithoutCompatibleSassIsAnError() throws Exception {
        Settings settings = nccl().devices(device("v100", "7.0", "163840"), device("p100", "sm_60", "114688"));

        assertThatThrownBy(() -> run(settings))
                .isInstanceOf(CheckException.class)
                .hasMessage("no configured device can run the SASS in the scanned libraries (embedded: libnccl.so.2: sm_75, sm_80, "
                        + "sm_90, sm_100, sm_100f, sm_110, sm_120); add a device with a matching compute capability or "
                        + "build the libraries for your devices");
    }

    @Test
    void oneDeviceWithoutSassIsSkippedNotAnError() throws Exception {
        CheckRunner.Outcome outcome = run(nccl().devices(device("v100", "7.0", "163840")).presets("h200-141gb"));

        assertThat(outcome.result().devices()).extracting(DeviceResult::status)
                .containsExactly(DeviceResult.Status.SKIPPED, DeviceResult.Status.PASS);
        assertThat(outcome.result().warnings()).anySatisfy(warning -> assertThat(warning)
                .startsWith("device v100 skipped: no embedded SASS runs on sm_70"));
        assertThat(outcome.summary().get(0)).isEqualTo("CUDA stack budget: 2 device(s): 1 pass, 0 fail, 1 skipped; "
                + "771 functions in 1 file(s)");
    }

    @Test
    void defaultDevicesNeverFailAndAreTheSevenDefaults() throws Exception {
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        CheckListener listener = new CheckListener() {
            @Override
            public void info(String line) {
            }

            @Override
            public void warn(String line) {
                warnings.add(line);
            }
        };

        CheckRunner.Outcome outcome = CheckRunner.run(nccl().options(), listener);

        assertThat(outcome.result().defaultDevices()).isTrue();
        assertThat(outcome.result().devices()).extracting(device -> device.device().name())
                .containsExactlyElementsOf(DefaultDevices.DEFAULT_PRESETS)
                .containsExactly("t4", "a100-sxm4-80gb", "l4", "h100-sxm5-80gb", "h200-141gb", "b200", "rtx-5090");
        assertThat(outcome.result().devices()).allSatisfy(device -> {
            assertThat(device.status()).isEqualTo(DeviceResult.Status.PASS);
            assertThat(device.budgetBytes()).isNull();
        });
        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.violations()).isEmpty();
        assertThat(outcome.result().deviceOrigin().phrase()).startsWith("default set");
        assertThat(outcome.summary().get(0)).isEqualTo("CUDA stack budget: 7 device(s): 7 pass, 0 fail, 0 skipped; "
                + "771 functions in 1 file(s)");
        // B200 (10.0) runs the sm_100 images: SendRecv's 2040-B frame
        DeviceResult b200 = outcome.result().devices().get(5);
        assertThat(b200.worst().stack()).isEqualTo(2040);
        assertThat(b200.reservationBytes()).isEqualTo(303_104L * 2048);
    }

    @Test
    void reservationViolationLineNamesDeviceKernelArchAndLibrary() throws Exception {
        CheckRunner.Outcome outcome = run(nccl().presets("h200-141gb,l4").maxReservation("256 MiB"));

        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.violations()).containsExactly("h200-141gb: stack reservation 511.50 MiB (536,346,624 B) "
                + "exceeds maxReservation 256.00 MiB (268,435,456 B); worst kernel " + SEND_RECV_DISPLAY
                + " [sm_90] in libnccl.so.2 (1,976 B per thread)");
        assertThat(outcome.violations().get(0)).contains("h200-141gb", "exceeds", SEND_RECV_DISPLAY, "sm_90",
                "libnccl.so.2");
        assertThat(outcome.summary()).contains("CUDA stack budget: 2 device(s): 1 pass, 1 fail, 0 skipped; "
                + "771 functions in 1 file(s)");
    }

    @Test
    void percentageBudgetUsesTheDeviceMemory() throws Exception {
        // H200: 151,397,597,184 B; 0.3% = 454,192,791 B < 536,346,624 B; 0.4% = 605,590,388 B
        CheckRunner.Outcome tight = run(nccl().presets("h200-141gb").maxReservation("0.3%"));
        assertThat(tight.result().devices().get(0).budgetBytes()).isEqualTo(454_192_791L);
        assertThat(tight.failed()).isTrue();

        CheckRunner.Outcome roomy = run(nccl().presets("h200-141gb").maxReservation("0.4%"));
        assertThat(roomy.result().devices().get(0).budgetBytes()).isEqualTo(605_590_388L);
        assertThat(roomy.failed()).isFalse();
    }

    @Test
    void stackViolationLineNamesTheKernel() throws Exception {
        CheckRunner.Outcome outcome = run(nccl().presets("b200").maxStack("2000"));

        assertThat(outcome.violations()).containsExactly("b200: kernel " + SEND_RECV_DISPLAY + " [sm_100] in "
                + "libnccl.so.2 has a stack frame of 2,040 B per thread, which exceeds maxStackPerThread 2,000 B");
    }

    @Test
    void reportsAreWrittenBeforeTheVerdict() throws Exception {
        CheckRunner.Outcome outcome = run(nccl().presets("h200-141gb").maxReservation("1 MiB"));

        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.reports()).containsExactly(tmp.resolve("out").resolve("cuda-stack-budget.json"),
                tmp.resolve("out").resolve(CheckRunner.TEXT_REPORT), tmp.resolve("out").resolve("cuda-stack-budget.html"));
        assertThat(outcome.reports()).allSatisfy(report -> assertThat(report).isNotEmptyFile());
        assertThat(outcome.summary()).contains("Report: " + tmp.resolve("out").resolve("cuda-stack-budget.json"));
    }

    @Test
    void eachStageTimeIsOneDebugLineAndNoInfoLine() throws Exception {
        List<String> debug = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> info = new java.util.concurrent.CopyOnWriteArrayList<>();
        CheckListener listener = new CheckListener() {
            @Override
            public void info(String line) {
                info.add(line);
            }

            @Override
            public void warn(String line) {
            }

            @Override
            public void debug(String line) {
                debug.add(line);
            }
        };

        CheckRunner.run(nccl().presets("h200-141gb").options(), listener);

        assertThat(debug).hasSize(3);
        assertThat(debug.get(0)).matches("Check stages: inputs \\d+ ms, read \\d+ ms, index \\d+ ms, jit frames \\d+ ms, "
                + "verdicts \\d+ ms, names \\d+ ms, warnings and gate \\d+ ms \\(total \\d+ ms\\)");
        assertThat(debug.get(1)).matches("Report stages: model \\d+ ms, reports written \\d+ ms, log lines \\d+ ms "
                + "\\(total \\d+ ms\\)");
        // each writer's own wall time, in the formats' order (they run at once: the slowest is the stage)
        assertThat(debug.get(2)).matches("Report writers: cuda-stack-budget\\.json \\d+ ms, cuda-stack-budget\\.txt "
                + "\\d+ ms, cuda-stack-budget\\.html \\d+ ms");
        assertThat(info).noneMatch(line -> line.contains("stages"));
    }

    @Test
    void defaultDevicesWithoutCompatibleSassWarnInsteadOfFailing() throws Exception {
        // an sm_61-only (Pascal) build: no default device is a 6.x, in the exact cuobjdump 13.0 output format (docs/cuda-binary-format.md section 6)
        Path usage = Files.writeString(tmp.resolve("sm61.txt"), String.join("\n", "", "Fatbin elf code:",
                "================", "arch = sm_61", "code version = [1,8]", "host = linux", "compile_size = 64bit", "",
                "Resource usage:", " Common:", "  GLOBAL:0", " Function _Z11frameKernelILi64EEvPii:",
                "  REG:8 STACK:256 SHARED:0 LOCAL:0 CONSTANT[0]:364 TEXTURE:0 SURFACE:0 SAMPLER:0", ""));
        Path cuobjdump = RecordedCuobjdump.executable(tmp.resolve("sm61").resolve("cuobjdump"), "#!/bin/sh\n"
                + "[ \"$1\" = --version ] && { echo 'Cuda compilation tools, release 13.0, V13.0.85'; exit 0; }\n"
                + "cat '" + usage + "'\n");
        Settings settings = new Settings(List.of(), List.of(RecordedCuobjdump.testCuda("libframes.so")), "cuobjdump",
                cuobjdump.toString(), List.of(), null, "1 MiB", null, 1, pathOnly(), tmp.resolve("out"));

        CheckRunner.Outcome outcome = run(settings);

        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.result().devices()).hasSize(7).allSatisfy(device -> assertThat(device.skipped()).isTrue());
        assertThat(outcome.result().warnings()).contains("no default device can run the SASS in the scanned libraries "
                + "(embedded: libframes.so: sm_61); add a device with a matching compute capability or build the libraries for your "
                + "devices");
        assertThat(outcome.summary().get(0)).isEqualTo("CUDA stack budget: 7 device(s): 0 pass, 0 fail, 7 skipped; "
                + "1 functions in 1 file(s)");
    }

    @Test
    void aDetectedGpuTheCatalogLacksIsWarnedAboutFirstAndTheDefaultSetIsChecked() throws Exception {
        // nvidia-smi stand-in: prints what the real one prints for --query-gpu=index,name,compute_cap,memory.total
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path smi = bin.resolve("nvidia-smi");
        Files.writeString(smi, "#!/bin/sh\necho '0, NVIDIA Mystery GPU, 9.0, 81559'\n");
        Files.setPosixFilePermissions(smi, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path libs = Files.createDirectories(tmp.resolve("libs"));
        Files.copy(Path.of("target/test-cuda/libhostonly.so"), libs.resolve("libhostonly.so"));
        CheckOptions options = new CheckOptions(List.of(new FileSetSpec(libs, FileSetSpec.DEFAULT_INCLUDES, List.of())),
                List.of(), "", "auto", null, Duration.ofSeconds(30), 1, List.of(), null, true, null, null,
                tmp.resolve("out"), 25, false, Map.of("PATH", bin.toString()));

        CheckRunner.Outcome outcome = CheckRunner.run(options, CheckListener.SILENT);

        assertThat(outcome.result().warnings()).first().asString()
                .startsWith("local GPU 0 'NVIDIA Mystery GPU' (compute capability 9.0) is not in the catalog");
        assertThat(outcome.result().deviceOrigin().phrase()).startsWith("default set");
        assertThat(Files.readString(tmp.resolve("out").resolve("cuda-stack-budget.json")))
                .contains("NVIDIA Mystery GPU");
    }

    @Test
    void aPtxOnlyLibraryIsSaidToEmbedPtxAndNoSass() throws Exception {
        Path ptxOnly = Path.of("target/native-matrix/so/libmatrix_ptx.so").toAbsolutePath();
        CheckOptions options = CheckOptions.builder().libraryFiles(List.of(ptxOnly)).engine("native")
                .devicePresets("h200-141gb,l4").detectLocalDevices(false).outputDirectory(tmp.resolve("out")).build();

        CheckRunner.Outcome outcome = CheckRunner.run(options, CheckListener.SILENT);

        assertThat(outcome.result().devices()).allSatisfy(device -> assertThat(device.skipReason())
                .contains("; embedded: no SASS; PTX compute_90;").doesNotContain("embedded: ;"));
        assertThat(outcome.result().devices().get(0).skipReason()).startsWith("no embedded SASS runs on sm_90 "
                + "(compute capability 9.0); embedded: no SASS; PTX compute_90; ").endsWith("would be JIT-compiled "
                + "from PTX, frame unknown at build time");
        assertThat(outcome.result().devices().get(1).skipReason()).endsWith("embedded: no SASS; PTX compute_90; no "
                + "usable PTX either, so its kernels cannot launch there");
    }

    @Test
    void validateChecksTheOptionsAsRunDoesWithoutScanning() throws Exception {
        CheckOptions options = nccl().options().toBuilder().outputDirectory(tmp.resolve("never-written")).build();

        CheckRunner.validate(options);
        assertThat(tmp.resolve("never-written")).doesNotExist();
        assertThatThrownBy(() -> CheckRunner.validate(options.toBuilder().maxReservation("lots").build()))
                .isInstanceOf(CheckException.class).hasMessageStartingWith("maxReservation 'lots' is not a size");
        assertThatThrownBy(() -> CheckRunner.validate(options.toBuilder().devicePresets("h999").build()))
                .hasMessageStartingWith("unknown device preset 'h999'");
        assertThatThrownBy(() -> CheckRunner.validate(options.toBuilder().engine("bogus").frontend(
                DashedFrontend.INSTANCE).build())).hasMessage("--engine 'bogus' is unknown: use auto, cuobjdump or native");
    }
}
