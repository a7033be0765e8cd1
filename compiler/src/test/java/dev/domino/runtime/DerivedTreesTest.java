package dev.domino.runtime;

import dev.domino.runtime.internal.*;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.FrontEndOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tree derived from a loop state's tree (TreeBuilder.derived: the key complement's states along
 * a declared key's prefix) must say what the state's own walk says: per path of ended terminals
 * and per terminal, the same tokens; the same root references and dynamic tokens.
 */
class DerivedTreesTest {
    static final String SCHEMA = """
            {"type": "object",
             "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string", "enum": ["Pod", "Service"]},
                            "apiGroup": {"type": "integer"}, "metadata": {"type": "object",
                                "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}},
                                "additionalProperties": {"type": "boolean"}}},
             "additionalProperties": {"type": "integer"}}
            """;

    @Test void derivedTreesSayWhatTheirOwnWalksSay() {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        GrammarSources.Parsed parsed = GrammarSources.parse(SCHEMA, SourceFormat.JSON_SCHEMA, FrontEndOptions.defaults());
        Artifact a = GrammarCompiler.compile(parsed.grammar(), vocab, "derived.json", "json-schema", SCHEMA,
                parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
        ArtifactInternals in = RuntimeAccess.of(a);
        VocabTrie trie = VocabTrie.of(vocab);
        TreeBuilder deriving = new TreeBuilder(in.terminals(), in.follow(), in.first(), trie, 32, vocab.size());
        TreeBuilder walking = new TreeBuilder(in.terminals(), in.follow(), in.first(), trie, 32, vocab.size(), false);
        int checked = 0;
        for (int q = 0; q < in.scannerStateCount(); q++) {
            if (in.canonicalState(q) != q) continue;
            int t = in.stateTerminal(q), s = in.stateLocal(q);
            TokenTree derived = deriving.build(t, s);
            TokenTree walked = walking.build(t, s);
            assertThat(meaning(derived)).as(in.stateName(q)).isEqualTo(meaning(walked));
            checked++;
        }
        assertThat(checked).isGreaterThan(50);
        assertThat(deriving.derivedTrees()).as("trees derived").isGreaterThan(10);
        assertThat(walking.derivedTrees()).isZero();
    }

    /** Per path of ended terminals: per terminal its tokens, and the root references; then the dynamic tokens. */
    static String meaning(TokenTree tree) {
        Map<String, TreeSet<Integer>> byPlace = new TreeMap<>();
        describe(tree, 0, new ArrayList<>(), byPlace);
        TreeSet<Integer> dynamic = new TreeSet<>();
        for (int id : tree.dynamicTokens()) dynamic.add(id);
        return byPlace + " dynamic " + dynamic;
    }

    private static void describe(TokenTree tree, int node, List<Integer> path, Map<String, TreeSet<Integer>> out) {
        for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) {
            for (int t : tree.groupTerminals(g)) {
                TreeSet<Integer> ids = out.computeIfAbsent(path + " in " + t, k -> new TreeSet<>());
                for (int id : tree.groupTokens(g).toArray()) ids.add(id);
            }
        }
        for (int r = tree.firstRoot(node); r < tree.endRoot(node); r++) {
            out.computeIfAbsent(path + " root", k -> new TreeSet<>()).add(tree.rootTerminal(r));
        }
        for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
            List<Integer> longer = new ArrayList<>(path);
            longer.add(tree.edgeTerminal(e));
            describe(tree, tree.edgeChild(e), longer, out);
        }
    }
}
