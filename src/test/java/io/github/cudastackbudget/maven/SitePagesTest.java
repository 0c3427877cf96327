package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The plugin's documentation as Maven users expect it: a short README that keeps the two commands and links into the
 * site, and a site (src/site) whose menu reaches every page and whose links all resolve, to a markdown page or to a
 * goal page that maven-plugin-report-plugin generates from plugin.xml.
 */
class SitePagesTest {

    private static final Path MARKDOWN = Path.of("src", "site", "markdown");
    private static final Path SITE_XML = Path.of("src", "site", "site.xml");
    private static final Path DESCRIPTOR = Path.of("target", "classes", "META-INF", "maven", "plugin.xml");
    /** A site-relative link: {@code (usage.html)}, {@code href="check-mojo.html"}, with an optional fragment. */
    private static final Pattern HTML_LINK = Pattern.compile("(?:\\]\\(|href=\")([a-z][a-z0-9-]*)\\.html(?:#[^)\"]*)?[)\"]");

    private static Set<String> pages() throws IOException {
        try (Stream<Path> files = Files.list(MARKDOWN)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".md"))
                    .map(name -> name.substring(0, name.length() - 3)).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The pages maven-plugin-report-plugin generates: plugin-info and one per goal. */
    private static Set<String> generated() throws IOException {
        Set<String> generated = new TreeSet<>(Set.of("plugin-info"));
        Matcher goal = Pattern.compile("<goal>([a-z-]+)</goal>").matcher(Files.readString(DESCRIPTOR));
        while (goal.find()) {
            generated.add(goal.group(1) + "-mojo");
        }
        return generated;
    }

    private static Set<String> links(String text) {
        Set<String> links = new TreeSet<>();
        Matcher link = HTML_LINK.matcher(text);
        while (link.find()) {
            links.add(link.group(1));
        }
        return links;
    }

    @Test
    void everyLinkOfTheSiteResolvesAndTheMenuReachesEveryPage() throws IOException {
        Set<String> targets = new TreeSet<>(pages());
        targets.addAll(generated());
        assertThat(generated()).contains("check-mojo", "report-mojo", "prepare-agent-mojo", "help-mojo");
        for (String page : pages()) {
            assertThat(links(Files.readString(MARKDOWN.resolve(page + ".md")))).as("the links of %s.md", page)
                    .isSubsetOf(targets);
        }
        Set<String> menu = links(Files.readString(SITE_XML));
        assertThat(menu).as("the menu of site.xml").isSubsetOf(targets);
        assertThat(menu).as("every page is in the menu").containsAll(pages());
        assertThat(menu).as("every goal page is in the menu").containsAll(generated());
    }

    @Test
    void theReadmeIsShortKeepsTheTwoCommandsAndLinksToPagesThatExist() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        List<String> lines = readme.lines().toList();
        assertThat(lines).hasSizeLessThan(250);
        assertThat(lines.subList(0, 6)).containsExactly("# cuda-stack-budget-maven-plugin", "", "```sh",
                "./mvnw -B install -DskipTests -Dinvoker.skip=true && ./mvnw -B -f examples/stack-demo/pom.xml verify   "
                        + "# main job: build a CUDA library with nvcc and gate it",
                "./mvnw -B verify                                                                                      "
                        + "# tests: unit + harness tests and invoker ITs",
                "```");
        assertThat(readme.split("```xml", -1)).as("one POM example").hasSize(2);
        Matcher link = Pattern.compile("\\]\\((src/site/markdown/[a-z0-9-]+\\.md)\\)").matcher(readme);
        Set<String> linked = new TreeSet<>();
        while (link.find()) {
            linked.add(link.group(1));
            assertThat(Path.of(link.group(1))).as("README links %s", link.group(1)).isRegularFile();
        }
        // every page of the site, reachable from the README
        assertThat(linked).containsAll(pages().stream().filter(page -> !page.equals("index"))
                .map(page -> "src/site/markdown/" + page + ".md").toList());
    }
}
