package dev.domino.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 37 item 5: a background build whose executor is shut down under it always ends, in the
 * cancelled state, and queues nothing more; masks stay exact.
 */
class BackgroundBuildShutdownTest {
    @Test void shutdownNowWithMoreTasksThanThreadsEndsTheBuild() throws Exception {
        for (int trial = 0; trial < 6; trial++) {
            Artifact lazy = Fixtures.json();
            ExecutorService pool = Executors.newFixedThreadPool(1);
            CountDownLatch blocker = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    blocker.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            BackgroundBuild bg = lazy.buildTreesInBackground(pool, 4); // all four queued behind the blocker
            assertThat(bg.isDone()).isFalse();
            pool.shutdownNow(); // drops the four tasks, interrupts the blocker
            assertThat(bg.await(10, TimeUnit.SECONDS)).as("trial %d", trial).isTrue();
            assertThat(bg.isDone()).isTrue();
            assertThat(bg.isCancelled()).isTrue();
            // decoding goes on, and commits queue nothing for tasks that will never come
            Matcher m = lazy.newMatcher();
            assertThat(m.acceptBytes("{\"a\": [1, 2]".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isTrue();
            Matcher eager = Fixtures.jsonEager().newMatcher();
            assertThat(eager.acceptBytes("{\"a\": [1, 2]".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isTrue();
            assertThat(m.nextTokenMask()).isEqualTo(eager.nextTokenMask());
        }
    }

    @Test void shutdownNowWhileTasksRunStopsThem() throws Exception {
        Artifact lazy = Fixtures.json();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        BackgroundBuild bg = lazy.buildTreesInBackground(pool, 2);
        pool.shutdownNow();
        assertThat(bg.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test void aFinishedBuildIsNotCancelled() throws Exception {
        Artifact lazy = Fixtures.json();
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            BackgroundBuild bg = lazy.buildTreesInBackground(pool, 1);
            assertThat(bg.await(5, TimeUnit.MINUTES)).isTrue();
            assertThat(bg.isCancelled()).isFalse();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void cancelIsACancelledState() throws Exception {
        Artifact lazy = Fixtures.json();
        java.util.List<Runnable> tasks = new java.util.ArrayList<>();
        BackgroundBuild bg = lazy.buildTreesInBackground(tasks::add, 1);
        bg.cancel();
        tasks.get(0).run();
        assertThat(bg.isDone()).isTrue();
        assertThat(bg.isCancelled()).isTrue();
    }
}
