package io.github.cudastackbudget.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Maven site page that the report-site IT wrote (target/it/report-site/target/site), in real headless Chromium:
 * every request stays inside the generated site (skin CSS and images are files next to the page), no script or
 * console errors, the figures of the JSON are on the page and the chart image renders. Runs in the
 * "browser-site-test" surefire execution, bound to verify, i.e. after the invoker ITs.
 */
@Tag("browser-site")
class SitePageBrowserTest {

    private static final Path IT = Path.of("src", "it", "report-site");
    private static final Path SITE = Path.of("target", "it", "report-site", "target", "site");

    @Test
    void sitePageRendersOfflineWithTheReportsFigures() throws Exception {
        assumeFalse(Boolean.getBoolean("invoker.skip"), "the ITs were skipped (invoker.skip)");
        assumeTrue(Files.isDirectory(IT), "this tree has no report-site IT");
        Path page = SITE.resolve(HtmlReportWriter.FILE_NAME).toAbsolutePath();
        assertThat(page).as("the report-site IT writes the site page; see %s",
                Path.of("target", "it", "report-site", "build.log").toAbsolutePath()).isRegularFile();
        JsonNode report = new ObjectMapper().readTree(Path.of("target", "it", "report-site", "target",
                "cuda-stack-budget", "cuda-stack-budget.json").toFile());

        try (Chromium chromium = Chromium.launchForPages()) {
            chromium.navigate(page.toUri().toString());
            Thread.sleep(300);
            String site = SITE.toAbsolutePath().toUri().toString();
            assertThat(chromium.requestedUrls()).as("requests made by the site page").isNotEmpty()
                    .allSatisfy(url -> assertThat(url).as("a request that leaves the generated site")
                            .satisfiesAnyOf(u -> assertThat(u).startsWith(site), u -> assertThat(u).startsWith("data:")));
            assertThat(chromium.problems()).as("script errors, console errors, failed loads").isEmpty();

            String text = chromium.evaluate("document.body.innerText").asText();
            assertThat(text).contains("CUDA Stack Budget");
            List<String> devices = new ArrayList<>();
            report.get("devices").forEach(device -> devices.add(device.get("name").asText()));
            assertThat(devices).isNotEmpty().allSatisfy(name -> assertThat(text).contains(name));
            assertThat(chromium.evaluate("Array.from(document.images).filter(function(i){"
                    + "return i.src.indexOf('data:image/svg+xml')===0;}).map(function(i){return i.naturalWidth;})"))
                    .as("the chart image renders").isNotEmpty().allSatisfy(width -> assertThat(width.asInt()).isPositive());
            chromium.screenshot(StandalonePageBrowserTest.SCREENSHOTS.resolve("site-page-full.png"), true);
            chromium.screenshot(StandalonePageBrowserTest.SCREENSHOTS.resolve("site-page-top.png"), false);
        }
    }
}
