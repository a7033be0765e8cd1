package dev.domino.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads, each with its own matchers and forks, on one artifact (lazy: trees built on
 * first use while the others walk them; and eager): every mask equals the one a single thread
 * computed on its own artifact, also after the process-wide caches are cleared mid-run. The
 * threads start together; {@code -Ddomino.test.long=true} runs more threads, outputs and rounds.
 */
class ConcurrentMatchersTest {
    static final boolean LONG = Boolean.getBoolean("domino.test.long");

    @Test void lazyArtifact() throws Exception { check(true); }

    @Test void eagerArtifact() throws Exception { check(false); }

    private static void check(boolean lazy) throws Exception {
        List<byte[][]> outputs = LazyTreesConcurrencyTest.outputs(LONG ? 24 : 6, lazy ? 1 : 2);
        // reference: a single thread on its own artifact
        List<List<int[]>> expected = new ArrayList<>();
        Artifact reference = lazy ? Fixtures.json() : Fixtures.jsonEager();
        for (byte[][] chunks : outputs) expected.add(masks(reference, chunks, 0));
        Artifact shared = lazy ? Fixtures.json() : Fixtures.jsonEager();
        int threads = LONG ? 8 : 4, rounds = LONG ? 3 : 2;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CyclicBarrier start = new CyclicBarrier(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await(5, TimeUnit.MINUTES);
                    for (int round = 0; round < rounds; round++) {
                        for (int i = 0; i < outputs.size(); i++) {
                            int o = (i + thread) % outputs.size();
                            List<int[]> got = masks(shared, outputs.get(o), thread + round);
                            for (int step = 0; step < got.size(); step++) {
                                assertThat(got.get(step)).as("output %d step %d thread %d", o, step, thread).isEqualTo(expected.get(o).get(step));
                            }
                        }
                        if (thread == 0 && round == 0) RuntimeCaches.clear(); // while the others walk
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get(10, TimeUnit.MINUTES); // a hang guard
        } finally {
            pool.shutdownNow();
        }
    }

    /** The mask before each chunk and at the end; every few chunks through a fork. */
    private static List<int[]> masks(Artifact a, byte[][] chunks, int salt) {
        Matcher m = a.newMatcher();
        int[] row = new int[m.bitmaskInts()];
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i <= chunks.length; i++) {
            m.fillNextTokenBitmask(row, 0);
            out.add(Arrays.copyOf(row, row.length));
            if (i == chunks.length) break;
            if ((i + salt) % 3 == 0) {
                Matcher f = m.fork();
                assertThat(f.acceptBytes(chunks[i])).isTrue();
                m = f;
            } else {
                assertThat(m.acceptBytes(chunks[i])).isTrue();
            }
        }
        return out;
    }
}
