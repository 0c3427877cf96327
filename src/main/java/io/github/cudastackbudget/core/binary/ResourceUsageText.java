package io.github.cudastackbudget.core.binary;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a {@link DeviceCodeListing} as {@code cuobjdump --dump-resource-usage} (cuobjdump 13.0) prints it, byte for
 * byte (docs/cuda-binary-format.md section 6): per entry an empty line, {@code Fatbin elf code:} or
 * {@code Fatbin ptx code:}, the underline, {@code arch}, {@code code version}, {@code host}, {@code compile_size},
 * optional {@code has debug info}, {@code compressed}, {@code identifier}, the {@code ptxasOptions} of PTX entries;
 * then for cubins an empty line, {@code Resource usage:}, the {@code Common} line and one line per function. A bare
 * cubin prints only the part from the empty line before {@code Resource usage:}; archives print
 * {@code member PATH:MEMBER:} after an empty line before each member's images. Names are written as the bytes of the
 * symbol table.
 */
public final class ResourceUsageText {

    private ResourceUsageText() {
    }

    /** The whole text. */
    public static String toText(DeviceCodeListing listing) {
        StringBuilder text = new StringBuilder(256 + listing.imageCount() * 512);
        append(listing, text);
        return text.toString();
    }

    /** Writes the text as the bytes cuobjdump prints (names are written byte for byte). */
    public static void write(DeviceCodeListing listing, OutputStream out) throws IOException {
        StringBuilder text = new StringBuilder(1 << 16);
        for (DeviceCodeListing.Block block : listing.blocks()) {
            appendBlock(listing, block, text);
            out.write(text.toString().getBytes(StandardCharsets.ISO_8859_1));
            text.setLength(0);
        }
    }

    /** Appends the whole text. */
    public static void append(DeviceCodeListing listing, StringBuilder text) {
        for (DeviceCodeListing.Block block : listing.blocks()) {
            appendBlock(listing, block, text);
        }
    }

    private static void appendBlock(DeviceCodeListing listing, DeviceCodeListing.Block block, StringBuilder text) {
        if (block.member() != null) {
            text.append("\nmember ").append(listing.source()).append(':').append(block.member()).append(":\n");
        }
        for (DeviceImage image : block.images()) {
            appendImage(image, text);
        }
    }

    private static void appendImage(DeviceImage image, StringBuilder text) {
        FatbinEntry entry = image.entry();
        if (entry != null) {
            text.append('\n').append(entry.isPtx() ? "Fatbin ptx code:\n" : "Fatbin elf code:\n")
                    .append("================\n")
                    .append("arch = ").append(entry.archLabel()).append('\n')
                    .append("code version = [").append(entry.codeVersionMajor()).append(',')
                    .append(entry.codeVersionMinor()).append("]\n")
                    .append("host = ").append(entry.host()).append('\n')
                    .append("compile_size = ").append((entry.flags() & FatbinEntry.FLAG_64BIT) != 0 ? "64bit" : "32bit")
                    .append('\n');
            if ((entry.flags() & FatbinEntry.FLAG_DEBUG) != 0) {
                text.append("has debug info\n");
            }
            if (entry.compression() != FatbinEntry.Compression.NONE) {
                text.append("compressed\n");
            }
            if (!entry.identifier().isEmpty()) {
                text.append("identifier = ").append(entry.identifier()).append('\n');
            }
            if (entry.isPtx()) {
                if (entry.ptxasOptions() != null) {
                    text.append("ptxasOptions = ").append(entry.ptxasOptions()).append('\n');
                }
                return;
            }
        }
        CubinResources resources = image.resources();
        text.append("\nResource usage:\n Common:\n  GLOBAL:").append(resources.global());
        for (CubinResources.ConstantBank bank : resources.commonConstants()) {
            appendBank(bank, text);
        }
        text.append('\n');
        for (CubinResources.Function function : resources.functions()) {
            text.append(" Function ").append(function.name()).append(":\n  REG:").append(function.registers())
                    .append(" STACK:");
            if (function.stackUnknown()) {
                text.append("UNKNOWN");
            } else {
                text.append(function.stack());
            }
            text.append(" SHARED:").append(function.shared()).append(" LOCAL:").append(function.local());
            for (CubinResources.ConstantBank bank : function.constants()) {
                appendBank(bank, text);
            }
            text.append(" TEXTURE:0 SURFACE:0 SAMPLER:0\n");
        }
    }

    private static void appendBank(CubinResources.ConstantBank bank, StringBuilder text) {
        text.append(" CONSTANT[").append(bank.bank()).append("]:").append(bank.size());
    }
}
