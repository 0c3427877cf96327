package io.github.cudastackbudget.core.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures a page in headless Chromium (used by tools/bench-html.sh, not by the tests): the size, and per load the
 * browser's navigation timing (DOMContentLoaded, load event), the moment the tables are ready (the names inflated),
 * then the time the page's script takes to filter and to sort the largest kernel table. Prints one line per run and the medians.
 * {@code java -cp ... BenchPageLoad PAGE [runs]}.
 */
public final class BenchPageLoad {

    private BenchPageLoad() {
    }

    public static void main(String[] args) throws Exception {
        Path page = Path.of(args[0]).toAbsolutePath();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.out.printf(Locale.ROOT, "page %s: %,d bytes (%.1f MiB)%n", page, Files.size(page),
                Files.size(page) / 1048576.0);
        List<double[]> all = new ArrayList<>();
        try (Chromium chromium = Chromium.launchForPages()) {
            for (int run = 1; run <= runs; run++) {
                chromium.navigate("about:blank");
                chromium.navigate(page.toUri().toString());
                // the script inflates the names after the load event, then starts the tables (data-csb-ready)
                chromium.waitFor("document.documentElement.getAttribute('data-csb-ready')",
                        v -> !v.isNull() && !v.asText().isEmpty());
                JsonNode timing = chromium.evaluate("(function(){var n=performance.getEntriesByType('navigation')[0];"
                        + "var r=performance.getEntriesByName('csb-ready')[0];"
                        + "return [n.domContentLoadedEventEnd, n.loadEventEnd, r ? r.startTime : -1];})()");
                JsonNode work = chromium.evaluate("(function(){var t=document.querySelector('#kernels .ktable').table;"
                        + "var a=performance.now(); t.filter('sm_90'); var b=performance.now(); t.sortBy('name');"
                        + "var c=performance.now(); t.filter(''); var d=performance.now();"
                        + "return [b-a, c-b, d-c, t.view.length];})()");
                double[] figures = {timing.get(0).asDouble(), timing.get(1).asDouble(), work.get(0).asDouble(),
                        work.get(1).asDouble(), work.get(2).asDouble(), timing.get(2).asDouble()};
                all.add(figures);
                System.out.printf(Locale.ROOT, "run %d: DOMContentLoaded %.0f ms, load event %.0f ms, tables ready %.0f "
                        + "ms; filter 'sm_90' %.0f ms, sort by name %.0f ms, clear filter %.0f ms (%,d rows)%n", run,
                        figures[0], figures[1], figures[5], figures[2], figures[3], figures[4], work.get(3).asInt());
            }
        }
        System.out.printf(Locale.ROOT, "median of %d: DOMContentLoaded %.0f ms, load event %.0f ms, tables ready %.0f "
                + "ms, filter %.0f ms, sort %.0f ms, clear %.0f ms%n", runs, median(all, 0), median(all, 1),
                median(all, 5), median(all, 2), median(all, 3), median(all, 4));
    }

    private static double median(List<double[]> runs, int column) {
        double[] values = runs.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }
}
