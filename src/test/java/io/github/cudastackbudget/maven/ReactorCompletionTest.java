package io.github.cudastackbudget.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.eclipse.aether.DefaultSessionData;
import org.eclipse.aether.SessionData;
import org.junit.jupiter.api.Test;

/** The bound aggregate acts once, for the last project that reaches it, in any order and from any thread. */
class ReactorCompletionTest {

    private static final String KEY = "cuda-stack-budget:aggregate:default";

    @Test
    void onlyTheLastArrivalActsWhateverTheOrder() {
        Set<String> expected = Set.of("g:root", "g:kernels", "g:fine", "g:docs");
        for (List<String> order : List.of(List.of("g:root", "g:kernels", "g:fine", "g:docs"),
                List.of("g:docs", "g:fine", "g:root", "g:kernels"))) {
            SessionData data = new DefaultSessionData();
            List<Boolean> acted = new ArrayList<>();
            for (String project : order) {
                acted.add(ReactorCompletion.arrive(data, KEY, project, expected));
            }
            assertThat(acted).as("arrivals in the order %s", order).containsExactly(false, false, false, true);
            assertThat(ReactorCompletion.count(data, KEY, expected)).isEqualTo(4);
        }
    }

    @Test
    void anArrivalAfterTheLastDoesNotActAgain() {
        SessionData data = new DefaultSessionData();
        Set<String> expected = Set.of("g:a", "g:b");

        assertThat(ReactorCompletion.arrive(data, KEY, "g:a", expected)).isFalse();
        assertThat(ReactorCompletion.arrive(data, KEY, "g:b", expected)).isTrue();
        assertThat(ReactorCompletion.arrive(data, KEY, "g:b", expected)).isFalse();
        assertThat(ReactorCompletion.arrive(data, KEY, "g:c", Set.of("g:a", "g:b", "g:c"))).isFalse();
    }

    @Test
    void anotherExecutionCountsApart() {
        SessionData data = new DefaultSessionData();
        Set<String> expected = Set.of("g:a", "g:b");

        ReactorCompletion.arrive(data, KEY, "g:a", expected);

        assertThat(ReactorCompletion.arrive(data, KEY + "-other", "g:b", expected)).isFalse();
        assertThat(ReactorCompletion.count(data, KEY, expected)).isEqualTo(1);
    }

    @Test
    void projectsArrivingAtOnceOnManyThreadsActExactlyOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            SessionData data = new DefaultSessionData();
            Set<String> expected = IntStream.range(0, 16).mapToObj(i -> "g:module" + i)
                    .collect(Collectors.toCollection(TreeSet::new));
            ExecutorService pool = Executors.newFixedThreadPool(8);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> arrivals = new ArrayList<>();
            List<String> projects = new ArrayList<>(expected);
            Collections.shuffle(projects, new java.util.Random(round));
            for (String project : projects) {
                arrivals.add(pool.submit(() -> {
                    start.await();
                    return ReactorCompletion.arrive(data, KEY, project, expected);
                }));
            }
            start.countDown();
            int acted = 0;
            for (Future<Boolean> arrival : arrivals) {
                acted += arrival.get(10, TimeUnit.SECONDS) ? 1 : 0;
            }
            pool.shutdown();
            assertThat(acted).as("round %d", round).isEqualTo(1);
        }
    }
}
