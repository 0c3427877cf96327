package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.core.engine.RecordedCuobjdump;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real nvcc-built files the native reader is tested on, and the real cuobjdump 13.0 recordings of them.
 *
 * <ul>
 *   <li>target/test-cuda: src/test/cuda/build-test-binaries.sh (mvn generate-test-resources); recordings in
 *       src/test/resources/recorded/cuobjdump/ (five of them);</li>
 *   <li>target/test-cuda/stack-demo: examples/stack-demo/src/main/cuda/build.sh (built on first use, then up to
 *       date); recordings in src/it/shared/recordings/.</li>
 * </ul>
 */
public final class NativeTestFiles {

    /** The test binaries with a recording of the real cuobjdump, by file name. */
    public static final List<String> RECORDED_TEST_BINARIES = List.of("libframes.so", "libframes.a",
            "frames_sm90.cubin", "frames_rdc.o", "libframes_rdc.so", "frames.o", "frames.fatbin", "libframes_lz4.so",
            "libframes_zstd.so", "libframes_nocomp.so", "libframes_debug.so");
    /** The source path compiled into the identifiers of the recorded libframes_debug.so (-G). */
    public static final String RECORDED_DEBUG_SOURCE = "/work/wt/native/src/test/cuda/frames.cu";
    /** The stack-demo libraries with a recording (src/it/shared/recordings). */
    public static final List<String> RECORDED_STACK_DEMO = List.of("libstackdemo.so", "libstackdemo_sm90.so");
    /** The archive path the real cuobjdump was given when libframes.a was recorded (printed in member lines). */
    public static final String RECORDED_ARCHIVE_PATH = "/tmp/tmp.IPm8LJVfDG/test-cuda/libframes.a";

    private static final Path RECORDED = Path.of("src", "test", "resources", "recorded", "cuobjdump");
    private static final Path IT_RECORDINGS = Path.of("src", "it", "shared", "recordings");
    private static final Path STACK_DEMO = RecordedCuobjdump.TEST_CUDA.resolve("stack-demo");

    private NativeTestFiles() {
    }

    /** A file built by build-test-binaries.sh. */
    public static Path testCuda(String name) {
        return RecordedCuobjdump.testCuda(name);
    }

    /** A stack-demo library, built with the example's own build script on first use. */
    public static synchronized Path stackDemo(String name) throws IOException, InterruptedException {
        Path file = STACK_DEMO.resolve(name).toAbsolutePath();
        String targets = name.equals("libstackdemo_sm90.so") ? "sm90-sass-only" : "all";
        Path script = Path.of("examples", "stack-demo", "src", "main", "cuda", "build.sh");
        Path source = Path.of("examples", "stack-demo", "src", "main", "cuda", "stack_demo.cu");
        Process build = new ProcessBuilder("bash", script.toString(), source.toString(), file.toString(), targets)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(build.waitFor(300, TimeUnit.SECONDS)).as("build of %s finished", name).isTrue();
        assertThat(build.exitValue()).as("examples/stack-demo build.sh %s (needs nvcc 13.0)", name).isZero();
        return file;
    }

    /**
     * The real cuobjdump's text for a test binary or stack-demo library; in the {@code -G} build's identifiers the
     * source path of the recorded build is replaced by this checkout's (the build script compiles it by absolute path).
     */
    public static String recording(String name) throws IOException {
        Path file = (RECORDED_STACK_DEMO.contains(name) ? IT_RECORDINGS : RECORDED)
                .resolve(name + ".resource-usage.txt");
        assertThat(file).as("recorded cuobjdump output").isRegularFile();
        String text = Files.readString(file, StandardCharsets.ISO_8859_1);
        return text.replace("identifier = " + RECORDED_DEBUG_SOURCE, "identifier = "
                + Path.of("src", "test", "cuda", "frames.cu").toAbsolutePath().normalize());
    }

    /** The real file behind a recorded name. */
    public static Path recordedFile(String name) throws IOException, InterruptedException {
        return RECORDED_STACK_DEMO.contains(name) ? stackDemo(name) : testCuda(name);
    }

    /** Reads a file the way cuobjdump was given it: the archive under its recorded path (for member lines). */
    public static DeviceCodeListing readAsRecorded(DeviceCodeReader reader, String name) throws Exception {
        Path file = recordedFile(name);
        String source = name.equals("libframes.a") ? RECORDED_ARCHIVE_PATH : name;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return reader.read(source, name, ByteRegion.map(source, channel));
        }
    }

    /** A copy of a test binary in {@code directory} with {@code edit} applied to its bytes. */
    public static Path corrupted(Path directory, String name, java.util.function.Consumer<byte[]> edit)
            throws IOException {
        byte[] bytes = Files.readAllBytes(testCuda(name));
        edit.accept(bytes);
        Path copy = directory.resolve(name);
        Files.write(copy, bytes);
        return copy;
    }
}
