package io.github.cudastackbudget.core.binary;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@link DeviceCodeDetector} found in one file: whether it carries CUDA device code, as typed facts and as one
 * line of text.
 *
 * @param file                      the probed file (for a JAR entry: the JAR)
 * @param kind                      what kind of file it is
 * @param hasDeviceCode             whether it contains CUDA device code
 * @param detail                    a short human-readable reason, e.g. {@code "ELF64 with .nv_fatbin"} or
 *                                  {@code "truncated ELF header"}
 * @param membersWithDeviceCode     for an {@code ar} archive, the names of the members with device code, in archive
 *                                  order; empty otherwise (an unmodifiable copy)
 * @param onlyRelocatableDeviceCode true for a host ELF file whose only device code is relocatable: a
 *                                  {@code __nv_relfatbin} section and no {@code .nv_fatbin} ({@code -rdc=true} objects,
 *                                  whose frames are final only after the device link)
 * @param unreadable                null for a file that was read; else device code that could not be read: a file
 *                                  with ELF, {@code ar} or fatbin structure that the readers refuse, or that holds the
 *                                  fatbin magic where no reader finds it ({@code hasDeviceCode} is then true, and
 *                                  {@code detail} is the same one line)
 */
public record DeviceCodeProbe(Path file, BinaryKind kind, boolean hasDeviceCode, String detail,
        List<String> membersWithDeviceCode, boolean onlyRelocatableDeviceCode, Unreadable unreadable) {

    /**
     * Why device code could not be read.
     *
     * @param source  the file (with the archive member) as named in messages
     * @param offset  the byte offset of the problem in that file, or -1
     * @param problem what is wrong, one line
     */
    public record Unreadable(String source, long offset, String problem) {
        public Unreadable {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(problem, "problem");
        }

        /** From a reader's refusal. */
        public static Unreadable of(BinaryFormatException e) {
            return new Unreadable(e.source(), e.offset(), e.what());
        }

        /** {@code FILE: at offset 0xN: PROBLEM}, one line. */
        public String message() {
            return source + (offset >= 0 ? ": at offset 0x" + Long.toHexString(offset) + ": " : ": ") + problem;
        }

        @Override
        public String toString() {
            return "Unreadable[source=" + source + ", offset=" + offset + ", problem=" + problem + "]";
        }
    }

    // written out in the generated one's form (issue 11): it is part of the check-result cache's key, and the
    // generated toString bootstraps through method handles, about 50 ms in a build's cold JVM
    @Override
    public String toString() {
        return "DeviceCodeProbe[file=" + file + ", kind=" + kind + ", hasDeviceCode=" + hasDeviceCode + ", detail="
                + detail + ", membersWithDeviceCode=" + membersWithDeviceCode + ", onlyRelocatableDeviceCode="
                + onlyRelocatableDeviceCode + ", unreadable=" + unreadable + "]";
    }

    /** A probe of a file that was read. */
    public DeviceCodeProbe(Path file, BinaryKind kind, boolean hasDeviceCode, String detail,
            List<String> membersWithDeviceCode, boolean onlyRelocatableDeviceCode) {
        this(file, kind, hasDeviceCode, detail, membersWithDeviceCode, onlyRelocatableDeviceCode, null);
    }

    /** Whether this is device code that could not be read. */
    public boolean isUnreadable() {
        return unreadable != null;
    }

    /** Checks the arguments and copies the member list. */
    public DeviceCodeProbe {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        membersWithDeviceCode = membersWithDeviceCode == null ? List.of() : List.copyOf(membersWithDeviceCode);
    }

    /** A probe of a file that is not only relocatable device code. */
    public DeviceCodeProbe(Path file, BinaryKind kind, boolean hasDeviceCode, String detail,
            List<String> membersWithDeviceCode) {
        this(file, kind, hasDeviceCode, detail, membersWithDeviceCode, false);
    }
}
