package io.github.cudastackbudget.core.binary;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes the small Windows DLL of the invoker IT {@code src/it/check-dll-dependency} (run once, by hand; a test keeps
 * the committed file equal to what this writes): a PE32+ image made by {@link PeBuilder} (a 64-byte {@code .text},
 * then {@code .nv_fatb}) around the second fatbin container (12,152 bytes at 0x3d910) of the recorded slice of the
 * real ONNX Runtime 1.23.2 Windows DLL ({@code onnxruntime_providers_cuda.dll}, built by nvcc on Windows: host flag
 * windows; 10 functions, SASS sm_75, sm_86, sm_89, PTX compute_90).
 *
 * <pre>java -cp target/test-classes:target/classes io.github.cudastackbudget.core.binary.WriteItDll OUT.dll</pre>
 */
public final class WriteItDll {

    /** The recorded slice (5 containers) of the real Windows fatbin. */
    public static final Path SLICE = Path.of("src", "test", "resources", "recorded", "windows",
            "onnxruntime_providers_cuda-slice.fatbin");

    /** Where the second container starts in the slice. */
    public static final int CONTAINER_OFFSET = 0x3d910;

    private WriteItDll() {
    }

    /** The second container of the slice, header included (magic, version, header size, payload size). */
    public static byte[] windowsContainer() throws java.io.IOException {
        byte[] slice = Files.readAllBytes(SLICE);
        ByteBuffer header = ByteBuffer.wrap(slice, CONTAINER_OFFSET, 16).order(ByteOrder.LITTLE_ENDIAN);
        if (header.getInt() != 0xBA55ED50) {
            throw new IllegalStateException(SLICE + ": no fatbin container at 0x" + Integer.toHexString(CONTAINER_OFFSET));
        }
        header.getShort();
        int headerSize = header.getShort();
        long size = header.getLong();
        return Arrays.copyOfRange(slice, CONTAINER_OFFSET, Math.toIntExact(CONTAINER_OFFSET + headerSize + size));
    }

    /** The DLL's bytes. */
    public static byte[] dll() throws java.io.IOException {
        return new PeBuilder().section(".text", new byte[64]).section(PeFile.NV_FATBIN, windowsContainer()).build();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: WriteItDll OUT.dll");
            System.exit(2);
        }
        Files.write(Path.of(args[0]), dll());
    }
}
