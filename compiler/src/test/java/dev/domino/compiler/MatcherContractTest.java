package dev.domino.compiler;

import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A refused token leaves the matcher unchanged; bad input puts it in the error state (see MatcherErrorStateTest); SentencePiece byte-fallback vocabularies are exact. */
class MatcherContractTest {
    static Artifact json(Tokenizer tok) {
        return GrammarCompiler.compile(TestGrammars.json(), tok.vocabulary(), "json", "ir", "", CompileOptions.defaults().withLazy(true));
    }

    @Test void badInputIsRejectedWithoutChangingState() {
        Tokenizer tok = VocabularyLoader.load("o200k_base", null);
        Matcher m = json(tok).newMatcher();
        int[] prefix = tok.encode("[1, 2");
        for (int t : prefix) assertThat(m.acceptToken(t)).isTrue();
        int allowedBefore = m.countAllowed();
        assertThat(m.isAllowed(1 << 30)).isFalse(); // a query: no error state
        assertThat(m.isError()).isFalse();
        assertThatThrownBy(() -> m.rollback(prefix.length + 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only " + prefix.length);
        assertThat(m.acceptToken(tok.encode("}")[0])).isFalse();
        int eos = tok.vocabulary().eosIds()[0];
        assertThat(m.acceptToken(eos)).isFalse(); // not a complete sentence yet
        assertThat(m.committedTokens()).isEqualTo(prefix.length);
        assertThat(m.countAllowed()).isEqualTo(allowedBefore);

        for (int t : tok.encode("]")) assertThat(m.acceptToken(t)).isTrue();
        assertThat(m.acceptToken(eos)).isTrue();
        assertThat(m.isTerminated()).isTrue();
        assertThat(m.countAllowed()).isZero();
        m.rollback(1);
        assertThat(m.isTerminated()).isFalse();
        assertThat(m.isAccepting()).isTrue();
        Matcher fork = m.fork();
        m.reset();
        assertThat(m.committedTokens()).isZero();
        assertThat(fork.isAccepting()).isTrue();
    }

    @Test void sentencePieceByteFallbackMatchesOracle() throws Exception {
        Path fixture = Path.of(getClass().getResource("/vocab/tiny-sentencepiece-tokenizer.json").toURI());
        Tokenizer tok = VocabularyLoader.load(fixture.toString(), null);
        Vocabulary v = tok.vocabulary();
        Artifact a = json(tok);
        ByteEarleyOracle oracle = new ByteEarleyOracle(TestGrammars.json());
        // "—" (E2 80 94) and "é" arrive one byte per <0xNN> token
        byte[] text = "[\"a—é\", 1]".getBytes(StandardCharsets.UTF_8);
        Matcher m = a.newMatcher();
        ByteEarleyOracle.State state = oracle.start();
        for (byte b : text) {
            BitSet mask = m.nextTokenMask();
            for (int t = 0; t < v.size(); t++) {
                boolean expected = v.isGrammarToken(t) && oracle.isViable(oracle.advance(state, v.bytes(t)));
                if (v.isEos(t)) expected = oracle.isComplete(state);
                assertThat(mask.get(t)).as("token %d '%s' after %d bytes", t, v.display(t), state.position()).isEqualTo(expected);
            }
            int byteToken = -1;
            for (int t = 0; t < v.size(); t++) if (v.bytes(t).length == 1 && v.bytes(t)[0] == b && !v.isSpecial(t)) byteToken = t;
            assertThat(byteToken).isNotNegative();
            assertThat(m.acceptToken(byteToken)).isTrue();
            state = oracle.advance(state, new byte[] {b});
        }
        assertThat(m.isAccepting()).isTrue();
    }
}
