package dev.domino.runtime;

import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.trees.TreeOrder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lazy trees under contention: many threads with their own matchers on one lazy artifact get the
 * masks of a single-threaded run on the eager artifact of the same grammar, and each tree is built
 * once (not once per thread); trees built in the background change no mask.
 */
class LazyTreesConcurrencyTest {
    static final int THREADS = 8;

    /** Random outputs of the fixture's grammar, each cut into chunks of 1 to 4 bytes. */
    static List<byte[][]> outputs(int n, long seed) {
        Random random = new Random(seed);
        List<byte[][]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(Fixtures.chunks(Fixtures.randomJson(random, 2), random));
        return out;
    }

    /** Every mask along every output (plus the final one), as bitmasks. */
    static List<int[]> masks(Artifact a, List<byte[][]> outputs) {
        List<int[]> all = new ArrayList<>();
        for (byte[][] chunks : outputs) {
            Matcher m = a.newMatcher();
            for (byte[] chunk : chunks) {
                int[] mask = new int[m.bitmaskInts()];
                m.fillNextTokenBitmask(mask, 0);
                all.add(mask);
                assertThat(m.acceptBytes(chunk)).isTrue();
            }
            int[] last = new int[m.bitmaskInts()];
            m.fillNextTokenBitmask(last, 0);
            all.add(last);
            assertThat(m.isAccepting()).isTrue();
        }
        return all;
    }

    private static int builtTrees(Artifact a) {
        int n = 0;
        ArtifactInternals ai = RuntimeAccess.of(a);
        for (int q = 0; q < ai.treeCount(); q++) if (ai.tree(q) != null) n++;
        return n;
    }

    @Test void threadsShareEachLazyTreeAndGetSingleThreadedMasks() throws Exception {
        List<byte[][]> outputs = outputs(8, 1);
        List<int[]> expected = masks(Fixtures.jsonEager(), outputs);
        Artifact lazy = Fixtures.json();
        AtomicInteger builds = new AtomicInteger();
        RuntimeAccess.of(lazy).onLazyBuild(builds::incrementAndGet);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<List<int[]>>> results = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                results.add(pool.submit(() -> {
                    start.await(5, TimeUnit.MINUTES);
                    return masks(lazy, outputs);
                }));
            }
            for (Future<List<int[]>> r : results) {
                List<int[]> got = r.get(5, TimeUnit.MINUTES); // a hang guard
                assertThat(got).hasSameSizeAs(expected);
                for (int i = 0; i < got.size(); i++) assertThat(got.get(i)).as("mask %d", i).isEqualTo(expected.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(builds.get()).as("each tree built once, not once per thread").isEqualTo(builtTrees(lazy)).isPositive();
    }

    @Test void backgroundBuildingChangesNoMaskAndBuildsThePrebuildOrder() throws Exception {
        List<byte[][]> outputs = outputs(8, 2);
        List<int[]> expected = masks(Fixtures.jsonEager(), outputs);
        Artifact lazy = Fixtures.json();
        AtomicInteger builds = new AtomicInteger();
        RuntimeAccess.of(lazy).onLazyBuild(builds::incrementAndGet);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            BackgroundBuild bg = lazy.buildTreesInBackground(pool, 2);
            List<int[]> got = masks(lazy, outputs);
            for (int i = 0; i < got.size(); i++) assertThat(got.get(i)).as("mask %d", i).isEqualTo(expected.get(i));
            assertThat(bg.await(5, TimeUnit.MINUTES)).isTrue();
            assertThatThrownBy(() -> lazy.buildTreesInBackground(pool, 1)).isInstanceOf(IllegalStateException.class);
        } finally {
            pool.shutdownNow();
        }
        assertThat(builds.get()).isEqualTo(builtTrees(lazy));
        // every tree the prebuild order names is built (the rest are start states no mask sits in, and
        // states deep in whitespace runs, left to the masks that need them)
        ArtifactInternals ai = RuntimeAccess.of(lazy);
        List<int[]> states = TreeOrder.treeStates(ai.terminals(), lazy.vocabulary().maxTokenBytes());
        for (int q : TreeOrder.prebuildOrder(ai.terminals(), states)) assertThat(ai.tree(q)).as("slot %d", q).isNotNull(); // slots are the states' order
        assertThat(masks(lazy, outputs).size()).isEqualTo(expected.size());
        assertThat(builds.get()).as("nothing rebuilt afterwards").isEqualTo(builtTrees(lazy));
    }

    @Test void aCommitHasTheBackgroundBuildTheNextMasksTreesFirst() throws Exception {
        Artifact lazy = Fixtures.json();
        ArtifactInternals ai = RuntimeAccess.of(lazy);
        Matcher m = lazy.newMatcher();
        int[] mask = new int[m.bitmaskInts()];
        m.fillNextTokenBitmask(mask, 0);
        // an executor that runs its task only when told
        List<Runnable> tasks = new ArrayList<>();
        BackgroundBuild bg = lazy.buildTreesInBackground(tasks::add, 1);
        assertThat(m.acceptBytes("{\"ab".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isTrue();
        int[][] live = RuntimeAccess.get().liveConfigurations(m);
        for (int[] c : live) assertThat(ai.tree(ai.treeSlot(c[0]))).as("not built before the task runs").isNull();
        // the task's first piece of work is the next mask: stop it after that
        AtomicInteger builds = new AtomicInteger();
        ai.onLazyBuild(() -> { builds.incrementAndGet(); bg.cancel(); });
        assertThat(tasks).hasSize(1);
        tasks.get(0).run();
        assertThat(bg.isDone()).isTrue();
        for (int[] c : live) assertThat(ai.tree(ai.treeSlot(c[0]))).as("built ahead of the mask").isNotNull();
        assertThat(builds.get()).as("only what the next mask walks").isEqualTo(live.length);
        // and the mask is the eager artifact's
        Matcher eager = Fixtures.jsonEager().newMatcher();
        assertThat(eager.acceptBytes("{\"ab".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isTrue();
        int[] expected = new int[eager.bitmaskInts()];
        eager.fillNextTokenBitmask(expected, 0);
        m.fillNextTokenBitmask(mask, 0);
        assertThat(mask).isEqualTo(expected);
        assertThat(builds.get()).as("the mask built nothing").isEqualTo(live.length);
    }
}
