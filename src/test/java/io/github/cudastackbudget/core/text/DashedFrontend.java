package io.github.cudastackbudget.core.text;

import java.util.Locale;

/**
 * A front end that spells every option as a command-line flag ({@code maxReservation} -> {@code --max-reservation}),
 * for tests that check a message names the option the way its front end does, not the way Maven does.
 */
public final class DashedFrontend implements Frontend {

    public static final DashedFrontend INSTANCE = new DashedFrontend();

    private DashedFrontend() {
    }

    @Override
    public String name(Option option) {
        return "--" + option.parameter().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    @Override
    public String howToSet(Option option, String example) {
        return example.isEmpty() ? name(option) : name(option) + " " + example;
    }

    @Override
    public String element(Option option) {
        return name(option);
    }
}
