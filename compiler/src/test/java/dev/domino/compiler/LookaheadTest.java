package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
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
 * Lookahead k (see {@link Matcher}): a token may complete at most k + 1 terminals. At every k the
 * mask is sound (the oracle finds each allowed token viable), grows with k up to the unlimited
 * mask, holds every viable one-byte token (one byte completes at most one terminal, so the
 * output never dead-ends at a terminal boundary), and agrees with {@link Matcher#isAllowed} and
 * {@link Matcher#acceptToken}.
 *
 * <p>The random outputs are checked against a 4,097-token vocabulary (the first 4,096 of
 * o200k_base, see {@link RuntimeFixturesTest#smallVocabulary()}), so that every token is asked at
 * every checked position: {@code isAllowed} and the mask on all of them, the oracle on a quarter of
 * the allowed ones. {@code -Ddomino.test.long=true} checks four times the outputs, every position,
 * every allowed token with the oracle (see {@link LongTests}).
 */
class LookaheadTest {
    static Tokenizer o200k;
    static Vocabulary small;

    @BeforeAll static void load() {
        o200k = VocabularyLoader.load("o200k_base", null);
        small = RuntimeFixturesTest.smallVocabulary();
    }

    @Test void jsonAtEveryK() { check(TestGrammars.json(), false, LongTests.scale(4, 16), 3); }

    @Test void jsonLazyTrees() { check(TestGrammars.json(), true, LongTests.scale(3, 12), 4); }

    @Test void ambiguousLexing() { check(TestGrammars.wordSoup(), false, LongTests.scale(3, 12), 5); }

    @Test void kZeroAdmitsTheNextWholeTerminalAndKOneBridges() {
        Artifact a = GrammarCompiler.compile(TestGrammars.json(), o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults());
        Vocabulary v = a.vocabulary();
        int close = single(v, "]"), bridge = single(v, "],"), quote = single(v, "\"");
        for (int k = 0; k <= 2; k++) {
            Matcher m = a.newMatcher(k);
            assertThat(m.acceptString("{\"a\": [1")).isTrue();
            BitSet mask = m.nextTokenMask();
            assertThat(mask.get(close)).as("k=%d: ] completes the number and the next terminal", k).isTrue();
            assertThat(mask.get(bridge)).as("k=%d: ], completes three terminals", k).isEqualTo(k >= 1);
            assertThat(m.isAllowed(bridge)).isEqualTo(k >= 1);
            Matcher afterBrace = a.newMatcher(k);
            assertThat(afterBrace.acceptString("{")).isTrue();
            assertThat(afterBrace.nextTokenMask().get(quote)).as("k=%d: a key's quote after {", k).isTrue();
        }
        Matcher m = a.newMatcher(0);
        assertThat(m.acceptString("{\"a\": [1")).isTrue();
        assertThat(m.acceptToken(bridge)).as("acceptToken refuses what the mask refuses").isFalse();
        assertThat(m.committedTokens()).isEqualTo(1);
        assertThat(m.acceptToken(close)).isTrue();
    }

    private static int single(Vocabulary v, String text) {
        byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int t = 0; t < v.size(); t++) if (v.isGrammarToken(t) && java.util.Arrays.equals(v.bytes(t), b)) return t;
        throw new AssertionError("no token " + text);
    }

    private static void check(Grammar g, boolean lazy, int sentences, long seed) {
        Artifact a = GrammarCompiler.compile(g, small, "t", "ir", "t", CompileOptions.defaults().withLazy(lazy));
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(50);
        Random random = new Random(seed);
        Vocabulary v = a.vocabulary();
        List<Integer> oneByte = new ArrayList<>();
        for (int t = 0; t < v.size(); t++) if (v.isGrammarToken(t) && v.bytes(t).length == 1) oneByte.add(t);
        int[] ks = {0, 1, 2};
        int checked = 0;
        for (int i = 0; i < sentences; i++) {
            int[] tokens = greedy(v, sampler.sample(random).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            Matcher full = a.newMatcher();
            Matcher[] bounded = new Matcher[ks.length];
            for (int j = 0; j < ks.length; j++) bounded[j] = a.newMatcher(ks[j]);
            ByteEarleyOracle.State state = oracle.start();
            for (int pos = 0; pos <= tokens.length; pos++) {
                if (pos == tokens.length || LongTests.LONG || random.nextInt(2) == 0) {
                    compare(full, bounded, oracle, state, oneByte, random);
                    checked++;
                }
                if (pos == tokens.length) break;
                state = oracle.advance(state, v.bytes(tokens[pos]));
                assertThat(full.acceptToken(tokens[pos])).isTrue();
                // the bounded matchers follow the same output (forced text is not bounded by k)
                for (Matcher m : bounded) assertThat(m.acceptBytes(v.bytes(tokens[pos]))).isTrue();
            }
        }
        assertThat(checked).isGreaterThan(sentences);
    }

    /** Longest vocabulary entry first (the small vocabulary holds every single byte). */
    private static int[] greedy(Vocabulary v, byte[] text) {
        java.util.Map<String, Integer> ids = new java.util.HashMap<>();
        int longest = 1;
        for (int t = 0; t < v.size(); t++) {
            if (!v.isGrammarToken(t)) continue;
            ids.putIfAbsent(new String(v.bytes(t), java.nio.charset.StandardCharsets.ISO_8859_1), t);
            longest = Math.max(longest, v.bytes(t).length);
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < text.length; ) {
            for (int n = Math.min(longest, text.length - i); ; n--) {
                if (n == 0) throw new AssertionError("no token for byte " + (text[i] & 0xFF));
                Integer id = ids.get(new String(text, i, n, java.nio.charset.StandardCharsets.ISO_8859_1));
                if (id != null) { out.add(id); i += n; break; }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void compare(Matcher full, Matcher[] bounded, ByteEarleyOracle oracle, ByteEarleyOracle.State state,
                                List<Integer> oneByte, Random random) {
        Vocabulary v = full.artifact().vocabulary();
        BitSet unlimited = full.nextTokenMask();
        BitSet previous = null;
        for (Matcher m : bounded) {
            BitSet mask = m.nextTokenMask();
            BitSet extra = (BitSet) mask.clone();
            extra.andNot(unlimited);
            assertThat(extra.isEmpty()).as("k=%d mask within the unlimited mask", m.lookahead()).isTrue();
            if (previous != null) {
                BitSet lost = (BitSet) previous.clone();
                lost.andNot(mask);
                assertThat(lost.isEmpty()).as("k=%d mask holds the smaller k's", m.lookahead()).isTrue();
            }
            previous = mask;
            for (int t : oneByte) {
                if (unlimited.get(t)) assertThat(mask.get(t)).as("k=%d: viable one-byte token %s", m.lookahead(), v.display(t)).isTrue();
            }
            // the mask and the opportunistic check agree on every token
            for (int t = 0; t < v.size(); t++) {
                assertThat(m.isAllowed(t)).as("k=%d: isAllowed(%s) agrees with the mask", m.lookahead(), v.display(t)).isEqualTo(mask.get(t));
            }
            // sound: allowed tokens are viable (a sample, checked by the oracle)
            List<byte[]> sample = new ArrayList<>();
            for (int t = mask.nextSetBit(0); t >= 0; t = mask.nextSetBit(t + 1)) {
                if (v.isGrammarToken(t) && (LongTests.LONG || random.nextInt(4) == 0)) sample.add(v.bytes(t));
            }
            BitSet viable = oracle.viableTokens(state, sample);
            assertThat(viable.cardinality()).as("k=%d: allowed tokens are viable", m.lookahead()).isEqualTo(sample.size());
        }
    }
}
