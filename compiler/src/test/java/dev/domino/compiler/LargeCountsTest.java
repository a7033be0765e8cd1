package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import dev.domino.runtime.internal.RuntimeAccess;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.BitSet;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Large counts ({@code maxLength}, {@code minItems}, {@code x{m,n}}) cost O(log n) parser symbols
 * (issue 20: the 62,500-optional chain of a maxLength 10⁶ string), and stay exact at their bounds:
 * the masks against the byte-level oracle at max, max + 1 and min - 1.
 */
class LargeCountsTest {
    static <T> T guarded(Supplier<T> work) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), work::get, "hang guard");
    }

    static int nonterminals(Grammar g) { return TerminalDerivation.deriveFine(g).grammar().nonterminalCount(); }

    static Grammar schema(String json) { return JsonSchemaGrammar.from(json).grammar(); }

    @Test void millionCountsAreAFewNonterminals() {
        guarded(() -> {
            assertThat(nonterminals(schema("{\"type\":\"string\",\"maxLength\":1000000}"))).isLessThan(100);
            assertThat(nonterminals(schema("{\"type\":\"string\",\"minLength\":999999}"))).isLessThan(100);
            assertThat(nonterminals(schema("{\"type\":\"string\",\"minLength\":12345,\"maxLength\":987654}"))).isLessThan(150);
            assertThat(nonterminals(schema("{\"type\":\"array\",\"minItems\":1000000}"))).isLessThan(100);
            assertThat(nonterminals(schema("{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"minItems\":3,\"maxItems\":1000000}"))).isLessThan(150);
            assertThat(nonterminals(GbnfParser.parse("root ::= \"x\"{0,1000000}\n"))).isLessThan(100);
            assertThat(nonterminals(GbnfParser.parse("root ::= (\"ab\" | \"c\" [0-9]){777,1000000} \"!\"\n"))).isLessThan(150);
            return null;
        });
    }

    @Test void aBillionWorksWhenTheLimitIsRaised() {
        // a value, in force for this compile only: no other test sees it
        CompileLimits.Values raised = CompileLimits.Values.DEFAULTS.with("repeat-count=2000000000");
        CompileLimits.in(raised, () -> guarded(() -> {
            assertThat(nonterminals(schema("{\"type\":\"string\",\"minLength\":5,\"maxLength\":1000000000}"))).isLessThan(150);
            assertThat(nonterminals(GbnfParser.parse("root ::= \"x\"{0,999999999}\n"))).isLessThan(150);
            assertThat(nonterminals(schema("{\"type\":\"array\",\"maxItems\":2000000000}"))).isLessThan(150);
            return null;
        }));
        assertThat(CompileLimits.REPEAT_COUNT.value()).isEqualTo(CompileLimits.REPEAT_COUNT.defaultValue());
    }

    /**
     * A string of maxLength 10⁶ is one counted terminal: 21 million scanner states, which are
     * numbers only (nothing is allocated per state), and 2 × 21 trees; near its maximum the mask
     * allows exactly the tokens that fit.
     */
    @Test void aMillionCharacterStringIsOneCountedTerminal() {
        guarded(() -> {
            Vocabulary vocab = RuntimeFixturesTest.smallVocabulary();
            Artifact a = GrammarCompiler.compile(schema("{\"type\":\"string\",\"maxLength\":1000000}"), vocab, "m", "ir", "m",
                    CompileOptions.defaults().withLazy(true).withPrebuildMillis(0).withFineTerminals(true));
            dev.domino.runtime.internal.ArtifactInternals ai = RuntimeAccess.of(a);
            assertThat(ai.scannerStateCount()).isGreaterThan(1_000_000);
            assertThat(ai.treeCount()).as("tree slots").isLessThan(1_000);
            java.util.List<int[]> states = dev.domino.runtime.internal.trees.TreeOrder.treeStates(ai.terminals(), vocab.maxTokenBytes());
            assertThat(ai.treeSlots().count()).isEqualTo(states.size());
            for (int q = 0; q < states.size(); q++) {
                assertThat(ai.treeSlots().state(q)).isEqualTo(states.get(q)[2]);
                assertThat(ai.treeSlot(states.get(q)[2])).isEqualTo(q);
            }
            Matcher m = a.newMatcher();
            assertThat(m.acceptString("\"" + "a".repeat(999_997))).isTrue();
            int[] mask = new int[m.bitmaskInts()];
            m.fillNextTokenBitmask(mask, 0);
            for (int t = 0; t < vocab.size(); t++) {
                byte[] b = vocab.bytes(t);
                if (b.length == 0 || vocab.eosIds()[0] == t) continue;
                boolean plain = true; // printable ASCII other than a quote or a backslash: one character each
                for (byte x : b) plain &= x >= 0x20 && x < 0x7f && x != '"' && x != '\\';
                if (!plain) continue;
                assertThat((mask[t >>> 5] >>> t & 1) != 0).as("token %s with 3 characters left", vocab.display(t)).isEqualTo(b.length <= 3);
            }
            assertThat(m.acceptString("aaa")).isTrue();
            assertThat(m.fork().acceptString("a")).isFalse();
            assertThat(m.acceptString("\"")).isTrue();
            assertThat(m.isAccepting()).isTrue();
            return null;
        });
    }

    /** A string bound as one counted terminal: exact at the bounds. */
    @Test void stringLengthsAreExactAtTheBounds() {
        guarded(() -> {
            // neither bound is special to the counter (the oracle is too slow for much longer texts)
            int min = 1_001, max = 6_507;
            checkBounds(schema("{\"type\":\"string\",\"minLength\":" + min + ",\"maxLength\":" + max + "}"), true, "\"", "a", "\"", min, max);
            return null;
        });
    }

    @Test void repeatCountsAreExactAtTheBounds() {
        guarded(() -> {
            // "y" | "yz" is not prefix-free, so not a counted terminal: 16-copy chunks, their count in powers of two
            int min = 1_001, max = 3_003;
            checkBounds(GbnfParser.parse("root ::= \"<\" (\"x\" | \"y\" \"z\"?){" + min + "," + max + "} \">\"\n"), false, "<", "x", ">", min, max);
            return null;
        });
    }

    @Test void itemCountsAreExactAtTheBounds() {
        guarded(() -> {
            int min = 37, max = 1_030; // above the plain count: powers of two
            checkBounds(schema("{\"type\":\"array\",\"items\":{\"const\":1},\"minItems\":" + min + ",\"maxItems\":" + max + "}"), true,
                    "[1", ",1", "]", min - 1, max - 1);
            return null;
        });
    }

    /**
     * A length minimum without a maximum: a token of several characters may reach the minimum at
     * any of them. As min counted copies followed by a {@code x*} terminal, the masks below the
     * minimum forbade ` the` or `ing` whenever the count was within the token's length of min (a
     * silent, too strict mask); one counted terminal whose count stops at min has one end.
     */
    @Test void aMinimumWithoutMaximumIsExactAtEveryCountNearIt() {
        guarded(() -> {
            Grammar g = schema("{\"type\":\"string\",\"minLength\":40}");
            checkEveryCount(g, true, "\"", "a", "\"", 33, 46);
            return null;
        });
    }

    /**
     * The same split reached directly: a counted terminal x{3000} followed by a terminal that may
     * start with x, so a token can end the count at any of its characters. Tokens that reach one
     * group with different copies are checked byte by byte (TreeBuilder), so the masks stay exact.
     */
    @Test void aCountedTerminalFollowedByMoreOfItsBodyIsExact() {
        guarded(() -> {
            // the recursive rest keeps the repeat a parser symbol, and 3,000 copies are too many for one plain terminal
            Grammar g = GbnfParser.parse("root ::= \"<\" [a-z]{3000} rest\nrest ::= \">\" | [a-z ] rest\n");
            Artifact a = GrammarCompiler.compile(g, RuntimeFixturesTest.smallVocabulary(), "counts", "ir", "counts", CompileOptions.defaults().withLazy(true));
            assertThat(java.util.Arrays.stream(RuntimeAccess.of(a).terminals()).anyMatch(t -> t.counted() != null)).as("a counted terminal").isTrue();
            checkEveryCount(g, false, "<", "a", ">", 2993, 3006);
            return null;
        });
    }

    /** Masks agree with the oracle after open + unit×n for every n in [from, to]. */
    static void checkEveryCount(Grammar g, boolean fine, String open, String unit, String close, int from, int to) {
        Vocabulary vocab = RuntimeFixturesTest.smallVocabulary();
        Artifact a = GrammarCompiler.compile(g, vocab, "counts", "ir", "counts", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0).withFineTerminals(fine));
        ByteEarleyOracle oracle = new ByteEarleyOracle(g, vocab);
        int[] stops = vocab.eosIds();
        Matcher m = a.newMatcher();
        ByteEarleyOracle.State s = oracle.advance(oracle.start(), open + unit.repeat(from));
        assertThat(m.acceptString(open + unit.repeat(from))).isTrue();
        for (int n = from; n <= to; n++) {
            if (n > from) {
                s = oracle.advance(s, unit);
                assertThat(m.acceptString(unit)).as("matcher accepts %d", n).isTrue();
            }
            int[] mask = new int[m.bitmaskInts()];
            m.fillNextTokenBitmask(mask, 0);
            BitSet expected = oracle.allowedTokens(s, stops);
            BitSet actual = new BitSet();
            for (int t = 0; t < vocab.size(); t++) if ((mask[t >>> 5] >>> t & 1) != 0) actual.set(t);
            assertThat(actual).as("mask after %d", n).isEqualTo(expected);
        }
    }

    /**
     * open + unit×n + close is a sentence exactly for min ≤ n ≤ max: masks and acceptance agree with the
     * oracle at min - 1, min, max and max + 1 (and the mask right before each close).
     */
    static void checkBounds(Grammar g, boolean fine, String open, String unit, String close, int min, int max) {
        Vocabulary vocab = RuntimeFixturesTest.smallVocabulary();
        Artifact a = GrammarCompiler.compile(g, vocab, "bounds", "ir", "bounds", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0).withFineTerminals(fine));
        ByteEarleyOracle oracle = new ByteEarleyOracle(g, vocab);
        int[] stops = vocab.eosIds();
        Matcher m = a.newMatcher();
        ByteEarleyOracle.State s = oracle.advance(oracle.start(), open);
        assertThat(m.acceptString(open)).isTrue();
        int done = 0;
        for (int n : new int[] {min - 1, min, max, max + 1}) {
            if (n < 0) continue;
            String more = unit.repeat(n - done);
            s = oracle.advance(s, more);
            boolean viable = n <= max;
            assertThat(oracle.isViable(s)).as("oracle viable after %d", n).isEqualTo(viable);
            assertThat(m.acceptString(more)).as("matcher accepts %d", n).isEqualTo(viable);
            if (!viable) break;
            done = n;
            int[] mask = new int[m.bitmaskInts()];
            m.fillNextTokenBitmask(mask, 0);
            BitSet expected = oracle.allowedTokens(s, stops);
            BitSet actual = new BitSet();
            for (int t = 0; t < vocab.size(); t++) if ((mask[t >>> 5] >>> t & 1) != 0) actual.set(t);
            assertThat(actual).as("mask after %d", n).isEqualTo(expected);
            Matcher closing = m.fork();
            ByteEarleyOracle.State closed = oracle.advance(s, close);
            assertThat(oracle.isComplete(closed)).as("oracle complete at %d", n).isEqualTo(n >= min);
            assertThat(closing.acceptString(close) && closing.isAccepting()).as("matcher complete at %d", n).isEqualTo(n >= min);
        }
    }
}
