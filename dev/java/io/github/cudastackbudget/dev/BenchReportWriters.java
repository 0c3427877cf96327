package io.github.cudastackbudget.dev;

import io.github.cudastackbudget.cli.CliFrontend;
import io.github.cudastackbudget.core.report.ReportFiles;
import io.github.cudastackbudget.core.report.ReportFormat;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The report writers of a cold run, without the check: reads a JSON report (the model, as the report goal does),
 * then writes the given formats once, in this fresh JVM, and prints how long the model and the writing took and each
 * file's size. {@code JSON OUTDIR FORMATS} (comma-separated, e.g. {@code html} or {@code html,json,txt}); one fresh
 * JVM per measurement (what a build sees is the first, cold, write).
 */
public final class BenchReportWriters {

    private BenchReportWriters() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: BenchReportWriters REPORT.json OUTDIR FORMATS");
            System.exit(2);
        }
        long start = System.nanoTime();
        ReportModel model = ReportModel.read(Path.of(args[0]));
        long read = System.nanoTime();
        Set<ReportFormat> formats = EnumSet.noneOf(ReportFormat.class);
        for (String format : args[2].split(",")) {
            formats.add(ReportFormat.valueOf(format.strip().toUpperCase(Locale.ROOT)));
        }
        Path out = Path.of(args[1]);
        var written = ReportFiles.write(model, out, 25, CliFrontend.INSTANCE, formats, null);
        long done = System.nanoTime();
        StringBuilder sizes = new StringBuilder();
        for (Path file : written) {
            sizes.append(' ').append(file.getFileName()).append('=').append(Files.size(file));
        }
        System.out.printf("%s: model read %d ms, written %d ms;%s%n", args[2], (read - start) / 1_000_000,
                (done - read) / 1_000_000, sizes);
    }
}
