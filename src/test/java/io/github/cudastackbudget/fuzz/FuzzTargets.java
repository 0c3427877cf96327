package io.github.cudastackbudget.fuzz;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.arch.GpuArch;
import io.github.cudastackbudget.core.binary.ArArchive;
import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.ByteRegion;
import io.github.cudastackbudget.core.binary.CubinReader;
import io.github.cudastackbudget.core.binary.DeviceCodeDetector;
import io.github.cudastackbudget.core.binary.DeviceCodeReader;
import io.github.cudastackbudget.core.binary.ElfFile;
import io.github.cudastackbudget.core.binary.EntryDecompressor;
import io.github.cudastackbudget.core.binary.FatbinWalker;
import io.github.cudastackbudget.core.binary.PtxEntryNames;
import io.github.cudastackbudget.core.binary.PtxEntryNamesReference;
import io.github.cudastackbudget.core.device.DeviceSpec;
import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.ResourceUsageParser;
import io.github.cudastackbudget.core.launch.LaunchLogException;
import io.github.cudastackbudget.core.launch.LaunchLogReader;
import io.github.cudastackbudget.core.report.model.InvalidReportException;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.InvalidValueException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One fuzz target per parser, each a {@code fuzzerTestOneInput(byte[])} (what Jazzer's standalone driver calls, for the
 * long campaign) and called by {@link ParserFuzzTest}'s {@code @FuzzTest} methods (the seeds and findings replayed by
 * every build, fuzzed with {@code JAZZER_FUZZ=1}).
 *
 * <p>The contract: bad input ends in one of the project's own typed exceptions with a non-blank one-line message.
 * Anything else escaping (a RuntimeException, an Error, a multi-line or empty message) is a finding:
 * {@link ContractViolation} or the raw throwable, both reported by Jazzer as a crash.
 */
public final class FuzzTargets {

    private FuzzTargets() {
    }

    /** A typed exception broke the message contract. */
    public static final class ContractViolation extends AssertionError {
        /** A wrong result, where nothing was thrown. */
        ContractViolation(String what) {
            super(what);
        }

        ContractViolation(String what, Throwable cause) {
            super(what + ": " + cause.getMessage(), cause);
            // the stack of the offending exception: Jazzer tells findings apart by it, one per place that throws
            setStackTrace(cause.getStackTrace());
        }
    }

    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    /** Runs a target body; lets through the typed exceptions (message checked), rethrows anything else. */
    static void contract(Body body) {
        try {
            body.run();
        } catch (BinaryFormatException | EngineException | LaunchLogException | InvalidValueException
                 | InvalidReportException | ResourceUsageParser.MalformedOutputException e) {
            String message = e.getMessage();
            if (message == null || message.isBlank()) {
                throw new ContractViolation(e.getClass().getSimpleName() + " without a message", e);
            }
            if (message.indexOf('\n') >= 0 || message.indexOf('\r') >= 0) {
                throw new ContractViolation(e.getClass().getSimpleName() + " with a message of several lines", e);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new ContractViolation("untyped checked exception " + e.getClass().getName() + ": " + e.getMessage(),
                    e);
        }
    }

    /** A temporary file a target writes each input to, deleted when the JVM exits. */
    static Path scratchFile(String prefix, String suffix) {
        try {
            Path file = Files.createTempFile(prefix, suffix);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ByteRegion region(String source, byte[] data) {
        return ByteRegion.of(source, ByteBuffer.wrap(data));
    }

    /** Cap on one decompressed fatbin entry in the targets: big enough for the real seeds, small for the fuzzer. */
    static final long MAX_ENTRY = 16L << 20;

    public static final class Elf {
        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                ElfFile elf = ElfFile.readAnyByteOrder(region("fuzz.o", data));
                for (ElfFile.Section section : elf.sections()) {
                    elf.contents(section);
                    elf.fileOffset(section);
                }
                if (elf.symbolTableSection() != null) {
                    elf.symbols();
                }
            });
        }
    }

