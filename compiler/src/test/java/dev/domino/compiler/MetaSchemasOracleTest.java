package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code $ref} to a bundled meta-schema (a recursive grammar of every schema of the draft, with uniqueItems
 * over strings): masks and commits against the byte-level oracle at random prefixes of sampled schemas. The
 * oracle is slow on this grammar, so each compared mask is checked on a random sample of its allowed tokens
 * and of the others.
 */
class MetaSchemasOracleTest {
    @BeforeAll static void load() { UniqueItemsOracleTest.load(); }

    static final JsonSchemaOptions ANNOTATED = JsonSchemaOptions.compact().withFormatMode(JsonSchemaOptions.FormatMode.ANNOTATION);

    @Test void draft2020() {
        check("{\"$ref\":\"https://json-schema.org/draft/2020-12/schema\"}", 6, 11);
    }

    @Test void draft7() {
        check("{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"$ref\":\"http://json-schema.org/draft-07/schema#\"}", 6, 12);
    }

    static void check(String schema, int sentences, long seed) {
        Grammar g = JsonSchemaGrammar.from(schema, ANNOTATED).grammar();
        Vocabulary v = UniqueItemsOracleTest.o200k.vocabulary();
        Artifact artifact = GrammarCompiler.compile(g, v, "test", "ir", "test", CompileOptions.defaults().withLazy(true));
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(40);
        Random random = new Random(seed);
        for (int i = 0; i < sentences; i++) {
            String sentence = sampler.sample(random);
            assertThat(oracle.isSentence(sentence)).as("sampled %s", sentence).isTrue();
            int[] tokens = UniqueItemsOracleTest.o200k.encode(sentence);
            Matcher m = artifact.newMatcher();
            ByteEarleyOracle.State state = oracle.start();
            for (int k = 0; k <= tokens.length; k++) {
                if (k == tokens.length || random.nextInt(4) == 0) compare(m, oracle, state, v, random, sentence, k);
                if (k == tokens.length) break;
                ByteEarleyOracle.State next = oracle.advance(state, v.bytes(tokens[k]));
                assertThat(m.acceptToken(tokens[k])).as("token %d of %s", k, sentence).isEqualTo(oracle.isViable(next));
                state = next;
            }
            assertThat(m.isAccepting()).as("complete %s", sentence).isTrue();
        }
    }

    private static void compare(Matcher m, ByteEarleyOracle oracle, ByteEarleyOracle.State state, Vocabulary v, Random random, String sentence, int position) {
        BitSet mask = m.nextTokenMask();
        List<byte[]> candidates = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        int allowed = mask.cardinality();
        for (int t = 0; t < v.size(); t++) {
            if (!v.isGrammarToken(t)) continue;
            boolean pick = mask.get(t) ? random.nextInt(Math.max(1, allowed / 300)) == 0 : random.nextInt(600) == 0;
            if (pick) { candidates.add(v.bytes(t)); ids.add(t); }
        }
        BitSet viable = oracle.viableTokens(state, candidates);
        for (int i = 0; i < ids.size(); i++) {
            int t = ids.get(i);
            assertThat(mask.get(t)).as("after %d tokens of '%s': token %d '%s'", position, sentence, t, Vocabulary.displayBytes(v.bytes(t)))
                .isEqualTo(viable.get(i));
        }
        assertThat(mask.get(v.eosIds()[0])).as("EOS after %d tokens of %s", position, sentence).isEqualTo(oracle.isComplete(state));
    }
}
