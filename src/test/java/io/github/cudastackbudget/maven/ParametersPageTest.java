package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The site's parameter reference ({@code src/site/markdown/parameters.md}) against the plugin descriptor: every goal
 * has its section, every parameter a user can set is named there with the user property it really has, and no row
 * names a parameter the goal does not have. A new parameter without its row fails here.
 */
class ParametersPageTest {

    private static final Path DESCRIPTOR = Path.of("target", "classes", "META-INF", "maven", "plugin.xml");
    private static final Path PAGE = Path.of("src", "site", "markdown", "parameters.md");
    /** A table row's first cell: {@code | `name` (`property`) |} or {@code | `name` (anything) |}. */
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Za-z]+)`(?: \\(([^)]*)\\))? \\|", Pattern.MULTILINE);

    private static Document plugin;
    private static Map<String, String> sections;

    @BeforeAll
    static void read() throws Exception {
        plugin = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(DESCRIPTOR));
        sections = new LinkedHashMap<>();
        String goal = null;
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(PAGE)) {
            if (line.startsWith("## ")) {
                if (goal != null) {
                    sections.put(goal, text.toString());
                }
                goal = line.substring(3).strip();
                text.setLength(0);
            } else {
                text.append(line).append('\n');
            }
        }
        if (goal != null) {
            sections.put(goal, text.toString());
        }
    }

    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element;
            }
        }
        return null;
    }

    /** Per goal: its editable parameters and their user property (null where none). */
    private static Map<String, Map<String, String>> goals() {
        Map<String, Map<String, String>> goals = new LinkedHashMap<>();
        NodeList mojos = plugin.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            Element configuration = child(mojo, "configuration");
            Map<String, String> parameters = new LinkedHashMap<>();
            NodeList list = child(mojo, "parameters").getElementsByTagName("parameter");
            for (int j = 0; j < list.getLength(); j++) {
                Element parameter = (Element) list.item(j);
                if (!Boolean.parseBoolean(child(parameter, "editable").getTextContent().strip())) {
                    continue;
                }
                String name = child(parameter, "name").getTextContent().strip();
                Element configured = configuration == null ? null : child(configuration, name);
                String expression = configured == null ? "" : configured.getTextContent().strip();
                parameters.put(name, expression.startsWith("${") && expression.endsWith("}")
                        && !expression.startsWith("${project") && !expression.startsWith("${basedir")
                        ? expression.substring(2, expression.length() - 1) : null);
            }
            goals.put(child(mojo, "goal").getTextContent().strip(), parameters);
        }
        return goals;
    }

    @Test
    void everyGoalHasASectionThatNamesEveryParameterWithItsProperty() {
        Map<String, Map<String, String>> goals = goals();
        assertThat(goals).containsKeys("check", "report", "prepare-agent", "help");
        for (Map.Entry<String, Map<String, String>> goal : goals.entrySet()) {
            String section = sections.get(goal.getKey());
            assertThat(section).as("%s has a section '## %s'", PAGE, goal.getKey()).isNotNull();
            Map<String, String> rows = new LinkedHashMap<>();
            Matcher row = ROW.matcher(section);
            while (row.find()) {
                rows.put(row.group(1), row.group(2));
            }
            for (Map.Entry<String, String> parameter : goal.getValue().entrySet()) {
                String name = parameter.getKey();
                assertThat(section).as("the %s section names %s", goal.getKey(), name).contains("`" + name + "`");
                if (rows.containsKey(name) && parameter.getValue() != null) {
                    assertThat(rows.get(name)).as("the %s row of %s names its user property", goal.getKey(), name)
                            .isEqualTo("`" + parameter.getValue() + "`");
                }
                if (rows.containsKey(name) && parameter.getValue() == null) {
                    assertThat(rows.get(name)).as("the %s row of %s: it has no user property", goal.getKey(), name)
                            .doesNotStartWith("`cudaStackBudget.");
                }
            }
            assertThat(rows.keySet()).as("the %s section's rows name parameters the goal has", goal.getKey())
                    .isSubsetOf(goal.getValue().keySet());
        }
    }

    @Test
    void theCheckSectionHasARowForEveryParameter() {
        String section = sections.get("check");
        List<String> missing = goals().get("check").keySet().stream()
                .filter(name -> !Pattern.compile("^\\| `" + name + "`", Pattern.MULTILINE).matcher(section).find())
                .toList();
        assertThat(missing).isEmpty();
    }
}
