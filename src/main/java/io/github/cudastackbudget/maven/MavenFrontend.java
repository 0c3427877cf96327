package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;

/**
 * How the goals spell the core's options in messages: the parameter id ({@code maxReservation}, as the reports say),
 * and, to set one, its user property ({@code -DcudaStackBudget.cuobjdump=/path/to/cuobjdump}) or, for a parameter
 * that only the POM sets, its element ({@code <libraryFiles><libraryFile>lib/libx.so</libraryFile></libraryFiles>}).
 */
public final class MavenFrontend implements Frontend {

    /** The one instance (it holds no state). */
    public static final MavenFrontend INSTANCE = new MavenFrontend();

    private MavenFrontend() {
    }

    /** The bare parameter id, e.g. {@code libraryLog}. */
    @Override
    public String name(Option option) {
        return option.parameter();
    }

    /**
     * {@code -D<property>=<example>} where the parameter has a user property; else (file sets and beans, which Maven
     * cannot build from a {@code -D} string) the POM element with one item holding {@code example}
     * ({@code <libraries><library><directory>native</directory></library></libraries>}), or the bare element
     * ({@code <libraries>}) when {@code example} is blank.
     */
    @Override
    public String howToSet(Option option, String example) {
        String value = example == null ? "" : example;
        return PropertyNames.of(option).map(property -> "-D" + property + "=" + value)
                .orElseGet(() -> element(option, value));
    }

    private static String element(Option option, String example) {
        String id = option.parameter();
        if (example.isBlank()) {
            return "<" + id + ">";
        }
        String item = switch (option) {
            case LIBRARIES -> "<library><directory>" + example + "</directory></library>";
            case DEVICES -> "<device>" + example + "</device>";
            default -> example;
        };
        return "<" + id + ">" + item + "</" + id + ">";
    }

    @Override
    public String toString() {
        return "Maven (parameters and -DcudaStackBudget.* properties)";
    }
}
