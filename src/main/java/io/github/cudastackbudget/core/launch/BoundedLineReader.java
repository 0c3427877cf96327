package io.github.cudastackbudget.core.launch;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;

/**
 * Lines of a log read one at a time with a bound on each: a line ends at {@code \n}, {@code \r\n} or a lone {@code \r}
 * (as {@link java.io.BufferedReader#readLine()}); characters beyond {@link #MAX_LINE} are dropped and the line is
 * marked {@link #tooLong()}, so a file of one endless line costs no more memory than one bounded line.
 */
final class BoundedLineReader implements Closeable {

    /** The longest line kept, in characters: far above any mangled name or path a real log holds. */
    static final int MAX_LINE = 1 << 20;

    private final Reader in;
    private final int maxLine;
    private final char[] buffer = new char[8192];
    private int position;
    private int length;
    private boolean tooLong;

    BoundedLineReader(Reader in) {
        this(in, MAX_LINE);
    }

    BoundedLineReader(Reader in, int maxLine) {
        this.in = in;
        this.maxLine = maxLine;
    }

    /** The next line without its terminator, or null at the end of the input. */
    String next() throws IOException {
        StringBuilder line = new StringBuilder();
        tooLong = false;
        boolean any = false;
        while (true) {
            if (position == length && !fill()) {
                return any ? line.toString() : null;
            }
            char c = buffer[position++];
            any = true;
            if (c == '\n') {
                return line.toString();
            }
            if (c == '\r') {
                if ((position < length || fill()) && buffer[position] == '\n') {
                    position++;
                }
                return line.toString();
            }
            if (line.length() < maxLine) {
                line.append(c);
            } else {
                tooLong = true;
            }
        }
    }

    /** Whether the line {@link #next()} last returned was cut at {@link #MAX_LINE} characters. */
    boolean tooLong() {
        return tooLong;
    }

    private boolean fill() throws IOException {
        int read;
        do {
            read = in.read(buffer, 0, buffer.length);
        } while (read == 0);
        position = 0;
        length = Math.max(read, 0);
        return read > 0;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
