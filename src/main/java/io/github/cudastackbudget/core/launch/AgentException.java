package io.github.cudastackbudget.core.launch;

/** The injection library cannot be provided. The message is one line that names the file and what to do. */
public final class AgentException extends Exception {
    private static final long serialVersionUID = 1L;

    public AgentException(String message) {
        super(message);
    }

    public AgentException(String message, Throwable cause) {
        super(message, cause);
    }
}
