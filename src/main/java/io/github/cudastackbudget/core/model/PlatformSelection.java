package io.github.cudastackbudget.core.model;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The platforms whose libraries are judged against the budgets (the {@code platforms} option): a list of platform
 * names as reports spell them ({@code linux-x86_64}, {@code windows-x86_64}, {@code linux-aarch64}) or bare operating
 * systems ({@code linux}, {@code windows}, {@code mac}: every processor of that system). Libraries of other platforms
 * are still read and reported, marked as not gated.
 *
 * <p>How a library's platform ({@link LibraryScan#platform()}) is matched:
 * <ul>
 * <li>{@code os-cpu}: gated when the list names {@code os} or {@code os-cpu};</li>
 * <li>a bare fatbin's {@code os} (no host processor): gated when the list names {@code os} or any {@code os-...};</li>
 * <li>several hosts ({@code linux+windows-x86_64}): gated when any of its systems is gated as above;</li>
 * <li>{@code unknown} (a bare cubin, whose device code names no host and loads on every system): always gated. The
 * build cannot tell whose process loads it, so leaving it out would pass a cubin that may run on a listed platform;
 * exclude such a file through the file patterns instead.</li>
 * </ul>
 */
public final class PlatformSelection {

    /** The operating systems the fatbin host flags name. */
    public static final List<String> SYSTEMS = List.of("linux", "windows", "mac");

    /** The processors the file formats name. */
    public static final List<String> PROCESSORS = List.of("x86_64", "aarch64", "ppc64le", "x86", "arm", "arm64");

    /** Every platform gated (the default). */
    public static final PlatformSelection ALL = new PlatformSelection(List.of());

    private final List<String> listed;

    private PlatformSelection(List<String> listed) {
        this.listed = List.copyOf(listed);
    }

    /**
     * The selection a user wrote: comma-separated names; null or blank for every platform.
     *
     * @param value  the option's value
     * @param option how the front end names the option, for the message
     * @throws InvalidValueException a name that is neither a system nor system-processor, one line naming the option,
     *                               every unknown value and what is accepted
     */
    public static PlatformSelection parse(String value, String option) {
        if (value == null || value.isBlank()) {
            return ALL;
        }
        Set<String> names = new LinkedHashSet<>();
        List<String> unknown = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String name = part.strip().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            if (known(name)) {
                names.add(name);
            } else {
                unknown.add("'" + part.strip() + "'");
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidValueException(option + " " + String.join(", ", unknown) + (unknown.size() == 1
                    ? " is not a platform" : " are not platforms") + " (given: '" + value.strip()
                    + "'): use a comma-separated list of " + String.join(", ", SYSTEMS) + " or system-processor ("
                    + "processors " + String.join(", ", PROCESSORS) + "), e.g. linux-x86_64,windows-x86_64");
        }
        if (names.isEmpty()) {
            throw new InvalidValueException(option + " '" + value.strip() + "' names no platform: leave it out to "
                    + "gate every platform, or list some, e.g. linux-x86_64");
        }
        return new PlatformSelection(List.copyOf(names));
    }

    private static boolean known(String name) {
        int dash = name.indexOf('-');
        if (dash < 0) {
            return SYSTEMS.contains(name);
        }
        return SYSTEMS.contains(name.substring(0, dash)) && PROCESSORS.contains(name.substring(dash + 1));
    }

    /** True when every platform is gated (nothing listed). */
    public boolean all() {
        return listed.isEmpty();
    }

    /** The names listed, in the user's order without repeats; empty for every platform. */
    public List<String> listed() {
        return listed;
    }

    /** Whether libraries of {@code platform} (as {@link LibraryScan#platform()} spells it) are judged. */
    public boolean gates(String platform) {
        if (listed.isEmpty() || platform == null || platform.isEmpty()
                || LibraryScan.UNKNOWN_PLATFORM.equals(platform)) {
            return true;
        }
        int dash = platform.lastIndexOf('-');
        String systems = dash < 0 ? platform : platform.substring(0, dash);
        String cpu = dash < 0 ? null : platform.substring(dash + 1);
        for (String os : systems.split("\\+")) {
            for (String name : listed) {
                if (name.equals(os) || (cpu != null && name.equals(os + "-" + cpu))
                        || (cpu == null && name.startsWith(os + "-"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the platforms of the libraries read are several, so that a per-platform breakdown says something: two
     * or more, not counting {@code unknown} (a bare cubin, which loads on every system) nor a bare system (a bare
     * fatbin, {@code linux}) where a platform of that system ({@code linux-x86_64}) is present too. A Linux build of
     * {@code .so}, {@code .fatbin} and {@code .cubin} files is one platform; {@code .so} and {@code .dll} files are two.
     */
    public static boolean several(Collection<String> platforms) {
        Set<String> full = new TreeSet<>();
        for (String platform : platforms) {
            if (!LibraryScan.UNKNOWN_PLATFORM.equals(platform)) {
                full.add(platform);
            }
        }
        full.removeIf(platform -> platform.indexOf('-') < 0
                && full.stream().anyMatch(other -> other.startsWith(platform + "-")));
        return full.size() > 1;
    }

    /** Whether this scan's libraries are judged. */
    public boolean gates(LibraryScan scan) {
        return gates(scan.platform());
    }

    /** The list as the user may write it again: {@code linux-x86_64,windows}; empty for every platform. */
    @Override
    public String toString() {
        return String.join(",", listed);
    }
}
