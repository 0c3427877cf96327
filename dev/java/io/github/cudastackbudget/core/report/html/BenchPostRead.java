package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.cli.CliFrontend;
import io.github.cudastackbudget.core.CheckListener;
import io.github.cudastackbudget.core.check.CheckResult;
import io.github.cudastackbudget.core.report.ReportFiles;
import io.github.cudastackbudget.core.report.ReportFormat;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The stages after the read, cold, here (no GPU machine needed): the check over real cuobjdump recordings (the four of
 * {@code ../shared/fixtures}, renamed copies to about libtorch_cuda.so's 130k records; the "read" is the replay's
 * parse), with its stage times, then the report model and the reports, each timed. One fresh JVM per measurement
 * ({@code DIR [COPIES [FORMATS]]}, default 10 copies and {@code html,json,txt}); run it under JFR to see where a stage's
 * time goes.
 */
public final class BenchPostRead {

    private BenchPostRead() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: BenchPostRead DIR [COPIES [FORMATS]]");
            System.exit(2);
        }
        Path work = Files.createDirectories(Path.of(args[0]).toAbsolutePath());
        int copies = args.length > 1 ? Integer.parseInt(args[1]) : ReportSamples.SCALE_COPIES;
        Set<ReportFormat> formats = EnumSet.noneOf(ReportFormat.class);
        for (String format : (args.length > 2 ? args[2] : "html,json,txt").split(",")) {
            formats.add(ReportFormat.valueOf(format.strip().toUpperCase(Locale.ROOT)));
        }
        CheckResult result = ReportSamples.scaledResult(work, copies, new CheckListener() {
            @Override
            public void info(String line) {
            }

            @Override
            public void warn(String line) {
            }

            @Override
            public void debug(String line) {
                System.out.println(line);
            }
        });
        long start = System.nanoTime();
        ReportModel model = ReportModel.of(result);
        long built = System.nanoTime();
        var written = ReportFiles.write(model, work.resolve("reports"), 25, CliFrontend.INSTANCE, formats, null);
        long done = System.nanoTime();
        System.out.printf("%d records; model %d ms, reports (%s) %d ms%n", model.recordCount(),
                (built - start) / 1_000_000, formats, (done - built) / 1_000_000);
        for (Path file : written) {
            System.out.println("  " + file.getFileName() + " " + Files.size(file) + " bytes");
        }
    }
}
