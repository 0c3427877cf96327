package io.github.cudastackbudget.core.report.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sentence in typed parts, written once ({@link Phrases}) and marked up by each output its own way: the log and the
 * text report join the parts, the standalone page escapes them and wraps kernels and libraries in spans, the site page
 * turns them into sink events.
 *
 * @param parts the parts, in order
 */
public record Sentence(List<Part> parts) {

    public Sentence {
        parts = List.copyOf(parts);
    }

    /** What a part is. */
    public enum Kind {
        /** words. */
        TEXT,
        /** a device's name (the subject of a verdict). */
        DEVICE,
        /** a kernel: {@link Part#text()} its readable name, {@link Part#detail()} its mangled one. */
        KERNEL,
        /** a library label. */
        LIBRARY,
        /** a size shown for people with its exact bytes ({@code 2.58 GiB (2,766,077,952 B)}): {@link Part#bytes()}. */
        BYTES
    }

    /**
     * One part.
     *
     * @param kind   what it is
     * @param text   the words, name or label (empty for {@link Kind#BYTES})
     * @param detail the mangled name of a {@link Kind#KERNEL}, else null
     * @param bytes  the size of a {@link Kind#BYTES} part, else 0
     */
    public record Part(Kind kind, String text, String detail, long bytes) {
        public Part {
            Objects.requireNonNull(kind, "kind");
            text = text == null ? "" : text;
        }
    }

    /** The sentence as plain text (the log, the text report). */
    public String plain() {
        StringBuilder text = new StringBuilder();
        for (Part part : parts) {
            text.append(part.kind() == Kind.BYTES ? Figures.bytes(part.bytes()) : part.text());
        }
        return text.toString();
    }

    /** Builds a sentence part by part. */
    static final class Builder {
        private final List<Part> parts = new ArrayList<>();

        Builder text(String text) {
            parts.add(new Part(Kind.TEXT, text, null, 0));
            return this;
        }

        Builder device(String name) {
            parts.add(new Part(Kind.DEVICE, name, null, 0));
            return this;
        }

        Builder kernel(String displayName, String mangled) {
            parts.add(new Part(Kind.KERNEL, displayName, mangled, 0));
            return this;
        }

        Builder library(String library) {
            parts.add(new Part(Kind.LIBRARY, library, null, 0));
            return this;
        }

        Builder bytes(long bytes) {
            parts.add(new Part(Kind.BYTES, "", null, bytes));
            return this;
        }

        Sentence build() {
            return new Sentence(parts);
        }
    }
}
