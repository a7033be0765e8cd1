package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
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
        String old = System.getProperty("domino.limit.repeat-count");
        System.setProperty("domino.limit.repeat-count", "2000000000");
        try {
            guarded(() -> {
                assertThat(nonterminals(schema("{\"type\":\"string\",\"minLength\":5,\"maxLength\":1000000000}"))).isLessThan(150);
                assertThat(nonterminals(GbnfParser.parse("root ::= \"x\"{0,999999999}\n"))).isLessThan(150);
                assertThat(nonterminals(schema("{\"type\":\"array\",\"maxItems\":2000000000}"))).isLessThan(150);
                return null;
            });
        } finally {
            if (old == null) System.clearProperty("domino.limit.repeat-count"); else System.setProperty("domino.limit.repeat-count", old);
        }
    }

    /** A string bound past what one counted terminal holds: chunks, their count in powers of two, a cut tail. */
    @Test void stringLengthsAreExactAtTheBounds() {
        guarded(() -> {
            // 6,507 characters are past one counted terminal (21 loop states × 6,508 counts > 2^17 scanner states);
            // neither bound is a multiple of the 16-copy chunk (the oracle is too slow for much longer texts)
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
