package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.budget.Reservation;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.Phrases;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.util.List;

/** The sentences the page says about a device: its verdict, what if its worst frame shrank, its notes. HTML. */
final class DevicePhrases {

    private DevicePhrases() {
    }

    static String verdictPhrase(DeviceReport device) {
        StringBuilder text = new StringBuilder(Html.bytesExact(device.reservationBytes())).append(" reserved");
        if (device.budgetBytes() == null) {
            return text.append(", no budget set").toString();
        }
        long headroom = device.headroomBytes();
        if (headroom < 0) {
            text.append(": <strong class=\"over\">").append(Html.bytes(-headroom)).append(" over</strong> its ")
                    .append(Html.bytes(device.budgetBytes())).append(" budget (").append(device.percentOfBudget())
                    .append(')');
        } else {
            text.append(": ").append(device.percentOfBudget()).append(" of its ")
                    .append(Html.bytes(device.budgetBytes())).append(" budget, ").append(Html.bytes(headroom))
                    .append(" headroom")
                    .append(device.nearOrOverBudget(HtmlReportWriter.NEAR_PERCENT) ? " (near the limit)" : "");
        }
        return text.toString();
    }

    /**
     * "If that frame shrank to the next-worst (...), the reservation would be ..."; empty without a worst kernel. In
     * launched mode the figures are about the static bound (every kernel the device runs), so the sentence says so.
     */
    static String whatIf(DeviceReport device) {
        if (device.reservationIfWorstShrinksBytes() == null) {
            return "";
        }
        boolean launched = device.launched() != null;
        KernelRow next = device.nextWorstKernel();
        KernelRow worst = launched ? device.launched().staticWorstKernel() : device.worstKernel();
        if (next != null && worst != null
                && Reservation.stackLimitFor(worst.stack()) == Reservation.stackLimitFor(next.stack())) {
            return (launched ? "Static bound: shrinking " + Html.kernelName(SvgBarChart.abbreviate(worst.displayName(),
                    90), worst.name()) + " alone" : "Shrinking it alone") + " would change nothing: "
                    + Html.kernelName(SvgBarChart.abbreviate(next.displayName(), 90), next.name())
                    + " in <span class=\"lib\">" + Html.escape(next.library())
                    + "</span> needs the same " + Figures.grouped(next.stack()) + " B.";
        }
        StringBuilder text = new StringBuilder(launched ? "If the static worst kernel, " + Html.kernelName(
                SvgBarChart.abbreviate(worst == null ? "" : worst.displayName(), 90), worst == null ? ""
                        : worst.name()) + ", shrank to " : "If that frame shrank to ");
        if (next == null || next.stack() == 0) {
            text.append("nothing, no kernel would need a stack: ");
        } else {
            text.append("the next-worst, ").append(Figures.grouped(next.stack())).append(" B of ")
                    .append(Html.kernelName(SvgBarChart.abbreviate(next.displayName(), 90), next.name())).append(", ");
        }
        text.append(launched ? "the static bound would be " : "the reservation would be ")
                .append(Html.bytes(device.reservationIfWorstShrinksBytes()));
        Long saving = device.savingIfWorstShrinksBytes();
        if (saving != null && saving > 0) {
            text.append(", ").append(Html.bytes(saving)).append(" less");
        }
        if (device.budgetBytes() != null && !device.launchedHeadline()) {
            text.append(device.reservationIfWorstShrinksBytes() <= device.budgetBytes() ? " (within budget)"
                    : " (still over budget)");
        }
        return text.append('.').toString();
    }

    static String violation(ViolationReport violation, DeviceReport device, Frontend frontend) {
        return Html.sentence(Phrases.violation(violation, device, Phrases.ViolationWording.PAGE, frontend));
    }

    static String badge(DeviceReport device) {
        return switch (device.status()) {
            case PASS -> device.nearOrOverBudget(HtmlReportWriter.NEAR_PERCENT) ? "PASS (near)" : "PASS";
            case FAIL -> "FAIL";
            case SKIPPED -> "SKIPPED";
        };
    }

    static List<String> notes(DeviceReport device, Frontend frontend) {
        List<String> notes = new java.util.ArrayList<>();
        if (device.fellBack()) {
            notes.add(Phrases.fallback(device));
        }
        if (!device.unknownStack().isEmpty()) {
            notes.add(Figures.grouped(device.unknownStack().size()) + " UNKNOWN stack");
        }
        if (!device.jit().isEmpty()) {
            notes.add(Figures.grouped(device.jit().size()) + " JIT from PTX");
        }
        if (!device.cannotRun().isEmpty()) {
            notes.add(Figures.grouped(device.cannotRun().size()) + " cannot run");
        }
        if (!device.ambiguous().isEmpty()) {
            notes.add(Figures.grouped(device.ambiguous().size()) + " ambiguous image");
        }
        if (device.violations().stream().anyMatch(v -> !v.reservation())) {
            notes.add(device.violations().stream().filter(v -> !v.reservation()).count() + " over "
                    + frontend.name(Option.MAX_STACK_PER_THREAD));
        }
        return notes;
    }
}
