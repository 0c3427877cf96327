package io.github.cudastackbudget.core.report.model;

import java.io.IOException;

/** A file that is not a cuda-stack-budget JSON report this version can read; the message names the file. */
public final class InvalidReportException extends IOException {

    private static final long serialVersionUID = 1L;

    public InvalidReportException(String message) {
        super(message);
    }

    public InvalidReportException(String message, Throwable cause) {
        super(message, cause);
    }
}
