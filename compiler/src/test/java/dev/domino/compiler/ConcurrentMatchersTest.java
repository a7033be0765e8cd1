package dev.domino.compiler;

import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.RuntimeCaches;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads, each with its own matchers and forks, on one artifact (lazy: trees built on
 * first use while the others walk them; and eager): every mask equals the one a single thread
 * computed, also after the process-wide caches are cleared and bounded tightly mid-run.
 */
class ConcurrentMatchersTest {
    static final Tokenizer O200K = VocabularyLoader.load("o200k_base", null);

    @Test void lazyArtifact() throws Exception { check(true); }

    @Test void eagerArtifact() throws Exception { check(false); }

    private static void check(boolean lazy) throws Exception {
        var g = dev.domino.compiler.jsonschema.JsonSchemaGrammar.from("""
                {"type": "object", "properties": {
                   "name": {"type": "string"}, "n": {"type": "integer"}, "kind": {"enum": ["a", "b"]},
                   "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}}},
                 "required": ["name"], "additionalProperties": {"type": "number"}}""").grammar();
        SentenceSampler sampler = new SentenceSampler(g).maxLength(80);
        Random random = new Random(lazy ? 1 : 2);
        List<int[]> outputs = new ArrayList<>();
        for (int i = 0; i < 6; i++) outputs.add(O200K.encode(sampler.sample(random)));
        // reference: a single thread on its own artifact
        List<List<int[]>> expected = new ArrayList<>();
        Artifact reference = GrammarCompiler.compile(g, O200K.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(lazy));
        for (int[] tokens : outputs) expected.add(masks(reference, tokens, 0));
        Artifact shared = GrammarCompiler.compile(g, O200K.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(lazy));
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int round = 0; round < 2; round++) {
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
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
            dev.domino.runtime.internal.VocabTrie.of(O200K.vocabulary()); // warm again for the tests after this one
        }
    }

    /** The mask before each token and at the end; every few tokens through a fork. */
    private static List<int[]> masks(Artifact a, int[] tokens, int salt) {
        Matcher m = a.newMatcher();
        int[] row = new int[m.bitmaskInts()];
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i <= tokens.length; i++) {
            m.fillNextTokenBitmask(row, 0);
            out.add(Arrays.copyOf(row, row.length));
            if (i == tokens.length) break;
            if ((i + salt) % 3 == 0) {
                Matcher f = m.fork();
                assertThat(f.acceptToken(tokens[i])).isTrue();
                m = f;
            } else {
                assertThat(m.acceptToken(tokens[i])).isTrue();
            }
        }
        return out;
    }
}
