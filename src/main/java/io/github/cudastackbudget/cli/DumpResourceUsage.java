package io.github.cudastackbudget.cli;

import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.DeviceCodeListing;
import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.ResourceUsageText;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Prints what {@code cuobjdump --dump-resource-usage FILE...} prints (cuobjdump 13.0 text), read by the native reader
 * without NVIDIA tools: {@code java -cp 'lib/*' io.github.cudastackbudget.cli.DumpResourceUsage FILE...}. Exit
 * status: 0 when every file was read, 1 when one could not be (one line on stderr per file), 2 on misuse.
 */
public final class DumpResourceUsage {

    private DumpResourceUsage() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, OutputStream stdout, PrintStream stderr) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            stderr.println("usage: DumpResourceUsage FILE...   (prints cuobjdump --dump-resource-usage text, read "
                    + "without NVIDIA tools)");
            return 2;
        }
        DeviceCodeReader reader = DeviceCodeReader.withDefaults();
        int status = 0;
        OutputStream out = new BufferedOutputStream(stdout, 1 << 16);
        try {
            for (String name : args) {
                try {
                    DeviceCodeListing listing = reader.read(Path.of(name));
                    ResourceUsageText.write(listing, out);
                } catch (BinaryFormatException e) {
                    out.flush();
                    stderr.println("DumpResourceUsage: " + e.getMessage());
                    status = 1;
                } catch (IOException e) {
                    out.flush();
                    stderr.println("DumpResourceUsage: " + name + ": cannot read: " + e);
                    status = 1;
                }
            }
            out.flush();
        } catch (IOException e) {
            stderr.println("DumpResourceUsage: cannot write the output: " + e.getMessage());
            return 1;
        }
        return status;
    }
}
