package dev.domino.cli;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Opportunistic masking must give exactly the full mask's answer: isAllowed(t) == mask bit of t
 * for every token of o200k_base, at many states (prefixes of sampled, real and mutated outputs),
 * and tryAcceptToken commits exactly the allowed tokens.
 */
class OpportunisticMaskingTest {
    @Test void isAllowedEqualsMaskBitOnJson() throws Exception {
        Artifact a = SpeculationFixtures.artifact("json.gbnf");
        Tokenizer tok = SpeculationFixtures.o200k();
        SentenceSampler sampler = new SentenceSampler(GbnfParser.parse(SpeculationFixtures.resource("json.gbnf"))).maxLength(60);
        Random random = new Random(7);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 4; i++) texts.add(sampler.sample(random));
        texts.add("{\"name\": \"Jo\\u00e9 — 中\", \"tags\": [1, -2.5e3, true, null], \"nested\": {\"x\": []}}\n");
        texts.add(Corpus.readFile(SpeculationFixtures.resourcePath("instance.json")).get(0));
        for (int i = 0; i < 3; i++) texts.add(SentenceSampler.mutate(texts.get(i), random));
        int states = 0;
        for (String text : texts) {
            Matcher m = a.newMatcher();
            int[] tokens = tok.encode(text);
            int stride = Math.max(1, tokens.length / 6); // ~6 states per text, spread over it
            for (int i = 0; i <= tokens.length; i++) {
                if (i % stride == 0 || i == tokens.length) { assertAgrees(m, tok.vocabulary()); states++; }
                if (i == tokens.length || !m.tryAcceptToken(tokens[i])) break;
            }
        }
        assertThat(states).isGreaterThanOrEqualTo(30);
    }

    @Test void tryAcceptTokenCommitsOnlyAllowedTokens() throws Exception {
        Artifact a = SpeculationFixtures.artifact("json.gbnf");
        Tokenizer tok = SpeculationFixtures.o200k();
        Matcher m = a.newMatcher();
        for (int t : tok.encode("{\"a\": [1, ")) assertThat(m.tryAcceptToken(t)).isTrue();
        int depth = m.committedTokens();
        int bad = tok.encode("}")[0];
        assertThat(m.isAllowed(bad)).isFalse();
        assertThat(m.tryAcceptToken(bad)).isFalse();
        assertThat(m.committedTokens()).isEqualTo(depth);
        BitSet mask = m.nextTokenMask();
        assertThat(mask.get(bad)).isFalse();
        int good = tok.encode("true")[0];
        assertThat(mask.get(good)).isTrue();
        assertThat(m.tryAcceptToken(good)).isTrue();
        assertThat(m.committedTokens()).isEqualTo(depth + 1);
    }

    static void assertAgrees(Matcher m, Vocabulary v) {
        BitSet mask = m.nextTokenMask();
        for (int t = 0; t < v.size(); t++) {
            boolean opportunistic = m.isAllowed(t);
            if (opportunistic != mask.get(t)) {
                throw new AssertionError("token " + t + " '" + v.display(t) + "': mask=" + mask.get(t) + " isAllowed=" + opportunistic);
            }
        }
    }
}
