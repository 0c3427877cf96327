package io.github.cudastackbudget.core.report;

import io.github.cudastackbudget.core.report.html.HtmlReportWriter;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The report files of a check, each formatted from the one report model: {@code cuda-stack-budget.json},
 * {@code cuda-stack-budget.txt} (the full text report) and {@code cuda-stack-budget.html} (the standalone page).
 */
public final class ReportFiles {

    /** The text report's file name. */
    public static final String TEXT_FILE_NAME = "cuda-stack-budget.txt";

    private ReportFiles() {
    }

    /**
     * Writes the three reports into {@code directory} (created if needed), each through a temporary file.
     *
     * @param top      kernel rows the page shows at first
     * @param frontend spells the options the reports name
     * @return the files written: JSON, text, HTML
     */
    public static List<Path> write(ReportModel model, Path directory, int top, Frontend frontend) throws IOException {
        Path json = JsonReportWriter.write(model, directory);
        Path text = directory.resolve(TEXT_FILE_NAME);
        Path temporary = directory.resolve(TEXT_FILE_NAME + ".tmp");
        Files.write(temporary, TextReport.render(model, 0, true, frontend), StandardCharsets.UTF_8);
        Files.move(temporary, text, StandardCopyOption.REPLACE_EXISTING);
        Path html = HtmlReportWriter.write(model, top, frontend, directory);
        return List.of(json, text, html);
    }
}
