package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;

/** Which reactor projects the bound aggregate waits for: those whose build runs its execution. */
class AggregateBindingTest {

    private static final String KEY = "io.github.cudastackbudget:cuda-stack-budget-maven-plugin";

    private static MavenProject project(String executionId, String phase, String... goals) {
        PluginExecution execution = new PluginExecution();
        execution.setId(executionId);
        execution.setPhase(phase);
        execution.setGoals(List.of(goals));
        Plugin plugin = new Plugin();
        plugin.setGroupId("io.github.cudastackbudget");
        plugin.setArtifactId("cuda-stack-budget-maven-plugin");
        plugin.addExecution(execution);
        Build build = new Build();
        build.addPlugin(plugin);
        Model model = new Model();
        model.setGroupId("com.example");
        model.setArtifactId("module");
        model.setVersion("1.0");
        model.setBuild(build);
        return new MavenProject(model);
    }

    @Test
    void aModuleWithTheExecutionIsWaitedFor() {
        assertThat(AggregateMojo.bound(project("reactor-budget", null, "aggregate"), KEY, "reactor-budget")).isTrue();
        assertThat(AggregateMojo.bound(project("reactor-budget", "verify", "check", "aggregate"), KEY,
                "reactor-budget")).isTrue();
    }

    @Test
    void anExecutionMovedToPhaseNoneAnotherExecutionOrAnotherGoalIsNot() {
        assertThat(AggregateMojo.bound(project("reactor-budget", "none", "aggregate"), KEY, "reactor-budget"))
                .isFalse();
        assertThat(AggregateMojo.bound(project("other", null, "aggregate"), KEY, "reactor-budget")).isFalse();
        assertThat(AggregateMojo.bound(project("reactor-budget", null, "check"), KEY, "reactor-budget")).isFalse();
        assertThat(AggregateMojo.bound(project("reactor-budget", null, "aggregate"), "com.example:other-plugin",
                "reactor-budget")).isFalse();
    }
}
