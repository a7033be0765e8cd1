package dev.domino.runtime;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.diagnostics.*;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parser states are shared per generation (see {@link EarleyParser}): matchers of different
 * generations give the same masks, and after the requests end the artifact keeps only the
 * current generation's states, however many requests ran.
 */
class ParserGenerationsTest {
    @Test void generationsKeepMasksAndBoundTheStatesKept() {
        Grammar g = JsonSchemaGrammar.from("""
                {"type": "array", "items": {"type": "object", "properties": {
                   "name": {"type": "string"}, "n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
                 "required": ["name"]}}""").grammar();
        Tokenizer o200k = VocabularyLoader.load("o200k_base", null);
        Artifact shared = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        Artifact fresh = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        shared.parser.setSharedBytes(Long.MAX_VALUE); // one generation for the artifact's lifetime
        fresh.parser.setSharedBytes(0);               // a fresh generation for every matcher
        SentenceSampler sampler = new SentenceSampler(g).maxLength(120);
        Random random = new Random(7);
        int[] a = new int[shared.newMatcher().bitmaskInts()], b = new int[a.length];
        for (int request = 0; request < 60; request++) {
            int[] tokens = o200k.encode(sampler.sample(random));
            Matcher ms = shared.newMatcher(), mf = fresh.newMatcher();
            for (int tok : tokens) {
                ms.fillNextTokenBitmask(a, 0);
                mf.fillNextTokenBitmask(b, 0);
                assertThat(b).isEqualTo(a);
                assertThat(ms.acceptToken(tok)).isTrue();
                assertThat(mf.acceptToken(tok)).isTrue();
            }
            assertThat(mf.isAccepting()).isTrue();
        }
        long keptShared = MatcherStats.reachableParserStates(shared, List.of());
        long keptFresh = MatcherStats.reachableParserStates(fresh, List.of());
        assertThat(keptShared).isGreaterThan(1000);
        assertThat(keptFresh).as("states kept after the requests").isLessThan(keptShared / 10);
        fresh.parser.clearSharedStates();
        assertThat(MatcherStats.reachableParserStates(fresh, List.of())).isEqualTo(1);
    }
}
