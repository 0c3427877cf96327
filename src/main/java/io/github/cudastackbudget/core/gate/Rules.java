package io.github.cudastackbudget.core.gate;

import io.github.cudastackbudget.core.device.SizeLimit;
import io.github.cudastackbudget.core.text.ByteSize;
import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rules of a check, parsed and validated once (jacoco's {@code <rules><rule>}): each rule an {@link Element}
 * scope, include and exclude globs, and limits, each a {@link Counter}, a maximum and a {@link Level}.
 *
 * @param rules the rules, in configuration order
 */
public record Rules(List<Rule> rules) {

    /** No rules. */
    public static final Rules NONE = new Rules(List.of());

    public Rules {
        rules = List.copyOf(rules);
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** What a rule judges. */
    public enum Element {
        /** each device's reservation (matched on the device name or preset id) */
        DEVICE,
        /** per library (matched on its label or file name): what its kernels alone would reserve on each device */
        LIBRARY,
        /** per kernel (matched on its mangled or demangled name): its frame and reservation on each device */
        KERNEL
    }

    /** What a limit measures. */
    public enum Counter {
        /** the reservation in bytes (threads x roundup16(frame)) */
        RESERVATION,
        /** the reservation over what the driver's default 1 KiB per thread already holds */
        INCREMENT,
        /** the stack frame per thread in bytes */
        FRAME,
        /** the reservation as a percentage of the device's memory */
        MEMORY_SHARE
    }

    /** What a breach does. */
    public enum Level {
        /** a breach fails the check, as an exceeded budget does */
        ERROR,
        /** a breach is reported and logged as a warning */
        WARN
    }

    /**
     * One rule.
     *
     * @param index    its position, from 1 ({@code rule[1]})
     * @param element  what it judges
     * @param includes the elements judged (empty: all)
     * @param excludes the elements left out
     * @param limits   its limits, in order
     */
    public record Rule(int index, Element element, List<Glob> includes, List<Glob> excludes, List<Limit> limits) {
        public Rule {
            includes = List.copyOf(includes);
            excludes = List.copyOf(excludes);
            limits = List.copyOf(limits);
        }

        /** Whether an element named by any of {@code names} is judged: an include matches one, no exclude any. */
        public boolean includes(String... names) {
            boolean included = includes.isEmpty() || includes.stream().anyMatch(glob -> matchesAny(glob, names));
            return included && excludes.stream().noneMatch(glob -> matchesAny(glob, names));
        }

        private static boolean matchesAny(Glob glob, String... names) {
            return Arrays.stream(names).anyMatch(glob::matches);
        }
    }

    /**
     * One limit.
     *
     * @param index   its position in the rule, from 1
     * @param counter what it measures
     * @param maximum the largest allowed value (a percentage is of the device's memory)
     * @param level   what a breach does
     */
    public record Limit(int index, Counter counter, SizeLimit maximum, Level level) {
    }

    /**
     * Parses the rules as written.
     *
     * @param what how messages name the option ({@code rules})
     * @throws InvalidValueException one line naming the rule index and the field
     */
    public static Rules parse(List<GateOptions.RuleSpec> specs, String what) {
        List<Rule> rules = new ArrayList<>();
        int index = 0;
        for (GateOptions.RuleSpec spec : specs) {
            index++;
            String where = what + ": rule[" + index + "]";
            Element element = value(Element.class, spec.element(), Element.DEVICE, where + " element");
            if (spec.limits().isEmpty()) {
                throw new InvalidValueException(where + " has no limits: add <limits><limit><maximum>1 GiB</maximum>"
                        + "</limit></limits>");
            }
            List<Limit> limits = new ArrayList<>();
            int position = 0;
            for (GateOptions.LimitSpec limit : spec.limits()) {
                position++;
                limits.add(limit(limit, where + " limit[" + position + "]", position));
            }
            rules.add(new Rule(index, element, globs(spec.includes(), where + " includes"),
                    globs(spec.excludes(), where + " excludes"), limits));
        }
        return new Rules(rules);
    }

    private static Limit limit(GateOptions.LimitSpec spec, String where, int position) {
        if (spec == null) {
            throw new InvalidValueException(where + " is empty: give it a <maximum>");
        }
        Counter counter = value(Counter.class, spec.counter(), Counter.RESERVATION, where + " counter");
        Level level = value(Level.class, spec.level(), Level.ERROR, where + " level");
        if (spec.maximum() == null || spec.maximum().isBlank()) {
            throw new InvalidValueException(where + " has no maximum: give a size (1 GiB, 4096)"
                    + (counter == Counter.FRAME ? "" : " or a share of device memory (2%)"));
        }
        SizeLimit maximum = SizeLimit.parse(spec.maximum(), where + " maximum");
        if (counter == Counter.FRAME && maximum.isPercentage()) {
            throw new InvalidValueException(where + " maximum '" + ByteSize.shown(spec.maximum()) + "': counter FRAME "
                    + "takes a size in bytes per thread (e.g. 4 KiB), not a share of device memory");
        }
        if (counter == Counter.MEMORY_SHARE && !maximum.isPercentage()) {
            throw new InvalidValueException(where + " maximum '" + ByteSize.shown(spec.maximum()) + "': counter "
                    + "MEMORY_SHARE takes a percentage of the device's memory (e.g. 2%)");
        }
        return new Limit(position, counter, maximum, level);
    }

    private static List<Glob> globs(List<String> patterns, String where) {
        List<Glob> globs = new ArrayList<>();
        for (String pattern : patterns) {
            if (pattern == null || pattern.isBlank()) {
                throw new InvalidValueException(where + " holds an empty pattern: remove it, or write * for all");
            }
            globs.add(Glob.of(pattern));
        }
        return globs;
    }

    private static <E extends Enum<E>> E value(Class<E> type, String text, E fallback, String where) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        String name = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(name)) {
                return constant;
            }
        }
        throw new InvalidValueException(where + " '" + ByteSize.shown(text) + "' is unknown: use "
                + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ")));
    }
}
