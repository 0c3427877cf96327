package io.github.cudastackbudget.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import java.io.IOException;

/**
 * The layout of the JSON report (schema 2): objects one entry a line, indented by two spaces; arrays on one line
 * unless the writer asks for one element a line ({@link #linesNext()}); and a container the writer marks
 * ({@link #flatNext()}) written on one line with nothing between its tokens, whatever it holds (one function, one
 * note, one library a line). Deterministic: the same calls give the same bytes.
 */
final class JsonLayout implements PrettyPrinter {

    private static final int MAX_DEPTH = 64;

    /** Per open container: whether its elements go on lines of their own. */
    private final boolean[] lines = new boolean[MAX_DEPTH];
    private int depth;
    /** The depth of the container that began a flat region, or 0 outside one. */
    private int flatFrom;
    private boolean flatPending;
    private boolean linesPending;
    /** Between two values at the root. */
    private final String rootSeparator;

    /** The report's layout. */
    JsonLayout() {
        this("\n");
    }

    private JsonLayout(String rootSeparator) {
        this.rootSeparator = rootSeparator;
    }

    /**
     * A layout for a run of consecutive elements of an array that puts its elements on lines of their own at
     * {@code depth} (the report's {@link #depth()} inside that array), written as root values of a generator of their
     * own: separated as that array separates them, so that the run's bytes are those the report's generator would
     * write between the array's first element and its last (a range rendered apart, issue 11).
     */
    static JsonLayout elementsAt(int depth) {
        StringBuilder separator = new StringBuilder(",\n");
        for (int i = 0; i < depth; i++) {
            separator.append("  ");
        }
        return new JsonLayout(separator.toString());
    }

    /** How many containers are open. */
    int depth() {
        return depth;
    }

    /** The next container and everything in it go on one line. */
    void flatNext() {
        flatPending = true;
    }

    /** The next array puts each element on a line of its own. */
    void linesNext() {
        linesPending = true;
    }

    private void open(JsonGenerator json, char bracket, boolean object) throws IOException {
        json.writeRaw(bracket);
        depth++;
        if (flatPending && flatFrom == 0) {
            flatFrom = depth;
        }
        flatPending = false;
        lines[depth] = flatFrom == 0 && (object || linesPending);
        linesPending = false;
    }

    private void close(JsonGenerator json, char bracket, int entries) throws IOException {
        if (lines[depth] && entries > 0) {
            newline(json, depth - 1);
        }
        json.writeRaw(bracket);
        if (flatFrom == depth) {
            flatFrom = 0;
        }
        depth--;
    }

    private static void newline(JsonGenerator json, int indent) throws IOException {
        json.writeRaw('\n');
        for (int i = 0; i < indent; i++) {
            json.writeRaw("  ");
        }
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator json) throws IOException {
        json.writeRaw(rootSeparator);
    }

    @Override
    public void writeStartObject(JsonGenerator json) throws IOException {
        open(json, '{', true);
    }

    @Override
    public void writeEndObject(JsonGenerator json, int entries) throws IOException {
        close(json, '}', entries);
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator json) throws IOException {
        separator(json);
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator json) throws IOException {
        json.writeRaw(lines[depth] ? ": " : ":");
    }

    @Override
    public void writeStartArray(JsonGenerator json) throws IOException {
        open(json, '[', false);
    }

    @Override
    public void writeEndArray(JsonGenerator json, int values) throws IOException {
        close(json, ']', values);
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator json) throws IOException {
        separator(json);
    }

    /** A comma, then a line break where the enclosing object or array takes one entry a line. */
    private void separator(JsonGenerator json) throws IOException {
        json.writeRaw(',');
        if (lines[depth]) {
            newline(json, depth);
        }
    }

    @Override
    public void beforeArrayValues(JsonGenerator json) throws IOException {
        if (lines[depth]) {
            newline(json, depth);
        }
    }

    @Override
    public void beforeObjectEntries(JsonGenerator json) throws IOException {
        if (lines[depth]) {
            newline(json, depth);
        }
    }
}