    public static final class Ar {
        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                ByteRegion region = region("fuzz.a", data);
                if (ArArchive.isArchive(region)) {
                    ArArchive.Walk walk = ArArchive.walk(region);
                    for (ArArchive.Member member : walk.members()) {
                        if (!walk.thin()) {
                            region.sub(member.offset(), member.size(), "fuzz.a(" + member.name() + ")");
                        }
                    }
                    ArArchive.members(region);
                }
            });
        }
    }

    public static final class Fatbin {
        private static final EntryDecompressor DECOMPRESSOR = new EntryDecompressor(MAX_ENTRY);
        private static final Path FILE = scratchFile("fuzz-fatbin", ".fatbin");

        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                ByteRegion region = region("fuzz.fatbin", data);
                for (FatbinWalker.Entry entry : FatbinWalker.entries(region)) {
                    DECOMPRESSOR.payload(entry, "fuzz.fatbin");
                }
            });
            // the differential oracle of the file reader: the same bytes read from a file a window at a time give the
            // same entries, or the same error, as the walk over them in memory
            String inMemory = walk(region("fuzz.fatbin", data));
            String windowed;
            try {
                Files.write(FILE, data);
                try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(FILE)) {
                    windowed = walk(ByteRegion.read("fuzz.fatbin", channel));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (!inMemory.equals(windowed)) {
                throw new AssertionError("the windowed walk differs from the in-memory walk:\n" + inMemory + "\n---\n"
                        + windowed);
            }
        }

        private static String walk(ByteRegion region) {
            StringBuilder found = new StringBuilder();
            try {
                for (FatbinWalker.Entry entry : FatbinWalker.entries(region)) {
                    found.append(entry.header()).append(" @").append(entry.payloadOffset()).append(' ')
                            .append(entry.storedSize()).append(' ')
                            .append(java.util.Arrays.hashCode(entry.payloadBytes())).append('\n');
                }
            } catch (BinaryFormatException e) {
                found.append("error: ").append(e.getMessage());
            }
            return found.toString();
        }
    }

    public static final class Cubin {
        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                ElfFile elf = ElfFile.read(region("fuzz.cubin", data));
                if (CubinReader.isCubin(elf)) {
                    CubinReader.checkHeader(elf);
                    CubinReader.arch(elf);
                    CubinReader.read(elf);
                }
            });
        }
    }

    public static final class Ptx {
        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                // differential: the fast scan (issue 11) must give the names of the byte-at-a-time one it replaced
                List<String> names = PtxEntryNames.scan(ByteBuffer.wrap(data));
                List<String> reference = PtxEntryNamesReference.scan(ByteBuffer.wrap(data));
                if (!names.equals(reference)) {
                    throw new ContractViolation("PtxEntryNames " + names + " but the reference scan " + reference);
                }
            });
        }
    }

    public static final class NativeRead {
        private static final DeviceCodeReader READER = new DeviceCodeReader(1, MAX_ENTRY);

        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                DeviceCodeDetector.probe(Path.of("fuzz.so"), region("fuzz.so", data));
                DeviceCodeDetector.kind(region("fuzz.so", data));
                READER.read("fuzz.so", "fuzz.so", region("fuzz.so", data));
            });
        }
    }

    public static final class CuobjdumpText {
        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                GpuArch arch = data.length > 0 && (data[0] & 1) == 1 ? GpuArch.parse("sm_90") : null;
                ResourceUsageParser.parse("fuzz.so", arch,
                        new StringReader(new String(data, StandardCharsets.UTF_8)));
            });
        }
    }

    public static final class LaunchLog {
        private static final Path FILE = scratchFile("fuzz-launch", ".log");

        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                Files.write(FILE, data);
                if (data.length > 0 && (data[data.length - 1] & 3) == 3) {
                    LaunchLogReader.readLibraryLog(FILE, Frontend.PARAMETERS);
                } else {
                    LaunchLogReader.readLaunchLog(FILE, Frontend.PARAMETERS);
                }
            });
        }
    }

    public static final class Sizes {
        private static final DeviceSpec H100 = new DeviceSpec("h100", null, ComputeCapability.parse("9.0"),
                270_336, 132, 2048, 85_520_809_984L, "fuzz");

        public static void fuzzerTestOneInput(byte[] data) {
            String text = new String(data, StandardCharsets.UTF_8);
            contract(() -> ByteSize.parse(text, "fuzz"));
            contract(() -> SizeLimit.parse(text, "fuzz").resolve(H100, "fuzz"));
        }
    }

    public static final class ReportJson {
        public static void fuzzerTestOneInput(byte[] data) {
            contract(() -> {
                ReportModel model = ReportModel.read(new ByteArrayInputStream(data), "fuzz.json");
                model.recordCount();
                model.functionCount();
                model.sassArches();
            });
        }
    }
}
