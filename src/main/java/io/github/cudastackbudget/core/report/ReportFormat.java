package io.github.cudastackbudget.core.report;

import java.util.Locale;

/**
 * A report file the check can write, by the id the {@code formats} option names it ({@code html,json,txt,markdown,
 * junit,sarif}) and its file name in the output directory. Declared in the order the ids are listed and the files
 * are reported.
 */
public enum ReportFormat {
    /** {@code cuda-stack-budget.json}: the machine-readable report (schema in report-schema.md). */
    JSON("json", "cuda-stack-budget.json"),
    /** {@code cuda-stack-budget.txt}: the full text report. */
    TXT("txt", "cuda-stack-budget.txt"),
    /** {@code cuda-stack-budget.html}: the standalone page. */
    HTML("html", "cuda-stack-budget.html"),
    /** {@code cuda-stack-budget.md}: the Markdown summary (also appended to {@code $GITHUB_STEP_SUMMARY}). */
    MARKDOWN("markdown", "cuda-stack-budget.md"),
    /** {@code TEST-cuda-stack-budget.xml}: JUnit XML, a test case per device budget and gate check. */
    JUNIT("junit", "TEST-cuda-stack-budget.xml"),
    /** {@code cuda-stack-budget.sarif}: SARIF 2.1.0, a result per violation and failed or warned gate check. */
    SARIF("sarif", "cuda-stack-budget.sarif");

    private final String id;
    private final String fileName;

    ReportFormat(String id, String fileName) {
        this.id = id;
        this.fileName = fileName;
    }

    /** The id the {@code formats} option names it by. */
    public String id() {
        return id;
    }

    /** The file's name inside the output directory. */
    public String fileName() {
        return fileName;
    }

    /** The format of this id (case and surrounding blanks ignored), or null. */
    static ReportFormat byId(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        for (ReportFormat format : values()) {
            if (format.id.equals(wanted)) {
                return format;
            }
        }
        return null;
    }
}
