package io.github.cudastackbudget.core;

/** Where the check reports progress (the Maven log, a console). Called from several threads. */
public interface CheckListener {

    void info(String line);

    void warn(String line);

    /** A listener that drops everything. */
    CheckListener SILENT = new CheckListener() {
        @Override
        public void info(String line) {
        }

        @Override
        public void warn(String line) {
        }
    };
}
