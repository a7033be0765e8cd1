package dev.domino.compiler;

import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;
import dev.domino.runtime.internal.scan.Terminal;
import dev.domino.runtime.internal.trees.CountedWalk;
import dev.domino.runtime.internal.trees.TerminalWalks;
import dev.domino.runtime.internal.vocab.VocabTrie;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A counted walk (loop subtrees by depth, ends kept per node and found per byte on demand) must equal the plain
 * reference: every trie node stepped, every token with the largest need on its path, every end child edge with its
 * copies and need.
 */
class CountedWalkTest {
    static final String SCHEMA = """
            {"type": "object",
             "properties": {"name": {"type": "string", "minLength": 2, "maxLength": 40},
                            "code": {"type": "string", "maxLength": 5},
                            "word": {"type": "string", "pattern": "^[a-z0-9_]*$", "minLength": 1, "maxLength": 12},
                            "tail": {"type": "string", "pattern": "^(ab|a|\\\\d{2})+$", "maxLength": 9},
                            "min": {"type": "string", "minLength": 3}},
             "required": ["name"]}
            """;

    @Test void countedWalksEqualThePlainReference() {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        GrammarSources.Parsed parsed = GrammarSources.parse(SCHEMA, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
        Artifact a = GrammarCompiler.compile(parsed.grammar(), vocab, "counted.json", "json-schema", SCHEMA,
                parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
        VocabTrie trie = VocabTrie.of(vocab);
        TerminalWalks walks = new TerminalWalks(trie); // fresh: nothing cached from other tests
        int checked = 0, big = 0;
        for (Terminal t : RuntimeAccess.of(a).terminals()) {
            CountedLoop counted = t.counted();
            if (counted == null) continue;
            ByteDfa loop = t.dfa();
            for (int s = 0; s < loop.stateCount(); s++) {
                CountedWalk w = walks.counted(loop, counted, s, vocab.size());
                Reference ref = new Reference(trie, loop, counted, s, vocab.size());
                String where = t.name() + " state " + s;
                for (int room = -1; room <= ref.maxNeed + 1; room++) {
                    int[] mask = new int[(vocab.size() + 31) / 32 + 2];
                    w.orTokensWithin(room, mask, 1);
                    assertThat(mask).as(where + " room " + room).isEqualTo(ref.mask(room, mask.length));
                }
                for (int b = 0; b < 256; b++) {
                    assertThat(sortedTriples(w.ends(b))).as(where + " ends by byte " + b).isEqualTo(ref.ends(b));
                }
                checked++;
                if (ref.tokens > vocab.size() / 2) big++;
            }
        }
        assertThat(checked).isGreaterThan(20);
        assertThat(big).as("loop states that keep most of the vocabulary").isGreaterThanOrEqualTo(2);
    }

    private static List<String> sortedTriples(int[] t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.length; i += 3) out.add(t[i] + "/" + t[i + 1] + "/" + t[i + 2]);
        out.sort(null);
        return out;
    }

    /** The walk node by node, as CountedLoop#step counts: each token with its need, each end child edge. */
    private static final class Reference {
        final int[] needOf;
        int maxNeed, tokens;
        final List<List<String>> endsByByte = new ArrayList<>();

        Reference(VocabTrie trie, ByteDfa loop, CountedLoop counted, int s, int vocabSize) {
            needOf = new int[vocabSize];
            Arrays.fill(needOf, -1);
            for (int b = 0; b < 256; b++) endsByByte.add(new ArrayList<>());
            walk(trie, loop, counted, 0, s, 0, counted.unitsToFinish(s));
            for (List<String> l : endsByByte) l.sort(null);
        }

        private void walk(VocabTrie trie, ByteDfa loop, CountedLoop counted, int n, int q, int k, int need) {
            if (n != 0) {
                for (int i = trie.tokenStart(n); i < trie.tokenEnd(n); i++) { needOf[trie.token(i)] = need; tokens++; }
                maxNeed = Math.max(maxNeed, need);
            }
            if (n != 0 && loop.isAccepting(q)) {
                int ended = k + counted.finalWeight(q);
                for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                    endsByByte.get(trie.childByte(c)).add(trie.childNode(c) + "/" + ended + "/" + Math.max(need, ended));
                }
            }
            int k2 = counted.startsCopy(q) ? k + 1 : k;
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int q2 = loop.step(q, trie.childByte(c));
                if (q2 >= 0) walk(trie, loop, counted, trie.childNode(c), q2, k2, Math.max(need, k2 + counted.unitsToFinish(q2)));
            }
        }

        int[] mask(int room, int length) {
            int[] m = new int[length];
            for (int id = 0; id < needOf.length; id++) if (needOf[id] >= 0 && needOf[id] <= room) m[1 + (id >>> 5)] |= 1 << id;
            return m;
        }

        List<String> ends(int b) { return endsByByte.get(b); }
    }
}
