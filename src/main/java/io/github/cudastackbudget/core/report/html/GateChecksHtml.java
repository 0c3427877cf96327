package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.gate.GateCheck;
import java.util.List;

/**
 * out (issue 12): the standalone page's gate-check section: every check beyond the per-device budgets (a rule's
 * limit, a suppression entry, a baseline comparison) with its outcome, category, name and message, failed first, in
 * the order the check made them within each outcome. Written only when there are some, so pages of checks without
 * them are unchanged.
 */
final class GateChecksHtml {

    private GateChecksHtml() {
    }

    static void section(StringBuilder out, List<GateCheck> checks) {
        if (checks.isEmpty()) {
            return;
        }
        out.append("<section id=\"gate-checks\">\n<h2>Gate checks</h2>\n<p class=\"meta\">")
                .append(count(checks, GateCheck.Outcome.FAIL)).append(" failed, ")
                .append(count(checks, GateCheck.Outcome.WARN)).append(" warned, ")
                .append(count(checks, GateCheck.Outcome.PASS)).append(" passed.</p>\n")
                .append("<div class=\"scroll\"><table class=\"gate-checks\"><thead><tr><th>Outcome</th>")
                .append("<th>Check</th><th>Message</th></tr></thead>\n<tbody>\n");
        for (GateCheck.Outcome outcome : List.of(GateCheck.Outcome.FAIL, GateCheck.Outcome.WARN,
                GateCheck.Outcome.PASS)) {
            for (GateCheck check : checks) {
                if (check.outcome() == outcome) {
                    row(out, check);
                }
            }
        }
        out.append("</tbody></table></div>\n</section>\n");
    }

    private static void row(StringBuilder out, GateCheck check) {
        String badge = switch (check.outcome()) {
            case FAIL -> "fail";
            case WARN -> "near";
            case PASS -> "pass";
        };
        out.append("<tr").append(check.failed() ? " class=\"fail\"" : "").append("><td><span class=\"badge ")
                .append(badge).append("\">").append(check.outcome().name()).append("</span></td><td>")
                .append(Html.escape(check.category())).append(" <b>").append(Html.escape(check.name()))
                .append("</b></td><td>").append(Html.escape(check.message())).append("</td></tr>\n");
    }

    private static long count(List<GateCheck> checks, GateCheck.Outcome outcome) {
        return checks.stream().filter(check -> check.outcome() == outcome).count();
    }
}
