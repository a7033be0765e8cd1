package dev.domino.compiler;

import dev.domino.runtime.*;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.format.*;
import dev.domino.runtime.internal.trees.*;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Root references (see TokenTree): an eager artifact stores every root tree its trees reference,
 * the file keeps them, and masks through them equal those of a lazy artifact that builds them on
 * first use.
 */
class RootTreesTest {
    /** Terminals entered at the token's first byte after "x", "," or ";": three wide ones (referenced), a narrow one. */
    static final String GRAMMAR = """
            start: "x" item ("," item)* ";" WORD
            item: WORD | CAPS | SPACED | NUMBER
            WORD: /[a-z]+/
            CAPS: /[A-Z][A-Za-z]*/
            SPACED: /[ a-z]+[.]/
            NUMBER: /[0-9]+/
            """;

    @Test void eagerArtifactsStoreTheRootTreesTheirTreesReference() throws Exception {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        GrammarSources.Parsed parsed = GrammarSources.parse(GRAMMAR, SourceFormat.LARK, JsonSchemaOptions.defaults());
        Artifact eager = GrammarCompiler.compile(parsed.grammar(), vocab, "roots.lark", "lark", GRAMMAR,
                parsed.applyTo(CompileOptions.defaults()).withLazy(false));
        Artifact lazy = GrammarCompiler.compile(parsed.grammar(), vocab, "roots.lark", "lark", GRAMMAR,
                parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
        ArtifactInternals in = RuntimeAccess.of(eager);
        int references = 0;
        for (TokenTree t : in.storedTrees()) {
            for (int r = 0; r < t.rootReferenceCount(); r++) {
                references++;
                assertThat(in.storedRootTreeIndex()[t.rootTerminal(r)]).as("root tree of %s stored", in.terminal(t.rootTerminal(r)).name())
                        .isNotNegative();
            }
        }
        assertThat(references).as("root references").isGreaterThan(0);

        Artifact loaded = Artifact.load(new ByteArrayInputStream(dev.domino.runtime.internal.format.ArtifactFormat.toBytes(eager)));
        assertThat(RuntimeAccess.of(loaded).storedRootTreeIndex()).isEqualTo(in.storedRootTreeIndex());
        Random random = new Random(7);
        for (int output = 0; output < 30; output++) {
            Matcher[] m = {eager.newMatcher(), loaded.newMatcher(), lazy.newMatcher()};
            int[][] masks = new int[3][m[0].bitmaskInts()];
            for (int step = 0; step < 30 && !m[0].isTerminated(); step++) {
                for (int i = 0; i < 3; i++) m[i].fillNextTokenBitmask(masks[i], 0);
                assertThat(masks[1]).as("output %d step %d: loaded", output, step).isEqualTo(masks[0]);
                assertThat(masks[2]).as("output %d step %d: lazy", output, step).isEqualTo(masks[0]);
                int token = randomAllowed(masks[0], random);
                for (Matcher x : m) assertThat(x.acceptToken(token)).isTrue();
            }
        }
    }

    static int randomAllowed(int[] mask, Random random) {
        int count = 0;
        for (int w : mask) count += Integer.bitCount(w);
        int pick = random.nextInt(count);
        for (int i = 0; i < mask.length * 32; i++) {
            if ((mask[i >>> 5] & (1 << i)) != 0 && pick-- == 0) return i;
        }
        throw new AssertionError("empty mask");
    }
}
