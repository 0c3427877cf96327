package io.github.cudastackbudget.core.binary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Writes {@code ar} archives in GNU ({@code //} long names) or BSD ({@code #1/NN}) style. */
public final class ArBuilder {
    private final List<String> names = new ArrayList<>();
    private final List<byte[]> contents = new ArrayList<>();
    private final ByteArrayOutputStream raw = new ByteArrayOutputStream();
    private boolean symbolTable;

    public ArBuilder gnuSymbolTable() {
        symbolTable = true;
        return this;
    }

    public ArBuilder gnuMember(String name, byte[] content) {
        names.add(name);
        contents.add(content);
        return this;
    }

    public ArBuilder bsdMember(String name, byte[] content) {
        byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
        byte[] padded = Arrays.copyOf(nameBytes, (nameBytes.length + 3) & ~3); // NUL padded, like macOS ar
        header(raw, "#1/" + padded.length, padded.length + content.length);
        raw.writeBytes(padded);
        raw.writeBytes(content);
        pad(raw, padded.length + content.length);
        return this;
    }

    public byte[] buildRaw() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(raw.toByteArray());
        return out.toByteArray();
    }

    public byte[] buildGnu() {
        ByteArrayOutputStream longNames = new ByteArrayOutputStream();
        List<String> headerNames = new ArrayList<>();
        for (String name : names) {
            if (name.length() > 15) {
                headerNames.add("/" + longNames.size());
                longNames.writeBytes((name + "/\n").getBytes(StandardCharsets.US_ASCII));
            } else {
                headerNames.add(name + "/");
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
        if (symbolTable) {
            member(out, "/", new byte[] {0, 0, 0, 0}); // big-endian count 0
        }
        if (longNames.size() > 0) {
            member(out, "//", longNames.toByteArray());
        }
        for (int i = 0; i < names.size(); i++) {
            member(out, headerNames.get(i), contents.get(i));
        }
        return out.toByteArray();
    }

    private static void member(ByteArrayOutputStream out, String headerName, byte[] content) {
        header(out, headerName, content.length);
        out.writeBytes(content);
        pad(out, content.length);
    }

    private static void header(ByteArrayOutputStream out, String name, long size) {
        String header = String.format("%-16s%-12s%-6s%-6s%-8s%-10s`\n", name, "0", "0", "0", "644", size);
        assertThat(header).hasSize(60);
        out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
    }

    private static void pad(ByteArrayOutputStream out, long length) {
        if ((length & 1) != 0) {
            out.write('\n');
        }
    }
}
