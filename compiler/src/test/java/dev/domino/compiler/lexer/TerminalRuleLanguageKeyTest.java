package dev.domino.compiler.lexer;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.RuntimeCaches;
import dev.domino.runtime.internal.format.ArtifactFormat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A terminal made of a reference to a regular rule is kept per process under the rule's
 * reference-free body ({@link LanguageCache}): another grammar (another schema) with the same body
 * under another name finds it, and its artifact is byte for byte the one a fresh process compiles.
 */
class TerminalRuleLanguageKeyTest {
    /** Open values: the generic JSON value's rules, json_string among them, referenced as whole terminals. */
    static final String FIRST = "{\"type\": \"object\", \"properties\": {\"a\": {}}, \"required\": [\"a\"]}";
    static final String SECOND = "{\"type\": \"array\", \"items\": {}, \"minItems\": 2}";

    private final DominoCompiler compiler = DominoCompiler.forVocabulary(VocabularyLoader.load("o200k_base", null).vocabulary());
    private final CompileOptions options = CompileOptions.builder().threads(1).build();

    private byte[] compile(String grammar) {
        Artifact a = compiler.compile(grammar, SourceFormat.JSON_SCHEMA, options);
        return ArtifactFormat.toBytes(a);
    }

    private static Expr rule(String grammar, String name) {
        return DominoCompiler.parse("grammar", grammar, SourceFormat.JSON_SCHEMA, CompileOptions.builder().build())
                .parsed().grammar().rules().get(name);
    }

    @Test void aRuleTerminalIsKeptUnderItsBodyAndFoundByAnotherGrammar() {
        RuntimeCaches.clear();
        byte[] secondFresh = compile(SECOND);
        RuntimeCaches.clear();
        compile(FIRST);
        Expr body = rule(FIRST, "json_string");
        assertThat(body).isNotNull().isNotInstanceOf(Expr.Ref.class);
        assertThat(LanguageCache.get(body)).as("the rule's language under its body").isNotNull();
        // from the cache the first grammar filled
        assertThat(compile(SECOND)).isEqualTo(secondFresh);
        assertThat(compile(FIRST)).isEqualTo(compile(FIRST));
    }
}
