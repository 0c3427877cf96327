package io.github.cudastackbudget.core.text;

/**
 * A user-supplied value (compute capability, size, device figure, preset id) that cannot be used. The message is one
 * line that names the value and says what is accepted; callers show it as it is.
 */
public class InvalidValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidValueException(String message) {
        super(message);
    }
}
