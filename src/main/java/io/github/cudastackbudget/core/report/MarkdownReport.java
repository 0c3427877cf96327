package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.gate.GateCheck;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.Figures;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.SuppressedRow;
import io.github.cudastackbudget.core.report.model.Phrases;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.report.model.Verdict;
import io.github.cudastackbudget.core.report.model.ViolationReport;
import io.github.cudastackbudget.core.text.Frontend;
import java.util.List;

/**
 * The Markdown summary ({@code cuda-stack-budget.md}, and what is appended to {@code $GITHUB_STEP_SUMMARY}): the
 * overall verdict, a table with one row per device (verdict, reservation, budget, worst kernel, its arch and library),
 * the violations, the failed and warned gate checks, the warnings, and the other reports. Formatted from the report
 * model; every value from the inputs is escaped, so a kernel name cannot start a table cell, a link or HTML.
 */
public final class MarkdownReport {

    /** Kernel names in the device table are cut to this many characters (the violations name them whole). */
    static final int NAME_WIDTH = 100;

    private final StringBuilder out = new StringBuilder();

    private MarkdownReport() {
    }

    /**
     * The summary of a check.
     *
     * @param reports the other reports' file names (in the output directory), listed at the end
     * @param links   true: each as a relative link (the file next to them); false: as a plain name (the step summary,
     *                where a relative link leads nowhere)
     */
    public static String render(ReportModel model, Frontend frontend, List<String> reports, boolean links) {
        MarkdownReport report = new MarkdownReport();
        report.summary(model, frontend);
        report.reports(reports, links);
        return report.out.toString();
    }

    /** The summary of a check that could not run: the error and the reports that say so. */
    public static String error(String message, List<String> reports, boolean links) {
        MarkdownReport report = new MarkdownReport();
        report.line("## CUDA stack budget: ERROR").line("");
        report.line("The check could not run: " + escape(message)).line("");
        report.line("No figures: the reports of this run hold only this error.");
        report.reports(reports, links);
        return report.out.toString();
    }

    private void summary(ReportModel model, Frontend frontend) {
        boolean failed = !model.violations().isEmpty() || !model.failedChecks().isEmpty();
        if (model.noDeviceCode()) {
            line("## CUDA stack budget: " + (failed ? "FAIL" : "no CUDA kernels")).line("");
            line("No CUDA kernels found in " + Figures.grouped(model.filesProbed()) + " scanned file(s): nothing to "
                    + "check.");
        } else {
            line("## CUDA stack budget: " + (failed ? "FAIL" : "PASS")).line("");
            line(model.devices().size() + " device(s): " + count(model, Verdict.PASS) + " pass, "
                    + count(model, Verdict.FAIL) + " fail, " + count(model, Verdict.SKIPPED) + " skipped; "
                    + Figures.grouped(model.allFunctionCount()) + " functions in " + model.filesWithDeviceCode()
                    + " file(s).").line("");
            line("| Device | Verdict | Reservation | Budget | Worst kernel | Arch | Library |");
            line("| --- | --- | ---: | ---: | --- | --- | --- |");
            for (DeviceReport device : model.devices()) {
                deviceRow(device);
            }
        }
        if (!model.violations().isEmpty()) {
            line("").line("### Violations").line("");
            for (ViolationReport violation : model.violations()) {
                line("- " + escape(Phrases.violation(violation, model.device(violation.device()),
                        Phrases.ViolationWording.LOG, frontend).plain()));
            }
        }
        List<GateCheck> notPassed = model.checks().stream()
                .filter(check -> check.outcome() != GateCheck.Outcome.PASS).toList();
        if (!notPassed.isEmpty()) {
            line("").line("### Gate checks").line("");
            line("| Outcome | Check | Message |");
            line("| --- | --- | --- |");
            for (GateCheck check : notPassed) {
                line("| " + check.outcome().name() + " | " + cell(check.category() + " " + check.name()) + " | "
                        + cell(check.message()) + " |");
            }
            long passed = model.checks().size() - notPassed.size();
            if (passed > 0) {
                line("").line(passed + " more gate check(s) passed.");
            }
        } else if (!model.checks().isEmpty()) {
            line("").line("All " + model.checks().size() + " gate check(s) passed.");
        }
        if (!model.suppressed().isEmpty()) {
            line("").line("### Suppressed").line("");
            line("| Device | Kernel | Arch | Library | Frame | Would reserve | Because |");
            line("| --- | --- | --- | --- | ---: | ---: | --- |");
            for (SuppressedRow row : model.suppressed()) {
                KernelRow kernel = row.kernel();
                line("| " + cell(row.device()) + " | " + cell(TextReport.abbreviate(kernel.displayName(), NAME_WIDTH))
                        + " | " + cell(kernel.archLabel()) + " | " + cell(kernel.library()) + " | "
                        + Figures.grouped(kernel.stack()) + " B | " + cell(Figures.human(row.reservationBytes()))
                        + " | " + cell(row.because()) + " |");
            }
        }
        if (!model.warnings().isEmpty()) {
            line("").line("### Warnings").line("");
            model.warnings().forEach(warning -> line("- " + escape(warning)));
        }
    }

    private void deviceRow(DeviceReport device) {
        if (device.skipped()) {
            line("| " + cell(device.name()) + " | SKIPPED | | | " + cell(device.skipReason()) + " | | |");
            return;
        }
        KernelRow worst = device.worstKernel();
        line("| " + cell(device.name()) + " | " + device.status().name() + " | "
                + cell(Figures.human(device.reservationBytes()) + (device.launchedHeadline() ? " launched" : ""))
                + " | " + (device.budgetBytes() == null ? "none" : cell(Figures.human(device.budgetBytes()))) + " | "
                + (worst == null ? "" : cell(TextReport.abbreviate(worst.displayName(), NAME_WIDTH))) + " | "
                + (worst == null ? "" : cell(worst.archLabel())) + " | " + (worst == null ? "" : cell(worst.library()))
                + " |");
    }

    private void reports(List<String> reports, boolean links) {
        if (reports.isEmpty()) {
            return;
        }
        line("").line("Reports: " + String.join(", ", reports.stream()
                .map(name -> links ? "[" + escape(name) + "](" + name.replace(" ", "%20").replace(")", "%29") + ")"
                        : "`" + name.replace("`", "'") + "`")
                .toList()));
    }

    private MarkdownReport line(String text) {
        out.append(text).append('\n');
        return this;
    }

    private static long count(ReportModel model, Verdict status) {
        return model.devices().stream().filter(device -> device.status() == status).count();
    }

    /** A table cell: {@link #escape}d, so nothing in it ends the cell ({@code |}) or the row (a line break). */
    static String cell(String text) {
        return escape(text);
    }

    /**
     * Text as Markdown shows it literally: HTML's {@code & < >} as entities, Markdown's punctuation ({@code \ ` * _
     * [ ] # ~ |}) behind a backslash, line breaks as spaces.
     */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '\\', '`', '*', '_', '[', ']', '#', '~', '|' -> escaped.append('\\').append(c);
                case '\n', '\r', '\t' -> escaped.append(' ');
                default -> escaped.append(Character.isISOControl(c) ? ' ' : c);
            }
        }
        return escaped.toString();
    }
}
