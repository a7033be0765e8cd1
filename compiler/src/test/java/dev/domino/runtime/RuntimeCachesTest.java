package dev.domino.runtime;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.diagnostics.*;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The caches a server sees: sizes after lazy trees are built, bounds, clearing. */
class RuntimeCachesTest {
    @Test void measuredBoundedAndClearable() {
        var vocab = VocabularyLoader.load("o200k_base", null).vocabulary();
        var g = JsonSchemaGrammar.from("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}").grammar();
        Artifact a = GrammarCompiler.compile(g, vocab, "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        Matcher m = a.newMatcher();
        assertThat(m.acceptString("{\"a\": \"x")).isTrue();
        assertThat(m.countAllowed()).isGreaterThan(1000);
        assertThat(RuntimeCaches.sizeBytes()).isGreaterThan(0);
        assertThat(RuntimeCaches.caches()).extracting(RuntimeCaches.CacheInfo::name).contains("vocabulary tries", "terminal walks");
        assertThatThrownBy(() -> RuntimeCaches.setMaxBytes("no such cache", 1)).isInstanceOf(IllegalArgumentException.class);
        RuntimeCaches.clear();
        assertThat(RuntimeCaches.sizeBytes()).isZero();
        assertThat(m.countAllowed()).as("an artifact keeps working after a clear").isGreaterThan(1000);
        assertThat(a.sharedParserStateBytes()).isGreaterThan(0);
        a.clearSharedParserStates();
        assertThat(a.sharedParserStateBytes()).isZero();
        VocabTrie.of(vocab); // warm again for the tests after this one (their compile budgets assume a built trie)
    }
}
