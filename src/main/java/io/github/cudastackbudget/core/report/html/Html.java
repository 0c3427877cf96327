package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.Sentence;

/** Escaping and the few markup fragments the page repeats. */
final class Html {

    private Html() {
    }

    /** Text for element content and attribute values: {@code & < > " '} escaped. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        int length = text.length();
        int at = 0;
        while (at < length && replacement(text.charAt(at)) == null) {
            at++;
        }
        if (at == length) {
            return text;
        }
        // whole runs between the characters to replace: the page escapes every kernel name, cold
        StringBuilder out = new StringBuilder(length + 16).append(text, 0, at);
        int from = at;
        for (; at < length; at++) {
            String replacement = replacement(text.charAt(at));
            if (replacement != null) {
                out.append(text, from, at).append(replacement);
                from = at + 1;
            }
        }
        return out.append(text, from, length).toString();
    }

    private static String replacement(char c) {
        return switch (c) {
            case '&' -> "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            case '\'' -> "&#39;";
            default -> null;
        };
    }

    /** {@code 2.58 GiB} with the exact bytes on hover; below 1 KiB just {@code 512 B}. */
    static String bytes(long bytes) {
        if (Math.abs(bytes) < 1024) {
            return "<span class=\"bytes\">" + bytes + " B</span>";
        }
        return "<span class=\"bytes\" title=\"" + Figures.grouped(bytes) + " B\">" + Figures.human(bytes) + "</span>";
    }

    /** {@code 2.58 GiB (2,766,077,952 B)}: human and exact. */
    static String bytesExact(long bytes) {
        if (Math.abs(bytes) < 1024) {
            return bytes + " B";
        }
        return Figures.human(bytes) + " <span class=\"exact\">(" + Figures.grouped(bytes) + " B)</span>";
    }

    /** A kernel's readable name, the mangled one on hover. */
    static String kernelName(String displayName, String mangled) {
        return "<span class=\"kname\" title=\"" + escape(mangled) + "\">" + escape(displayName) + "</span>";
    }

    /** A sentence of the shared wording: parts escaped, kernels and libraries marked up, sizes human and exact. */
    static String sentence(Sentence sentence) {
        StringBuilder html = new StringBuilder();
        for (Sentence.Part part : sentence.parts()) {
            html.append(switch (part.kind()) {
                case TEXT, DEVICE -> escape(part.text());
                case KERNEL -> kernelName(part.text(), part.detail());
                case LIBRARY -> "<span class=\"lib\">" + escape(part.text()) + "</span>";
                case BYTES -> bytesExact(part.bytes());
            });
        }
        return html.toString();
    }
}
