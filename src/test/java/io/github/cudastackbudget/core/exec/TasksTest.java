package io.github.cudastackbudget.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class TasksTest {

    @Test
    void aTaskRunsOnANamedDaemonThreadAndGivesItsValue() {
        CompletableFuture<String> task = CompletableFuture.supplyAsync(
                () -> Thread.currentThread().getName() + " " + Thread.currentThread().isDaemon(),
                Tasks.daemon("cuda-stack-budget-test"));
        assertThat(Tasks.join(task)).isEqualTo("cuda-stack-budget-test true");
    }

    @Test
    void aFailureIsThrownAsItWasThrownOnTheTasksThread() {
        UncheckedIOException unchecked = new UncheckedIOException(new java.io.IOException("disk full"));
        assertThatThrownBy(() -> Tasks.join(CompletableFuture.supplyAsync(() -> {
            throw unchecked;
        }, Tasks.daemon("t")))).isSameAs(unchecked);
        StackOverflowError error = new StackOverflowError("deep");
        assertThatThrownBy(() -> Tasks.join(CompletableFuture.supplyAsync(() -> {
            throw error;
        }, Tasks.daemon("t")))).isSameAs(error);
        // a checked cause (only a future completed by hand can hold one) stays wrapped, with its cause
        CompletableFuture<String> checked = new CompletableFuture<>();
        Exception cause = new Exception("checked");
        checked.completeExceptionally(cause);
        assertThatThrownBy(() -> Tasks.join(checked)).isInstanceOf(CompletionException.class).hasCause(cause);
    }
}
