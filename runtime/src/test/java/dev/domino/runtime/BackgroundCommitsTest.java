package dev.domino.runtime;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A commit queues its matcher's next mask for the background build. A background task holds the
 * build's monitor while it computes the build order, which walks every terminal's automaton
 * (milliseconds on a large schema, 11-22 ms of wall time on the first commit of some dev files);
 * the commit must not wait for it.
 */
class BackgroundCommitsTest {
    @Test void aCommitDoesNotWaitForABackgroundTaskHoldingTheBuild() throws Exception {
        Artifact lazy = Fixtures.json();
        java.util.List<Runnable> tasks = new java.util.ArrayList<>(); // never run: the build stays open
        BackgroundBuild bg = lazy.buildTreesInBackground(tasks::add, 1);
        CountDownLatch held = new CountDownLatch(1), release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (bg) { // as a task computing the build order does
                held.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        holder.start();
        try {
            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
            Matcher m = lazy.newMatcher();
            long start = System.nanoTime();
            assertThat(m.acceptBytes("{\"a\": [1, 2]".getBytes(StandardCharsets.UTF_8))).isTrue();
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(30);
            assertThat(release.getCount()).as("the commit came back while the monitor was held").isEqualTo(1);
        } finally {
            release.countDown();
            holder.join();
            bg.cancel();
        }
    }
}
