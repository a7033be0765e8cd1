package dev.domino.compiler;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decode path never throws: bad token ids, tokens after EOS and tokens {@code consumeToken}
 * may not commit put the matcher in a sticky error state whose mask allows EOS only.
 */
class MatcherErrorStateTest {
    static Tokenizer tok;
    static Artifact json;

    @BeforeAll static void load() {
        tok = VocabularyLoader.load("o200k_base", null);
        json = MatcherContractTest.json(tok);
    }

    private static Matcher after(String prefix) {
        Matcher m = json.newMatcher();
        for (int t : tok.encode(prefix)) assertThat(m.acceptToken(t)).isTrue();
        return m;
    }

    private static void assertEosOnly(Matcher m) {
        BitSet mask = m.nextTokenMask();
        BitSet eos = new BitSet();
        for (int e : json.vocabulary().eosIds()) eos.set(e);
        assertThat(mask).isEqualTo(eos);
        int[] bitmask = new int[m.bitmaskInts()];
        m.fillNextTokenBitmask(bitmask, 0);
        assertThat(BitSet.valueOf(java.util.Arrays.stream(bitmask).asLongStream().map(i -> i & 0xFFFFFFFFL).toArray()).cardinality())
                .isEqualTo(eos.cardinality());
    }

    @Test void acceptTokenKeepsItsContract() {
        Matcher m = after("[1, 2");
        int allowed = m.countAllowed();
        assertThat(m.acceptToken(tok.encode("}")[0])).isFalse(); // refused: state unchanged, no error
        assertThat(m.isError()).isFalse();
        assertThat(m.countAllowed()).isEqualTo(allowed);
    }

    @Test void tokenOutsideTheVocabulary() {
        for (int bad : new int[] {-1, json.vocabulary().size(), Integer.MAX_VALUE}) {
            Matcher m = after("[1, 2");
            assertThat(m.acceptToken(bad)).isFalse();
            assertThat(m.isError()).isTrue();
            assertThat(m.errorReason()).contains("outside the vocabulary").contains(Integer.toString(bad));
            assertEosOnly(m);
            assertThat(m.isAccepting()).isFalse();
            assertThat(m.forcedBytes()).isEmpty();
        }
    }

    @Test void consumeTokenOfADisallowedTokenIsSticky() {
        Matcher m = after("[1, 2");
        int brace = tok.encode("}")[0];
        assertThat(m.consumeToken(brace)).isFalse();
        assertThat(m.errorReason()).contains("not allowed").contains("after " + tok.encode("[1, 2").length + " committed tokens");
        assertEosOnly(m);
        // sticky: allowed tokens and fork keep it
        assertThat(m.acceptToken(tok.encode("]")[0])).isFalse();
        assertThat(m.isAllowed(tok.encode("]")[0])).isFalse();
        Matcher fork = m.fork();
        assertThat(fork.isError()).isTrue();
        // EOS ends the output
        int eos = json.vocabulary().eosIds()[0];
        assertThat(fork.isAllowed(eos)).isTrue();
        assertThat(fork.acceptToken(eos)).isTrue();
        assertThat(fork.isTerminated()).isTrue();
        // reset clears it
        fork.reset();
        assertThat(fork.isError()).isFalse();
        assertThat(fork.consumeToken(tok.encode("[")[0])).isTrue();
    }

    /** A speculative decoder sends drafts through consumeToken; a refused draft is undone by rolling back. */
    @Test void rollbackClearsAnErrorARefusedTokenCaused() {
        Matcher m = after("[1, 2");
        java.util.BitSet before = m.nextTokenMask();
        int[] drafts = {tok.encode("]")[0], tok.encode("}")[0]};
        assertThat(m.consumeToken(drafts[0])).isTrue();
        assertThat(m.consumeToken(drafts[1])).isFalse();
        assertThat(m.isError()).isTrue();
        m.rollback(1); // the accepted draft; the refused one was never committed
        assertThat(m.isError()).isFalse();
        assertThat(m.nextTokenMask()).isEqualTo(before);
        assertThat(m.consumeToken(tok.encode("]")[0])).isTrue();
        // rollback(0) forgets a refusal too
        Matcher n = after("[1");
        assertThat(n.consumeToken(tok.encode("}")[0])).isFalse();
        n.rollback(0);
        assertThat(n.isError()).isFalse();
        // an error the server set stays
        Matcher s = after("[1");
        s.setError("vocabulary mismatch");
        s.rollback(1);
        assertThat(s.isError()).isTrue();
    }

    @Test void withoutStopTokensTheErrorMaskIsAllZeros() {
        Matcher m = json.newMatcher(new int[0]);
        assertThat(m.consumeToken(tok.encode("}")[0])).isFalse();
        assertThat(m.countAllowed()).isZero();
        assertThat(m.nextTokenMask().isEmpty()).isTrue();
        assertThat(m.errorReason()).contains("no stop tokens").contains("allows no token");
    }

    @Test void tokenAfterEos() {
        Matcher m = after("[1]");
        int eos = json.vocabulary().eosIds()[0];
        assertThat(m.consumeToken(eos)).isTrue();
        assertThat(m.acceptToken(tok.encode("1")[0])).isFalse();
        assertThat(m.errorReason()).contains("terminated");
        assertThat(m.countAllowed()).isZero(); // terminated: nothing more
    }

    @Test void serverSetsAnError() {
        Matcher m = after("[");
        m.setError("artifact compiled for another vocabulary");
        m.setError("second reason is ignored");
        assertThat(m.errorReason()).isEqualTo("artifact compiled for another vocabulary");
        assertEosOnly(m);
    }
}
