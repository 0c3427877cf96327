package io.github.cudastackbudget.core.text;

/**
 * How the front end that runs the check (the Maven goals, the command line) spells its options in messages: the core
 * names an {@link Option}, the front end supplies the words (as Jib's front ends supply their helpful suggestions).
 */
public interface Frontend {

    /**
     * How a user refers to the option in a sentence: Maven {@code maxReservation}, the command line
     * {@code --max-reservation}.
     */
    String name(Option option);

    /**
     * How a user sets the option to {@code example}: Maven {@code -DcudaStackBudget.cuobjdump=/path/to/cuobjdump}
     * (or {@code <libraryFiles>} where there is no property), the command line {@code --cuobjdump /path/to/cuobjdump}.
     */
    String howToSet(Option option, String example);

    /**
     * How the option is written where the user lists its values in the build configuration: Maven {@code <devices>};
     * a command line would name its repeated flag. The default is the parameter id in angle brackets, as the reports
     * have always said.
     */
    default String element(Option option) {
        return "<" + option.parameter() + ">";
    }

    /** The parameter ids themselves, for callers that are neither front end (tests, embedders). */
    Frontend PARAMETERS = new Frontend() {
        @Override
        public String name(Option option) {
            return option.parameter();
        }

        @Override
        public String howToSet(Option option, String example) {
            return option.parameter() + "=" + example;
        }
    };
}
