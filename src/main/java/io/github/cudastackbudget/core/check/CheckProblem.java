package io.github.cudastackbudget.core.check;

/**
 * The check cannot go on (misuse or broken input): a configured file that does not exist, a budget that cannot be
 * resolved, no engine. The message is one line that says what to do; {@code CheckRunner} hands it on as the API's
 * {@code CheckProblem}.
 */
public class CheckProblem extends Exception {
    private static final long serialVersionUID = 1L;

    public CheckProblem(String message) {
        super(message);
    }

    public CheckProblem(String message, Throwable cause) {
        super(message, cause);
    }
}
