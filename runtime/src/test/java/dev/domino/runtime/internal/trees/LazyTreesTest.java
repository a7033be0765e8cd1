package dev.domino.runtime.internal.trees;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lazy trees: a build that fails reaches the threads waiting for it, and the next request builds again. */
class LazyTreesTest {
    @Test void aFailedBuildReachesItsWaitersAndIsRetried() throws Exception {
        CountDownLatch building = new CountDownLatch(1), release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        TokenTree tree = new TokenTree(new int[] {0, 0}, new int[0], new int[0], new int[] {0, 0}, new int[0], new int[0],
                new int[0], new TokenSets(new TokenSet[0]));
        LazyTrees trees = new LazyTrees(2, q -> {
            if (calls.incrementAndGet() == 1) {
                building.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                throw new IllegalStateException("boom");
            }
            return tree;
        });
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<TokenTree> first = pool.submit(() -> trees.get(1));
            building.await();
            Future<TokenTree> waiter = pool.submit(() -> trees.get(1));
            Thread.sleep(50); // the waiter finds the build in flight
            release.countDown();
            assertThatThrownBy(first::get).hasRootCauseMessage("boom");
            try {
                assertThat(waiter.get()).isSameAs(tree); // retried after the failure cleared the slot
            } catch (java.util.concurrent.ExecutionException e) {
                assertThat(e).hasRootCauseMessage("boom"); // or joined the failed build
            }
            assertThat(trees.get(1)).isSameAs(tree);
            assertThat(trees.ifBuilt(0)).isNull();
        } finally {
            pool.shutdownNow();
        }
    }
    /**
     * A mask's build given up over its budget ({@link BuildBudget}) leaves the slot empty, and a
     * thread that was waiting for it builds the tree itself instead of failing.
     */
    @Test void aBuildGivenUpOverItsBudgetIsBuiltByItsWaiter() throws Exception {
        CountDownLatch building = new CountDownLatch(1), release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        TokenTree tree = new TokenTree(new int[] {0, 0}, new int[0], new int[0], new int[] {0, 0}, new int[0], new int[0],
                new int[0], new TokenSets(new TokenSet[0]));
        LazyTrees trees = new LazyTrees(1, q -> {
            long deadline = BuildBudget.deadline();
            if (calls.incrementAndGet() == 1) {
                assertThat(deadline).isNotEqualTo(BuildBudget.NONE);
                building.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                while (TreeDemand.clockNanos() <= deadline) Thread.onSpinWait(); // spend the budget
                BuildBudget.check(deadline);
                throw new AssertionError("over the budget, not given up");
            }
            assertThat(deadline).isEqualTo(BuildBudget.NONE); // the waiter's own build: no budget
            return tree;
        });
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<TokenTree> mask = pool.submit(() -> trees.buildIfUnclaimed(0, 1_000_000));
            building.await();
            Future<TokenTree> waiter = pool.submit(() -> trees.get(0));
            Thread.sleep(50); // the waiter finds the build in flight
            release.countDown();
            assertThatThrownBy(mask::get).hasCauseInstanceOf(BuildBudget.Exceeded.class);
            assertThat(waiter.get()).isSameAs(tree);
            assertThat(trees.ifBuilt(0)).isSameAs(tree);
            assertThat(calls.get()).isEqualTo(2);
            assertThat(BuildBudget.deadline()).isEqualTo(BuildBudget.NONE); // this thread never had one
        } finally {
            pool.shutdownNow();
        }
    }
}
