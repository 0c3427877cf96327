package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the sample pages (recorded libraries, test binaries, the 130k-record scaled report) into a directory, for
 * looking at them and for tools/bench-html.sh: {@code java -cp ... WriteSamplePages DIR [copies]}.
 */
public final class WriteSamplePages {

    private WriteSamplePages() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: WriteSamplePages DIR [copies of the four recordings, default "
                    + ReportSamples.SCALE_COPIES + "]");
            System.exit(2);
        }
        Path dir = Files.createDirectories(Path.of(args[0]).toAbsolutePath());
        int copies = args.length > 1 ? Integer.parseInt(args[1]) : ReportSamples.SCALE_COPIES;
        copy(ReportSamples.recordedLibraries(dir.resolve("work-recorded")).reports().get(2), dir, "recorded.html");
        copy(ReportSamples.testBinaries(dir.resolve("work-binaries")).reports().get(2), dir, "test-binaries.html");
        long start = System.nanoTime();
        ReportModel scaled = ReportSamples.scaled(dir.resolve("work-scaled"), copies);
        long read = System.nanoTime();
        Path page = HtmlReportWriter.write(scaled, 25, dir.resolve("work-scaled").resolve("out"));
        long written = System.nanoTime();
        copy(page, dir, "scaled.html");
        System.out.printf("scaled: %d records, %d functions, %d libraries; JSON %d bytes; page %d bytes; "
                + "check + JSON + model %d ms, page %d ms%n", scaled.recordCount(), scaled.functionCount(),
                scaled.libraries().size(), Files.size(dir.resolve("work-scaled/out/cuda-stack-budget.json")),
                Files.size(page), (read - start) / 1_000_000, (written - read) / 1_000_000);
    }

    private static void copy(Path page, Path dir, String name) throws Exception {
        Files.copy(page, dir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("wrote " + dir.resolve(name) + " (" + Files.size(dir.resolve(name)) + " bytes)");
    }
}
