package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The documented Maven Build Cache Extension setup (src/site/markdown/build-cache.md, run by IT check-build-cache):
 * the page shows the files the IT uses, and the reconcile list of each gating goal names exactly its parameters that
 * can change the verdict or the reports, so that a changed budget, device or rule is never served from the cache. A
 * new parameter of check or aggregate fails here until it is reconciled or listed below with its reason.
 */
class BuildCacheConfigTest {

    private static final Path DESCRIPTOR = Path.of("target", "classes", "META-INF", "maven", "plugin.xml");
    private static final Path MVN = Path.of("src", "it", "check-build-cache", ".mvn");
    private static final Path PAGE = Path.of("src", "site", "markdown", "build-cache.md");

    /**
     * Parameters that cannot change a verdict or a report, so a cached execution stays valid when they change: the
     * verbose log listing, how long cuobjdump may take, how many files are read at once, and the kernel cache (the
     * same bytes give the same figures whether read or served).
     */
    private static final Set<String> NOT_RECONCILED = Set.of("verbose", "timeout", "parallelism", "cacheDirectory",
            "useCache");

    private static Document parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element
                    && name.equals(element.getLocalName() != null ? element.getLocalName() : element.getTagName())) {
                return element;
            }
        }
        return null;
    }

    /** Per goal of this plugin: the property names its reconcile entry tracks. */
    private static Map<String, Set<String>> reconciled() throws Exception {
        Map<String, Set<String>> goals = new TreeMap<>();
        NodeList plugins = parse(MVN.resolve("maven-build-cache-config.xml")).getElementsByTagNameNS("*", "plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            if (!plugin.getAttribute("artifactId").equals("cuda-stack-budget-maven-plugin")) {
                continue;
            }
            Set<String> names = new TreeSet<>();
            NodeList reconciles = plugin.getElementsByTagNameNS("*", "reconcile");
            for (int j = 0; j < reconciles.getLength(); j++) {
                names.add(((Element) reconciles.item(j)).getAttribute("propertyName"));
            }
            assertThat(goals.put(plugin.getAttribute("goal"), names)).as("one entry per goal").isNull();
        }
        return goals;
    }

    /** The goal's parameters a user can set. */
    private static Set<String> editable(String goal) throws Exception {
        NodeList mojos = parse(DESCRIPTOR).getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            if (!child(mojo, "goal").getTextContent().strip().equals(goal)) {
                continue;
            }
            Set<String> names = new TreeSet<>();
            NodeList parameters = child(mojo, "parameters").getElementsByTagName("parameter");
            for (int j = 0; j < parameters.getLength(); j++) {
                Element parameter = (Element) parameters.item(j);
                if (Boolean.parseBoolean(child(parameter, "editable").getTextContent().strip())) {
                    names.add(child(parameter, "name").getTextContent().strip());
                }
            }
            return names;
        }
        throw new AssertionError("no goal " + goal + " in " + DESCRIPTOR);
    }

    @Test
    void everyParameterOfTheGatingGoalsThatCanChangeAVerdictOrAReportIsReconciled() throws Exception {
        Map<String, Set<String>> reconciled = reconciled();
        assertThat(reconciled).containsKey("check");
        for (String goal : List.of("check", "aggregate")) {
            Set<String> parameters;
            try {
                parameters = editable(goal);
            } catch (AssertionError noSuchGoal) {
                assertThat(goal).as("only the aggregate goal may be missing").isEqualTo("aggregate");
                continue;
            }
            Set<String> expected = new TreeSet<>(parameters);
            expected.removeAll(NOT_RECONCILED);
            // every name must exist: the extension reads each as a field of the mojo
            assertThat(reconciled.get(goal)).as("the reconcile list of %s", goal).isEqualTo(expected);
        }
        assertThat(reconciled.get("check")).contains("maxReservation", "maxStackPerThread", "devicePresets",
                "devices", "failOnViolation", "platforms", "launchLog", "jitFrames");
    }

    @Test
    void theSkipsAreReconciledWithTheirSkipValueAndTheReportsAreRestored() throws Exception {
        Document config = parse(MVN.resolve("maven-build-cache-config.xml"));
        NodeList reconciles = config.getElementsByTagNameNS("*", "reconcile");
        for (int i = 0; i < reconciles.getLength(); i++) {
            Element reconcile = (Element) reconciles.item(i);
            if (reconcile.getAttribute("propertyName").startsWith("skip")) {
                assertThat(reconcile.getAttribute("skipValue")).as(reconcile.getAttribute("propertyName"))
                        .isEqualTo("true");
            }
        }
        NodeList dirNames = config.getElementsByTagNameNS("*", "dirName");
        Set<String> restored = new TreeSet<>();
        for (int i = 0; i < dirNames.getLength(); i++) {
            restored.add(dirNames.item(i).getTextContent().strip());
        }
        assertThat(restored).containsExactly("cuda-stack-budget", "cuda-stack-budget-aggregate");
    }

    @Test
    void theBeanParametersAreComparedByTheTextOfEveryField() throws Exception {
        for (Class<?> type : List.of(Device.class, Rule.class, Limit.class)) {
            Object bean = type.getDeclaredConstructor().newInstance();
            List<java.lang.reflect.Field> fields = java.util.Arrays.stream(type.getDeclaredFields())
                    .filter(field -> !java.lang.reflect.Modifier.isStatic(field.getModifiers())).toList();
            for (java.lang.reflect.Field field : fields) {
                field.setAccessible(true);
                field.set(bean, field.getType() == List.class ? List.of("v-" + field.getName()) : "v-" + field.getName());
            }
            assertThat(fields).as(type.getSimpleName()).isNotEmpty();
            for (java.lang.reflect.Field field : fields) {
                assertThat(bean.toString()).as("the reconcile of %s sees %s", type.getSimpleName(), field.getName())
                        .containsPattern(field.getName() + "=\\[?v-" + field.getName());
            }
        }
    }

    @Test
    void thePageShowsTheFilesTheItRuns() throws Exception {
        String page = Files.readString(PAGE);
        for (String file : List.of("extensions.xml", "maven-build-cache-config.xml")) {
            String text = Files.readString(MVN.resolve(file));
            // from the root element on (the files' own comment names the IT and this test)
            String root = file.equals("extensions.xml") ? "<extensions>" : "<cache ";
            String content = text.substring(text.indexOf(root)).strip();
            assertThat(page).as("%s shows .mvn/%s as the IT has it", PAGE, file).contains(content);
        }
    }
}
