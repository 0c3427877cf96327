package io.github.cudastackbudget.core.binary;

import java.util.List;
import java.util.Objects;

/**
 * Everything the native reader found in one file, in file order: one block for a plain file, one per regular member
 * of an {@code ar} archive (members without device code have a block without images, as cuobjdump prints a
 * {@code member} line for them too).
 *
 * @param source the file as the caller named it (cuobjdump prints it in {@code member} lines)
 * @param label  the library label of the file: its file name, or the label given for in-memory content
 * @param kind   what the file is (never {@link BinaryKind#UNKNOWN})
 * @param blocks the blocks in file order
 * @param platform the platform the file is built for ({@link Platforms}): {@code linux-x86_64}, {@code windows-x86_64}
 */
public record DeviceCodeListing(String source, String label, BinaryKind kind, List<Block> blocks, String platform) {

    public DeviceCodeListing {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(kind, "kind");
        blocks = List.copyOf(blocks);
        platform = platform == null ? Platforms.UNKNOWN : platform;
    }

    /** A listing whose platform is unknown. */
    public DeviceCodeListing(String source, String label, BinaryKind kind, List<Block> blocks) {
        this(source, label, kind, blocks, Platforms.UNKNOWN);
    }

    /**
     * The images of the file, or of one archive member.
     *
     * @param member the archive member name; null outside archives
     * @param label  the library label of the images: the file's, or {@code label(member)}
     * @param images in file order
     */
    public record Block(String member, String label, List<DeviceImage> images) {
        public Block {
            Objects.requireNonNull(label, "label");
            images = List.copyOf(images);
        }
    }

    /** How many images all blocks hold. */
    public int imageCount() {
        return blocks.stream().mapToInt(block -> block.images().size()).sum();
    }
}
