package io.github.cudastackbudget.core.launch;

/** A launch or library log cannot be used at all. The message is one line that names the file and what to do. */
public final class LaunchLogException extends Exception {
    private static final long serialVersionUID = 1L;

    public LaunchLogException(String message) {
        super(message);
    }

    public LaunchLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
