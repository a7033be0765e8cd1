package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code uniqueItems} over items of any schema: the masks (distinctness checked beside the parser, on
 * canonical forms) against the byte-level oracle (distinctness checked on Jackson values of the item
 * spans), at random prefixes of sampled arrays of strings, numbers and objects, a third of them with an
 * item copied from an earlier one, so that the refusals are exercised; and commits and masks agree.
 */
class UniqueItemsOracleTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    @Test void strings() {
        assertThat(check("{'type':'array','items':{'type':'string','maxLength':3},'uniqueItems':true}", JsonSchemaOptions.defaults(), 24, 1))
            .as("duplicates refused").isGreaterThan(0);
        // finite item values: a permutation, checked by the parser itself
        check("{'type':'array','items':{'enum':['a','b','\\\\u0061b','ab','c',1,10,'x','y','z','w','v','u','t','s','r','q','p','o','n','m','l','k','j','i','h','g','f','e','d','aa','bb']},"
            + "'uniqueItems':true}", JsonSchemaOptions.compact(), 8, 2);
    }

    @Test void numbers() {
        assertThat(check("{'type':'array','items':{'type':'number'},'uniqueItems':true,'maxItems':5}", JsonSchemaOptions.defaults(), 24, 3)
            + check("{'type':'array','items':{'type':'integer','minimum':0,'maximum':30},'uniqueItems':true,'minItems':2}", JsonSchemaOptions.compact(), 24, 4)).as("duplicates refused").isGreaterThan(0);
    }

    @Test void objectsAndNestedArrays() {
        assertThat(check("{'type':'array','items':{'type':'object','properties':{'a':{'type':'integer','maximum':3},'b':{'enum':['x','y']}}},"
            + "'uniqueItems':true}", JsonSchemaOptions.defaults(), 9, 5)
            + check("{'type':'array','items':{'type':'array','items':{'type':'integer','minimum':0,'maximum':2},'uniqueItems':true,'maxItems':3},"
            + "'uniqueItems':true}", JsonSchemaOptions.compact(), 9, 6)
            + check("{'type':'array','items':{},'uniqueItems':true,'maxItems':4}", JsonSchemaOptions.compact(), 6, 7)).as("duplicates refused").isGreaterThan(0);
    }

    @Test void positionalItems() {
        assertThat(check("{'type':'array','prefixItems':[{'type':'integer','minimum':0,'maximum':3},{'type':'number','maximum':3}],"
            + "'items':{'type':'integer','minimum':0,'maximum':4},'uniqueItems':true}", JsonSchemaOptions.compact(), 18, 9)).as("duplicates refused").isGreaterThan(0);
    }

    /** A branch without uniqueItems over the same text keeps its duplicates. */
    @Test void branchesWithAndWithoutDistinctItems() {
        assertThat(check("{'anyOf':[{'type':'array','items':{'type':'string','maxLength':2},'uniqueItems':true},"
            + "{'type':'array','items':{'type':'string','maxLength':1},'maxItems':3}]}", JsonSchemaOptions.compact(), 24, 8)).as("duplicates refused").isGreaterThan(0);
    }

    @Test void commitsRefuseDuplicates() {
        Grammar g = JsonSchemaGrammar.from(j("{'type':'array','items':{'type':'number'},'uniqueItems':true}")).grammar();
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults());
        for (String ok : List.of("[1, 2]", "[1,10]", "[ 1.5 , 15 ]", "[-0.5,0.5]")) assertThat(sentence(a, ok)).as(ok).isTrue();
        for (String dup : List.of("[1,1]", "[1, 1.0]", "[2,1e0,1]", "[10 ,1e1]", "[0,-0]", "[100,1E2]")) {
            Matcher m = a.newMatcher();
            assertThat(m.acceptString(dup)).as(dup).isFalse();
        }
        Matcher m = a.newMatcher();
        assertThat(m.acceptString("[1,2,")).isTrue();
        Matcher fork = m.fork();
        assertThat(fork.acceptString("2]")).isFalse();
        assertThat(fork.acceptString("3]")).isTrue();
        assertThat(m.acceptString("1")).isTrue(); // 10, 1.5 may follow
        assertThat(m.fork().acceptString("]")).isFalse();
        assertThat(m.acceptString("0]")).isTrue();
        m.rollback(2);
        assertThat(m.acceptString("2 ")).isFalse();
    }

    private static boolean sentence(Artifact a, String text) {
        Matcher m = a.newMatcher();
        return m.acceptString(text) && m.isAccepting();
    }

    static String j(String s) { return s.replace('\'', '"'); }

    /** Compares masks and commits with the oracle on sampled sentences; returns how many sentences a token refusal ended. */
    static int check(String schema, JsonSchemaOptions options, int sentences, long seed) {
        Grammar g = JsonSchemaGrammar.from(j(schema), options).grammar();
        Artifact artifact = GrammarCompiler.compile(g, o200k.vocabulary(), "test", "ir", "test", CompileOptions.defaults());
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(60);
        SentenceSampler duplicating = new SentenceSampler(g).maxLength(60).duplicates(50);
        Random random = new Random(seed);
        Vocabulary v = o200k.vocabulary();
        List<byte[]> allTokens = new ArrayList<>();
        for (int t = 0; t < v.size(); t++) allTokens.add(v.isGrammarToken(t) ? v.bytes(t) : null);
        int refused = 0;
        for (int i = 0; i < sentences; i++) {
            boolean dup = i % 3 == 1;
            String sentence = (dup ? duplicating : sampler).sample(random);
            if (!dup) assertThat(oracle.isSentence(sentence)).as("sampled %s", sentence).isTrue();
            int[] tokens = o200k.encode(sentence);
            Matcher m = artifact.newMatcher();
            ByteEarleyOracle.State state = oracle.start();
            for (int k = 0; k <= tokens.length; k++) {
                if (k == tokens.length || random.nextInt(3) == 0) compare(m, oracle, state, allTokens, random, sentence, k);
                if (k == tokens.length) break;
                ByteEarleyOracle.State next = oracle.advance(state, v.bytes(tokens[k]));
                boolean accepted = m.acceptToken(tokens[k]);
                assertThat(accepted).as("token %d of %s", k, sentence).isEqualTo(oracle.isViable(next));
                if (!accepted) { refused++; break; }
                state = next;
            }
            assertThat(m.isAccepting()).as("complete %s", sentence).isEqualTo(oracle.isSentence(sentence));
        }
        return refused;
    }

    private static void compare(Matcher m, ByteEarleyOracle oracle, ByteEarleyOracle.State state,
                                List<byte[]> allTokens, Random random, String sentence, int position) {
        BitSet mask = m.nextTokenMask();
        List<byte[]> candidates = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (int t = 0; t < allTokens.size(); t++) {
            if (allTokens.get(t) == null) continue;
            if (mask.get(t) || random.nextInt(20) == 0) { candidates.add(allTokens.get(t)); ids.add(t); }
        }
        BitSet viable = oracle.viableTokens(state, candidates);
        for (int i = 0; i < ids.size(); i++) {
            int t = ids.get(i);
            if (mask.get(t) != viable.get(i)) {
                throw new AssertionError("after " + position + " tokens of '" + sentence + "': token " + t + " '"
                        + Vocabulary.displayBytes(allTokens.get(t)) + "' mask=" + mask.get(t) + " oracle=" + viable.get(i));
            }
        }
        assertThat(mask.get(o200k.vocabulary().eosIds()[0])).as("EOS after %d tokens of %s", position, sentence).isEqualTo(oracle.isComplete(state));
        assertThat(new String(new byte[0], StandardCharsets.UTF_8)).isEmpty();
    }
}
