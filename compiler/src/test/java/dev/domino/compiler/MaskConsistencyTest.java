package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tree walk (full mask) must agree with byte-by-byte stepping (isAllowed) on every token,
 * and canonical tokenizations of valid texts must be accepted token by token.
 */
class MaskConsistencyTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    static Artifact compile(Grammar g) {
        return GrammarCompiler.compile(g, o200k.vocabulary(), "test", "ir", "test", CompileOptions.defaults());
    }

    static void checkText(Artifact a, String text, boolean complete) {
        Matcher m = a.newMatcher();
        int[] tokens = o200k.encode(text);
        for (int i = 0; i < tokens.length; i++) {
            assertMaskMatchesStepping(m);
            assertThat(m.isAllowed(tokens[i])).as("token %d '%s' of %s", i, o200k.vocabulary().display(tokens[i]), text).isTrue();
            assertThat(m.acceptToken(tokens[i])).isTrue();
        }
        assertMaskMatchesStepping(m);
        assertThat(m.isAccepting()).as("complete: %s", text).isEqualTo(complete);
    }

    static void assertMaskMatchesStepping(Matcher m) {
        BitSet mask = m.nextTokenMask();
        Vocabulary v = o200k.vocabulary();
        for (int t = 0; t < v.size(); t++) {
            if (mask.get(t) != m.isAllowed(t)) {
                throw new AssertionError("token " + t + " '" + v.display(t) + "': mask=" + mask.get(t) + " stepping=" + m.isAllowed(t));
            }
        }
    }

    @Test void json() throws Exception {
        Artifact a = compile(TestGrammars.json());
        checkText(a, "{\"a\": [1, 2.5e3, true, null], \"b\": {\"c\": \"x\\u00e9y\"}}", true);
        checkText(a, "[ \"é—中😀\" ,\n  -0.5 ]", true);
        checkText(a, "{\"key\": \"val", false);
        // round trip through the artifact format
        Artifact b = ArtifactFormat.read(new java.io.ByteArrayInputStream(ArtifactFormat.toBytes(a)));
        checkText(b, "{\"a\": [1, 2]}", true);
        assertThat(ArtifactFormat.toBytes(b)).isEqualTo(ArtifactFormat.toBytes(a));
    }

    @Test void ambiguous() {
        Artifact a = compile(TestGrammars.ambiguousExpr());
        checkText(a, "(abc+12)*x+y*(z)", true);
        checkText(a, "(abc+12", false);
    }

    @Test void wordSoup() {
        Artifact a = compile(TestGrammars.wordSoup());
        checkText(a, "if the quick brown fox iffy", true);
    }
}
