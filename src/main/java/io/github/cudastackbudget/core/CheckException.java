package io.github.cudastackbudget.core;

/** The check could not run (misuse or broken input). The message is one line that says what to do. */
public class CheckException extends Exception {
    private static final long serialVersionUID = 1L;

    public CheckException(String message) {
        super(message);
    }

    public CheckException(String message, Throwable cause) {
        super(message, cause);
    }
}
