package dev.domino.runtime;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.diagnostics.*;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.FrontEndOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lazy trees under contention: many threads with their own matchers on one artifact get the
 * masks of a single-threaded run on an eager artifact, and each tree is built once (not once
 * per thread); trees built in the background change no mask.
 */
class LazyTreesConcurrencyTest {
    static final String SCHEMA = """
            {"type": "object",
             "properties": {"departure": {"type": "string"}, "destination": {"type": "string"},
                            "passengers": {"type": "integer"}, "price": {"type": "number"},
                            "tags": {"type": "array", "items": {"enum": ["window", "aisle", "quiet"]}}},
             "required": ["departure"],
             "additionalProperties": false}
            """;
    static final String[] OUTPUTS = {
            "{\"departure\": \"Paris\", \"destination\": \"Lyon\", \"passengers\": 3}",
            "{\"price\": 12.5, \"departure\": \"Zürich\", \"tags\": [\"aisle\", \"quiet\"]}",
            "{\"departure\": \"a \\\"quoted\\\" place\", \"passengers\": -1, \"price\": 1e3}",
            "{\"tags\": [], \"departure\": \"\", \"destination\": \"Berlin Hbf\"}",
    };
    static final int THREADS = 8;

    private static Tokenizer tokenizer() { return VocabularyLoader.load("cl100k_base", null); }

    private static Artifact compile(Vocabulary vocab, boolean lazy) {
        GrammarSources.Parsed parsed = GrammarSources.parse(SCHEMA, SourceFormat.JSON_SCHEMA, FrontEndOptions.defaults());
        return GrammarCompiler.compile(parsed.grammar(), vocab, "trips.json", "json-schema", SCHEMA,
                parsed.applyTo(CompileOptions.defaults()).withLazy(lazy).withPrebuildMillis(0));
    }

    /** Every mask along every output (plus the final one), as bitmasks. */
    private static List<int[]> masks(Artifact a, List<int[]> outputs) {
        List<int[]> all = new ArrayList<>();
        for (int[] tokens : outputs) {
            Matcher m = a.newMatcher();
            for (int tok : tokens) {
                int[] mask = new int[m.bitmaskInts()];
                m.fillNextTokenBitmask(mask, 0);
                all.add(mask);
                assertThat(m.acceptToken(tok)).isTrue();
            }
            int[] last = new int[m.bitmaskInts()];
            m.fillNextTokenBitmask(last, 0);
            all.add(last);
            assertThat(m.isAccepting()).isTrue();
        }
        return all;
    }

    private static List<int[]> tokenized(Tokenizer tok) {
        List<int[]> outputs = new ArrayList<>();
        for (String o : OUTPUTS) outputs.add(tok.encode(o));
        return outputs;
    }

    private static int builtTrees(Artifact a) {
        int n = 0;
        ArtifactInternals ai = RuntimeAccess.of(a);
        for (int q = 0; q < ai.treeCount(); q++) if (ai.tree(q) != null) n++;
        return n;
    }

    @Test void threadsShareEachLazyTreeAndGetSingleThreadedMasks() throws Exception {
        Tokenizer tok = tokenizer();
        List<int[]> outputs = tokenized(tok);
        List<int[]> expected = masks(compile(tok.vocabulary(), false), outputs);
        Artifact lazy = compile(tok.vocabulary(), true);
        AtomicInteger builds = new AtomicInteger();
        RuntimeAccess.of(lazy).onLazyBuild(builds::incrementAndGet);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<List<int[]>>> results = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return masks(lazy, outputs);
                }));
            }
            for (Future<List<int[]>> r : results) {
                List<int[]> got = r.get(5, TimeUnit.MINUTES);
                assertThat(got).hasSameSizeAs(expected);
                for (int i = 0; i < got.size(); i++) assertThat(got.get(i)).as("mask %d", i).isEqualTo(expected.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(builds.get()).as("each tree built once, not once per thread").isEqualTo(builtTrees(lazy)).isPositive();
    }

    @Test void backgroundBuildingChangesNoMaskAndBuildsEveryTree() throws Exception {
        Tokenizer tok = tokenizer();
        List<int[]> outputs = tokenized(tok);
        List<int[]> expected = masks(compile(tok.vocabulary(), false), outputs);
        Artifact lazy = compile(tok.vocabulary(), true);
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
        // every tree the build order names is built (the rest are start states no mask sits in)
        List<int[]> states = TreeOrder.treeStates(terminalsOf(lazy), lazy.vocabulary().maxTokenBytes());
        for (int q : TreeOrder.buildOrder(terminalsOf(lazy), states)) assertThat(RuntimeAccess.of(lazy).tree(states.get(q)[2])).isNotNull();
        assertThat(masks(lazy, outputs).size()).isEqualTo(expected.size());
        assertThat(builds.get()).as("nothing rebuilt afterwards").isEqualTo(builtTrees(lazy));
    }

    private static Terminal[] terminalsOf(Artifact a) {
        return RuntimeAccess.of(a).terminals();
    }

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
}
