package io.github.cudastackbudget.core.engine;

/** An engine could not read a file, or is not usable at all. The message is one line naming the file or tool. */
public class EngineException extends Exception {
    private static final long serialVersionUID = 1L;

    public EngineException(String message) {
        super(message);
    }

    public EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
