package io.github.cudastackbudget.core.report.model;

import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.util.stream.Collectors;

/**
 * The wording the outputs share: the violation sentence, the hints that name an option, the device phrases. Where
 * the outputs have always worded one thing differently, the difference is an explicit parameter here (see
 * {@link ViolationWording}), so that one definition serves them all.
 */
public final class Phrases {

    private Phrases() {
    }

    /**
     * How an output words a violation.
     *
     * @param launchedWords say "launched-kernel reservation" and "worst launched kernel" for a launched headline
     * @param worstWord     call a reservation's kernel "worst kernel" (else just "kernel")
     * @param frameTail     end a reservation's sentence with its kernel's frame, "(N B per thread)"
     * @param overLimit     the words between a kernel's frame and the frame limit ("which exceeds", "above")
     * @param kernelFirst   a frame violation names its kernel before its frame (else after)
     */
    public record ViolationWording(boolean launchedWords, boolean worstWord, boolean frameTail, String overLimit,
            boolean kernelFirst) {

        /** The log's violation lines. */
        public static final ViolationWording LOG = new ViolationWording(true, true, true, "which exceeds", true);
        /** The standalone page. */
        public static final ViolationWording PAGE = new ViolationWording(false, true, false, "above", true);
        /** The site page. */
        public static final ViolationWording SITE = new ViolationWording(false, false, false, "exceeds", false);
    }

    /**
     * One exceeded budget: device, figure, limit, kernel, arch, library.
     *
     * @param device the device of the violation (its headline and worst kernel), or null when the model lacks it
     */
    public static Sentence violation(ViolationReport violation, DeviceReport device, ViolationWording wording,
            Frontend frontend) {
        Sentence.Builder sentence = new Sentence.Builder().device(violation.device());
        if (violation.reservation()) {
            boolean launched = wording.launchedWords() && device != null && device.launchedHeadline();
            sentence.text(": " + (launched ? "launched-kernel " : "") + "stack reservation ").bytes(violation.actual())
                    .text(" exceeds " + frontend.name(Option.MAX_RESERVATION) + " ").bytes(violation.limit())
                    .text("; " + (wording.worstWord() ? "worst " + (launched ? "launched " : "") : "") + "kernel ");
            kernel(sentence, violation);
            if (wording.frameTail() && device != null && device.worstKernel() != null) {
                sentence.text(" (" + Figures.grouped(device.worstKernel().stack()) + " B per thread)");
            }
            return sentence.build();
        }
        String frame = Figures.grouped(violation.actual()) + " B per thread";
        String limit = frontend.name(Option.MAX_STACK_PER_THREAD) + " " + Figures.grouped(violation.limit()) + " B";
        if (wording.kernelFirst()) {
            kernel(sentence.text(": kernel "), violation);
            return sentence.text(" has a stack frame of " + frame + ", " + wording.overLimit() + " " + limit).build();
        }
        sentence.text(": stack frame of " + frame + " " + wording.overLimit() + " " + limit + "; kernel ");
        return kernel(sentence, violation).build();
    }

    private static Sentence.Builder kernel(Sentence.Builder sentence, ViolationReport violation) {
        return sentence.kernel(violation.displayName(), violation.kernel()).text(" [" + violation.arch() + "] in ")
                .library(violation.library());
    }

    /** How to give a device a budget: {@code set maxReservation to gate this device}. */
    public static String noBudgetHint(Frontend frontend) {
        return "set " + frontend.name(Option.MAX_RESERVATION) + " to gate this device";
    }

    /** How to list every row a report cut: {@code set top to 0 to list all}. */
    public static String listAllHint(Frontend frontend) {
        return "set " + frontend.name(Option.TOP) + " to 0 to list all";
    }

    /** How to list every unmatched launched kernel: {@code verbose lists all}. */
    public static String verboseHint(Frontend frontend) {
        return frontend.name(Option.VERBOSE) + " lists all";
    }

    /** The images a device runs: {@code sm_90a (12 functions), sm_80 (3 functions)}. */
    public static String imagesRun(DeviceReport device) {
        return device.imageCounts().entrySet().stream().map(entry -> entry.getKey() + " (" + entry.getValue()
                + " functions)").collect(Collectors.joining(", "));
    }

    /** A device that runs an older compatible image: {@code no sm_90 SASS: runs sm_80}. */
    public static String fallback(DeviceReport device) {
        return "no " + device.targetArch() + " SASS: runs " + device.chosenArch();
    }
}
