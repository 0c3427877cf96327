package io.github.cudastackbudget.core.report.html;

import io.github.cudastackbudget.core.report.JsonReportWriter;
import io.github.cudastackbudget.core.report.model.ReportModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One fresh JVM's report writing, for {@code dev/bench-report-sizes.sh}: reads a JSON report (any schema this build
 * reads), then writes the JSON report and the standalone page once each into {@code OUTDIR} (the first, cold call of
 * each writer in this JVM), reads the written JSON back, and prints the sizes, the times (wall clock, and the writing
 * thread's CPU time, less sensitive to a loaded machine) and whether the read-back
 * model equals the input's (schema version aside). Uses public API only, so that it compiles against older builds:
 * {@code java -cp ... BenchReportWriters IN.json OUTDIR}.
 */
public final class BenchReportWriters {

    private BenchReportWriters() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: BenchReportWriters IN.json OUTDIR");
            System.exit(2);
        }
        Path in = Path.of(args[0]);
        Path out = Files.createDirectories(Path.of(args[1]));
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = System.nanoTime();
        ReportModel model = ReportModel.read(in);
        long t1 = System.nanoTime();
        long c1 = cpu.getCurrentThreadCpuTime();
        Path json = JsonReportWriter.write(model, out);
        long t2 = System.nanoTime();
        long c2 = cpu.getCurrentThreadCpuTime();
        Path page = HtmlReportWriter.write(model, 25, out);
        long t3 = System.nanoTime();
        long c3 = cpu.getCurrentThreadCpuTime();
        ReportModel back = ReportModel.read(json);
        long t4 = System.nanoTime();
        boolean same = new ReportModel(model.schemaVersion(), back.engine(), back.deviceOrigin(), back.filesProbed(),
                back.libraries(), back.devices(), back.kernels(), back.violations(), back.warnings(), back.launched(),
                back.filesWithDeviceCode(), back.unreadable()).equals(model);
        System.out.printf(Locale.ROOT, "records %d; JSON %d bytes; page %d bytes; read input %d ms; write JSON %d ms; "
                + "write page %d ms; read written JSON %d ms; writer thread CPU: JSON %d ms, page %d ms; read-back model "
                + "equal: %s%n", model.recordCount(), Files.size(json), Files.size(page), (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, (t4 - t3) / 1_000_000, (c2 - c1) / 1_000_000,
                (c3 - c2) / 1_000_000, same);
    }
}
