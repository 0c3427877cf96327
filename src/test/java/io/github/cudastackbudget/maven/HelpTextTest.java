package io.github.cudastackbudget.maven;

import static org.apache.maven.api.plugin.testing.MojoExtension.setVariableValueToObject;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.cudastackbudget.cuda_stack_budget_maven_plugin.HelpMojo;
import org.junit.jupiter.api.Test;

/**
 * What {@code mvn cuda-stack-budget:help -Ddetail -Dgoal=check} prints: the HelpMojo that maven-plugin-plugin
 * generated, run over the plugin-help.xml of this build (the src/it/help IT runs the same through Maven).
 */
class HelpTextTest {

    private static String help(String goal) throws Exception {
        HelpMojo help = new HelpMojo();
        setVariableValueToObject(help, "detail", true);
        setVariableValueToObject(help, "goal", goal);
        setVariableValueToObject(help, "lineLength", 80);
        setVariableValueToObject(help, "indentSize", 2);
        LogLines log = new LogLines();
        help.setLog(log);
        help.execute();
        return String.join("\n", log.lines);
    }

    @Test
    void checkNamesThePluginsOwnReaderAndEveryReport() throws Exception {
        String text = help("check").replaceAll("\\s+", " ");

        assertThat(text).contains("with the plugin's own reader, no CUDA toolkit needed")
                .contains("cuda-stack-budget.json, cuda-stack-budget.txt and cuda-stack-budget.html")
                .doesNotContain("from the built libraries (cuobjdump --dump-resource-usage)");
    }

    @Test
    void thePluginDescriptionIsOneParagraph() throws Exception {
        String text = help("check");
        String first = text.lines().filter(line -> line.contains("Fails the build when")).findFirst().orElseThrow();
        String next = text.lines().dropWhile(line -> !line.contains("Fails the build when")).skip(1).findFirst()
                .orElseThrow();

        // the POM's <description> once had a hard line break, printed as a break with four spaces of indent
        assertThat(next).doesNotStartWith("    device memory").doesNotStartWith("device memory");
        assertThat(first + " " + next).contains("reserve too much");
    }
}
