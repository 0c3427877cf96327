package io.github.cudastackbudget.maven;

import io.github.cudastackbudget.core.report.html.ReportSamples;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.doxia.module.xhtml5.Xhtml5SinkFactory;
import org.apache.maven.doxia.sink.Sink;

/**
 * Size and time of the site report's Doxia rendering for the ~130k-record scaled report (copies of the real recorded
 * cuobjdump output, see ReportSamples), for tools/bench-site.sh:
 * {@code java -cp ... BenchSitePage DIR [copies [runs]]}. Reading the JSON is timed separately from rendering.
 */
public final class BenchSitePage {

    private BenchSitePage() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "target/bench-site").toAbsolutePath());
        int copies = args.length > 1 ? Integer.parseInt(args[1]) : ReportSamples.SCALE_COPIES;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        ReportSamples.scaled(dir.resolve("work-scaled"), copies);
        Path json = dir.resolve("work-scaled/out/cuda-stack-budget.json");
        Path page = dir.resolve("cuda-stack-budget.html");
        for (int run = 1; run <= runs; run++) {
            long start = System.nanoTime();
            ReportModel model = ReportModel.read(json);
            long read = System.nanoTime();
            try (OutputStream out = Files.newOutputStream(page)) {
                Sink sink = new Xhtml5SinkFactory().createSink(out, "UTF-8");
                new SiteReportRenderer(sink, model, 25, "Figures from cuda-stack-budget.json.").render();
                sink.close();
            }
            long rendered = System.nanoTime();
            System.out.printf("run %d: %d records, %d devices, %d libraries; JSON %,d bytes read in %d ms; "
                    + "Doxia XHTML5 body %,d bytes rendered in %d ms%n", run, model.recordCount(),
                    model.devices().size(), model.libraries().size(), Files.size(json), (read - start) / 1_000_000,
                    Files.size(page), (rendered - read) / 1_000_000);
        }
    }
}
