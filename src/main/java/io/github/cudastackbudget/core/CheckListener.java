package io.github.cudastackbudget.core;

import io.github.cudastackbudget.core.check.CheckProgress;

/** Where the check reports progress (the Maven log, a console). Called from several threads. */
public interface CheckListener extends CheckProgress {

    @Override
    void info(String line);

    @Override
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
