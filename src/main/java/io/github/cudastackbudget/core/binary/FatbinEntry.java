package io.github.cudastackbudget.core.binary;

/**
 * The header of one fatbin entry (one PTX text or one cubin for one architecture), little-endian, as laid out in
 * docs/cuda-binary-format.md section 3.2. Only layouts seen on real files are accepted by {@link FatbinWalker}.
 *
 * @param fileOffset       absolute offset of the entry header in the file (for messages)
 * @param kind             1 = PTX text, 2 = ELF cubin
 * @param headerSize       entry header size; the payload starts there
 * @param payloadSize      payload bytes in the container (compressed size rounded up to 8)
 * @param compressedSize   exact compressed size (offset 0x10); 0 when not compressed
 * @param codeVersionMajor code version major (0x1A)
 * @param codeVersionMinor code version minor (0x18)
 * @param arch             architecture number (0x1C): 75, 90, 100, 121 ...
 * @param identifier       the identifier string (source path with {@code -G}) up to its first NUL; empty when none
 * @param ptxasOptions     PTX entries: the ptxas options string up to its first NUL (may be empty); null for cubins
 *                         and for PTX entries whose descriptor is the empty {0, 0} of Windows builds (cuobjdump then
 *                         prints no {@code ptxasOptions} line)
 * @param flags            the flags word (0x28)
 * @param uncompressedSize uncompressed size (0x38); 0 when not compressed
 */
public record FatbinEntry(long fileOffset, int kind, int headerSize, long payloadSize, long compressedSize,
        int codeVersionMajor, int codeVersionMinor, int arch, String identifier, String ptxasOptions, long flags,
        long uncompressedSize) {

    public static final int KIND_PTX = 1;
    public static final int KIND_ELF = 2;

    public static final long FLAG_64BIT = 0x1;
    public static final long FLAG_DEBUG = 0x2;
    public static final long FLAG_HOST_LINUX = 0x10;
    public static final long FLAG_HOST_MAC = 0x20;
    public static final long FLAG_HOST_WINDOWS = 0x40;
    public static final long FLAG_LZ4 = 0x2000;
    public static final long FLAG_ZSTD = 0x8000;
    public static final long FLAG_ARCH_SPECIFIC = 0x100000;
    public static final long FLAG_FAMILY = 0x200000;
    public static final long FLAG_COMPAT_DESCRIPTOR = 0x1000000;
    /** Every flag bit seen on real files; any other bit fails the read (it may change the layout). */
    public static final long KNOWN_FLAGS = FLAG_64BIT | FLAG_DEBUG | FLAG_HOST_LINUX | FLAG_HOST_MAC
            | FLAG_HOST_WINDOWS | FLAG_LZ4 | FLAG_ZSTD | FLAG_ARCH_SPECIFIC | FLAG_FAMILY | FLAG_COMPAT_DESCRIPTOR;

    /** How the payload is stored. */
    public enum Compression { NONE, LZ4, ZSTD }

    public boolean isPtx() {
        return kind == KIND_PTX;
    }

    public Compression compression() {
        if ((flags & FLAG_ZSTD) != 0) {
            return Compression.ZSTD;
        }
        return (flags & FLAG_LZ4) != 0 ? Compression.LZ4 : Compression.NONE;
    }

    /** {@code a} for arch-specific, {@code f} for family-specific, else empty. */
    public String variantSuffix() {
        return ((flags & FLAG_ARCH_SPECIFIC) != 0 ? "a" : "") + ((flags & FLAG_FAMILY) != 0 ? "f" : "");
    }

    /** {@code sm_90a} as cuobjdump prints it, for PTX entries too. */
    public String archLabel() {
        return "sm_" + arch + variantSuffix();
    }

    /** {@code linux}, {@code mac}, {@code windows} (the last two are unverified, docs section 3.3). */
    public String host() {
        if ((flags & FLAG_HOST_LINUX) != 0) {
            return "linux";
        }
        if ((flags & FLAG_HOST_MAC) != 0) {
            return "mac";
        }
        return (flags & FLAG_HOST_WINDOWS) != 0 ? "windows" : "unknown";
    }
}
