package io.github.cudastackbudget.maven;

import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.SystemStreamLog;

/** A mojo log that keeps its lines ({@code INFO ...}, {@code WARN ...}, {@code ERROR ...}) for assertions. */
final class LogLines extends SystemStreamLog {

    final List<String> lines = new ArrayList<>();

    @Override
    public void info(CharSequence content) {
        lines.add("INFO " + content);
    }

    @Override
    public void warn(CharSequence content) {
        lines.add("WARN " + content);
    }

    @Override
    public void error(CharSequence content) {
        lines.add("ERROR " + content);
    }

    /** The lines that contain {@code text}. */
    List<String> containing(String text) {
        return lines.stream().filter(line -> line.contains(text)).toList();
    }
}
