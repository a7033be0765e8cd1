package dev.domino.compiler;

import dev.domino.runtime.*;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.trees.*;
import dev.domino.runtime.internal.vocab.*;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tree a builder takes from an earlier state with the same future (same terminal walk, same
 * followers; see TreeBuilder.SameFuture) must equal the tree built from scratch for that state.
 */
class TreeSharingTest {
    static final String SCHEMA = """
            {"type": "object",
             "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}}},
                            "b": {"type": "object", "properties": {"x": {"type": "string"}, "z": {"type": "boolean"}}},
                            "c": {"type": "array", "items": {"type": "string", "maxLength": 3}},
                            "d": {"type": "string", "enum": ["on", "off"]}},
             "required": ["a"]}
            """;

    @Test void sharedTreesEqualFreshBuilds() {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        GrammarSources.Parsed parsed = GrammarSources.parse(SCHEMA, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
        Artifact a = GrammarCompiler.compile(parsed.grammar(), vocab, "sharing.json", "json-schema", SCHEMA,
                parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
        ArtifactInternals in = RuntimeAccess.of(a);
        VocabTrie trie = VocabTrie.of(vocab);
        TreeBuilder sharing = new TreeBuilder(in.terminals(), in.follow(), in.first(), trie, 32, vocab.size());
        int checked = 0;
        for (int q = 0; q < in.scannerStateCount(); q++) {
            int c = in.canonicalState(q);
            if (c != q) continue;
            int t = in.stateTerminal(q), s = in.stateLocal(q);
            TokenTree fresh = new TreeBuilder(in.terminals(), in.follow(), in.first(), trie, 32, vocab.size()).build(t, s);
            assertThat(describe(sharing.build(t, s))).as(in.stateName(q)).isEqualTo(describe(fresh));
            checked++;
        }
        assertThat(checked).isGreaterThan(50);
        assertThat(sharing.sharedTrees()).as("states sharing a tree").isGreaterThan(10);
    }

    /** Every node's edges and groups (terminals and token ids) and the dynamic tokens, as text. */
    static String describe(TokenTree tree) {
        StringBuilder b = new StringBuilder();
        for (int n = 0; n < tree.nodeCount(); n++) {
            b.append(n).append(':');
            for (int e = tree.firstEdge(n); e < tree.endEdge(n); e++) b.append(" e").append(tree.edgeTerminal(e)).append('>').append(tree.edgeChild(e));
            for (int g = tree.firstGroup(n); g < tree.endGroup(n); g++) {
                b.append(" g").append(Arrays.toString(tree.groupTerminals(g))).append(Arrays.toString(tree.groupTokens(g).toArray()));
            }
            b.append('\n');
        }
        return b.append("dynamic ").append(Arrays.toString(tree.dynamicTokens())).toString();
    }
}
