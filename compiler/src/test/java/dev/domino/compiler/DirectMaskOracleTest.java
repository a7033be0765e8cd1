package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.BackgroundBuild;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.trees.BuildBudget;
import dev.domino.runtime.internal.trees.TreeDemand;
import dev.domino.runtime.internal.trees.SameRootedTrees;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Masks without trees ({@code DirectMask}) three ways at random prefixes of sampled and mutated
 * sentences: the tree-free walk alone (every configuration, stored trees ignored), lazy trees
 * (built on first use, or after a few direct uses) and eager trees must give the same mask, and
 * that mask must be the byte-level Earley oracle's (every allowed token viable, every viable token
 * of a random sample allowed). Also at lookahead k = 0 and 1 (tree-free against eager trees), and
 * with several threads sharing one lazy artifact, trees built by masks or in the background.
 */
class DirectMaskOracleTest {
    static Tokenizer o200k;
    /** Every how many compared prefixes the (slow) oracle checks the mask too. */
    static final int ORACLE_EVERY = LongTests.scale(3, 1);

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    @Test void json() { check(TestGrammars.json(), CompileOptions.defaults(), LongTests.scale(8, 30), 101); }

    @Test void ambiguousLexing() {
        check(TestGrammars.wordSoup(), CompileOptions.defaults(), LongTests.scale(6, 20), 102);
        check(TestGrammars.ambiguousExpr(), CompileOptions.defaults(), LongTests.scale(6, 20), 103);
    }

    @Test void gbnfWithAmbiguousLexing() {
        Grammar g = GbnfParser.parse("""
                root ::= item (" " item)*
                item ::= word | word "-" word | num
                word ::= [a-z]+ | [a-z]+ "s"
                num ::= [0-9]+ ("." [0-9]+)?
                """);
        check(g, CompileOptions.defaults(), LongTests.scale(8, 30), 104);
    }

    @Test void schemaWithCountedStringsPatternsAndEnums() {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 60; i++) big.append(i == 0 ? "" : ", ").append("\"v").append(i * 7919 % 1000).append("x").append(i).append('"');
        String schema = """
                {"type": "object", "properties": {
                   "name": {"type": "string", "minLength": 2, "maxLength": 40},
                   "code": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3,5}$"},
                   "long": {"type": "string", "minLength": 3, "maxLength": 60},
                   "min": {"type": "string", "minLength": 24},
                   "kind": {"enum": [%s]},
                   "tags": {"type": "array", "items": {"type": "string", "maxLength": 6}, "maxItems": 4},
                   "n": {"type": "integer"}},
                 "required": ["name"], "additionalProperties": {"type": "string"}}""".formatted(big);
        Grammar g = JsonSchemaGrammar.from(schema).grammar();
        check(g, CompileOptions.defaults().withFineTerminals(true), LongTests.scale(5, 20), 105);
    }

    /**
     * Objects whose other keys are free ("any key but these", declared keys sharing prefixes): walks
     * of every key prefix state share the free string's walk below each trie node, and its ends by
     * reference (TerminalWalks.Ends).
     */
    @Test void schemaKeyComplementsWithSharedPrefixes() {
        String schema = """
                {"type": "object", "properties": {
                   "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "api": {"type": "integer"},
                   "metadata": {"type": "object", "properties": {
                       "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
                       "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                       "name": {"type": "string"}, "namespace": {"type": "string"}},
                     "additionalProperties": {"type": "integer"}},
                   "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}, "selector": {"type": "string"},
                       "kindOf": {"type": "boolean"}}, "additionalProperties": {"type": "string", "maxLength": 8}}},
                 "required": ["kind"], "additionalProperties": {"type": "boolean"}}""";
        check(JsonSchemaGrammar.from(schema).grammar(), CompileOptions.defaults(), LongTests.scale(6, 20), 107);
    }

    /**
     * Objects of a oneOf told apart only by a key that may come last, sharing keys whose values differ
     * (a number here, a union, an array or an object there): inside a key every branch's key terminal is
     * live on one parser state, their trees hold mostly the same tokens, and a tree walk skips the edges
     * whose tokens the mask holds already instead of scanning them (Matcher.covered). Tree masks against
     * tree-free masks and the oracle.
     */
    @Test void schemaOneOfObjectsSharingKeys() {
        String[] values = {"{\"type\": \"number\"}", "{\"type\": [\"number\", \"string\", \"null\", \"boolean\"]}",
                "{\"type\": \"integer\"}", "{\"type\": [\"number\", \"null\"]}", "{\"type\": \"string\"}", "{\"type\": \"boolean\"}",
                "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}", "{\"type\": \"object\"}"};
        StringBuilder branches = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            branches.append(i == 0 ? "" : ", ").append("""
                    {"type": "object", "required": ["type", "label"], "additionalProperties": false, "properties": {
                       "type": {"enum": ["Kind%d"]}, "id": {"type": "string"}, "label": {"type": "string"},
                       "uom": {"type": "string"}, "lower": %s, "upper": %s}}""".formatted(i, values[i], values[i]));
        }
        String schema = "{\"type\": \"array\", \"items\": {\"type\": \"object\", \"oneOf\": [" + branches + "]}}";
        long together = SameRootedTrees.walkedTogetherCount();
        check(JsonSchemaGrammar.from(schema).grammar(), CompileOptions.defaults(), LongTests.scale(8, 30), 121, 400);
        // the branches' key terminals share trees renamed at the root: their configurations were walked together
        assertThat(SameRootedTrees.walkedTogetherCount()).isGreaterThan(together);
    }

    /**
     * Trees stored as another tree renamed at the root (artifact format 17) read back as such: a loaded artifact
     * keeps the sharing by which masks walk configurations together, gives the masks of the artifact it was written
     * from, and writes the same bytes again.
     */
    @Test void treesRenamedAtTheRootSurviveTheArtifactFormat() throws Exception {
        StringBuilder branches = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            branches.append(i == 0 ? "" : ", ").append("""
                    {"type": "object", "required": ["type"], "properties": {"type": {"enum": ["K%d"]}, "label": {"type": "string"},
                       "v%d": {"type": "integer"}}}""".formatted(i, i));
        }
        String schema = "{\"type\": \"array\", \"items\": {\"oneOf\": [" + branches + "]}}";
        Grammar g = JsonSchemaGrammar.from(schema).grammar();
        Artifact eager = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(false));
        byte[] bytes = dev.domino.runtime.internal.format.ArtifactFormat.toBytes(eager);
        Artifact loaded = dev.domino.runtime.internal.format.ArtifactFormat.read(new java.io.ByteArrayInputStream(bytes));
        assertThat(renamedTrees(loaded)).isEqualTo(renamedTrees(eager)).isGreaterThan(0);
        assertThat(dev.domino.runtime.internal.format.ArtifactFormat.toBytes(loaded)).isEqualTo(bytes);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(200);
        Random random = new Random(122);
        for (int i = 0; i < LongTests.scale(6, 20); i++) {
            String sentence = sampler.sample(random);
            if (i % 3 == 2) sentence = SentenceSampler.mutate(sentence, random);
            Matcher a = eager.newMatcher(), b = loaded.newMatcher();
            for (int t : o200k.encode(sentence)) {
                assertThat(b.nextTokenMask()).as("loaded vs written, %s", sentence).isEqualTo(a.nextTokenMask());
                if (!a.acceptToken(t)) break;
                assertThat(b.acceptToken(t)).isTrue();
            }
        }
    }

    private static int renamedTrees(Artifact a) {
        int n = 0;
        for (var t : RuntimeAccess.of(a).storedTrees()) if (t.unrenamed != t) n++;
        return n;
    }

    /**
     * Key prefix states walked as the free string's walk with the differing bytes walked apart
     * (TerminalWalks twins): declared keys that are prefixes of one another, the empty key, one-byte keys,
     * keys with escaped characters (quote, backslash, a control character), non-ASCII keys, and free keys
     * whose values are strings or numbers.
     */
    @Test void schemaKeyComplementsTwinEdgeCases() {
        String schema = """
                {"type": "object", "properties": {
                   "": {"type": "integer"}, "a": {"type": "string"}, "ab": {"type": "integer"}, "abc": {"type": "boolean"},
                   "abcdefghij": {"type": "string"}, "q\\"uote": {"type": "integer"}, "back\\\\slash": {"type": "integer"},
                   "tab\\tkey": {"type": "integer"}, "déjà": {"type": "integer"}, "日本": {"type": "string"}, "zz": {"type": "null"},
                   "inner": {"type": "object", "properties": {"x": {"type": "integer"}, "xy": {"type": "integer"}},
                     "additionalProperties": {"type": "number"}}},
                 "additionalProperties": {"type": "string"}}""";
        check(JsonSchemaGrammar.from(schema).grammar(), CompileOptions.defaults(), LongTests.scale(8, 24), 108);
    }

    /**
     * Long unrolled strings (fixed formats, a pattern repeated far beyond a token's length, maxLength under a
     * pattern): positions that no token can tell apart share one walk and one tree (TerminalWalks by bounded
     * future). Masks with that sharing on and off (caches cleared between), tree-free and with trees, against
     * the oracle.
     */
    @Test void schemaLongChainsSharingOnAndOff() {
        String schema = """
                {"type": "object", "properties": {
                   "sha": {"type": "string", "pattern": "^[a-f0-9]{40}$"},
                   "when": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"},
                   "word": {"type": "string", "pattern": "^[a-z]{50}$"},
                   "ab": {"type": "string", "pattern": "^(ab|ba){20}c?$"},
                   "text": {"type": "string", "pattern": "^[a-z ,]*$", "maxLength": 45}},
                 "additionalProperties": false}""";
        Grammar g = JsonSchemaGrammar.from(schema).grammar();
        try {
            for (boolean sharing : new boolean[] {true, false}) {
                dev.domino.runtime.RuntimeCaches.clear();
                dev.domino.runtime.internal.trees.TerminalWalks.setFutureSharing(sharing);
                check(g, CompileOptions.defaults().withFineTerminals(true), LongTests.scale(6, 20), 109);
            }
            // the same random prefixes, masks of both settings side by side (walks of the first kept in the cache)
            dev.domino.runtime.RuntimeCaches.clear();
            dev.domino.runtime.internal.trees.TerminalWalks.setFutureSharing(false);
            Artifact off = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0));
            RuntimeAccess.of(off).treeDemand().setMode(TreeDemand.Mode.DIRECT_ONLY);
            List<int[]> outputs = new ArrayList<>();
            SentenceSampler sampler = new SentenceSampler(g).maxLength(80);
            Random random = new Random(11);
            for (int i = 0; i < LongTests.scale(6, 20); i++) outputs.add(o200k.encode(sampler.sample(random)));
            List<List<BitSet>> masksOff = new ArrayList<>();
            for (int[] out : outputs) masksOff.add(masksAlong(off, out));
            dev.domino.runtime.RuntimeCaches.clear();
            dev.domino.runtime.internal.trees.TerminalWalks.setFutureSharing(true);
            for (TreeDemand.Mode mode : new TreeDemand.Mode[] {TreeDemand.Mode.DIRECT_ONLY, TreeDemand.Mode.BUILD_ON_FIRST_USE}) {
                Artifact on = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0));
                RuntimeAccess.of(on).treeDemand().setMode(mode);
                for (int i = 0; i < outputs.size(); i++) assertThat(masksAlong(on, outputs.get(i))).as("%s, output %d", mode, i).isEqualTo(masksOff.get(i));
            }
        } finally {
            dev.domino.runtime.internal.trees.TerminalWalks.setFutureSharing(true);
        }
    }

    /**
     * Short strings unrolled into their terminals (maxLength and minLength under the counted threshold, a key
     * merged with its short value, arrays of them) walked as runs of the JSON character loop ({@code UnitRun}),
     * whose counted walk a long string of the same schema brings; masks with the runs on and off, tree-free and
     * with trees, against the oracle.
     */
    @Test void schemaShortStringsAsUnitRunsOnAndOff() {
        String schema = """
                {"type": "object", "properties": {
                   "code": {"type": "string", "maxLength": 12}, "one": {"type": "string", "maxLength": 1},
                   "pin": {"type": "string", "minLength": 4, "maxLength": 4}, "pw": {"type": "string", "minLength": 6},
                   "mid": {"type": "string", "minLength": 3, "maxLength": 9}, "ref": {"type": "string", "maxLength": 4},
                   "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 5}, "maxItems": 3},
                   "long": {"type": "string", "maxLength": 100}, "n": {"type": "integer"}},
                 "required": ["code"], "additionalProperties": {"type": "string", "maxLength": 7}}""";
        Grammar g = JsonSchemaGrammar.from(schema).grammar();
        Vocabulary v = o200k.vocabulary();
        try {
            // tree-free masks of the plain walks first; then the same prefixes with runs, before anything else walks
            // those states (an eager compile's trees would cache their plain walks, which masks then prefer)
            dev.domino.runtime.RuntimeCaches.clear();
            dev.domino.runtime.internal.trees.TerminalWalks.setUnitRuns(false);
            Artifact off = GrammarCompiler.compile(g, v, "t", "ir", "t", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0));
            RuntimeAccess.of(off).treeDemand().setMode(TreeDemand.Mode.DIRECT_ONLY);
            List<String> sentences = new ArrayList<>();
            List<int[]> outputs = new ArrayList<>();
            SentenceSampler sampler = new SentenceSampler(g).maxLength(120);
            Random random = new Random(17);
            for (int i = 0; i < LongTests.scale(10, 30); i++) {
                String sentence = sampler.sample(random);
                if (i % 3 == 2) sentence = SentenceSampler.mutate(sentence, random);
                sentences.add(sentence);
                outputs.add(o200k.encode(sentence));
            }
            List<List<BitSet>> masksOff = new ArrayList<>();
            for (int[] out : outputs) masksOff.add(masksAlong(off, out));
            dev.domino.runtime.RuntimeCaches.clear();
            dev.domino.runtime.internal.trees.TerminalWalks.setUnitRuns(true);
            long before = dev.domino.runtime.internal.trees.TerminalWalks.unitRunCount();
            Artifact on = GrammarCompiler.compile(g, v, "t", "ir", "t", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0));
            RuntimeAccess.of(on).treeDemand().setMode(TreeDemand.Mode.DIRECT_ONLY);
            ByteEarleyOracle oracle = new ByteEarleyOracle(g);
            List<byte[]> allTokens = new ArrayList<>();
            for (int t = 0; t < v.size(); t++) allTokens.add(v.isGrammarToken(t) ? v.bytes(t) : null);
            for (int i = 0; i < outputs.size(); i++) {
                List<BitSet> masks = masksAlong(on, outputs.get(i));
                assertThat(masks).as("runs on vs off, output %d", i).isEqualTo(masksOff.get(i));
                ByteEarleyOracle.State state = oracle.start();
                for (int k = 0; k < masks.size(); k++) {
                    if (k % ORACLE_EVERY == 0) againstOracle(masks.get(k), oracle, state, allTokens, random, sentences.get(i), k);
                    if (k < outputs.get(i).length) state = oracle.advance(state, v.bytes(outputs.get(i)[k]));
                }
            }
            assertThat(dev.domino.runtime.internal.trees.TerminalWalks.unitRunCount()).as("states walked as unit runs").isGreaterThan(before);
            // and beside trees (built on first use, eager), the usual way
            check(g, CompileOptions.defaults(), LongTests.scale(4, 12), 114);
        } finally {
            dev.domino.runtime.internal.trees.TerminalWalks.setUnitRuns(true);
        }
    }

    /** Partial matches of unanchored patterns, walks derived from the searching state's ({@code HubWalk}) and not. */
    /**
     * Strings split around a counted run (an unanchored {@code [A-Fa-f0-9]{64}}: a free body that may end after any
     * byte, the run, a free body): the end children whose subtrees' tokens the mask holds already are not walked
     * below ({@code DirectMask.covered}), and the masks stay the oracle's.
     */
    @Test void schemaStringsSplitAroundCountedRuns() {
        String schema = """
                {"type": "object", "properties": {
                   "hash": {"type": "string", "pattern": "[A-Fa-f0-9]{64}"},
                   "tag": {"type": "string", "pattern": "v[0-9]{2}"},
                   "n": {"type": "integer"}},
                 "required": ["hash", "tag"], "additionalProperties": false}""";
        long before = dev.domino.runtime.internal.mask.DirectMask.coveredSkips();
        check(JsonSchemaGrammar.from(schema).grammar(), CompileOptions.defaults(), LongTests.scale(3, 20), 118, 200);
        assertThat(dev.domino.runtime.internal.mask.DirectMask.coveredSkips() - before).as("end children not walked below").isPositive();
    }

    @Test void schemaUnanchoredPatternsHubWalksOnAndOff() {
        String schema = """
                {"type": "object", "properties": {
                   "id": {"type": "string", "pattern": "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"},
                   "weight": {"type": "string", "pattern": "normal|bold|x-[a-z]+-[0-9]{2}"},
                   "code": {"type": "string", "pattern": "[A-Z]{2}[0-9]{3}", "maxLength": 20}},
                 "required": ["id", "weight"], "additionalProperties": false}""";
        Grammar g = JsonSchemaGrammar.from(schema).grammar();
        try {
            long before = dev.domino.runtime.internal.trees.TerminalWalks.hubWalks();
            for (boolean hubs : new boolean[] {true, false}) {
                dev.domino.runtime.RuntimeCaches.clear();
                dev.domino.runtime.internal.trees.TerminalWalks.setHubWalks(hubs);
                check(g, CompileOptions.defaults().withFineTerminals(true), LongTests.scale(6, 20), 113);
                if (hubs) assertThat(dev.domino.runtime.internal.trees.TerminalWalks.hubWalks()).as("walks derived from a hub's").isGreaterThan(before);
            }
            dev.domino.runtime.RuntimeCaches.clear();
            dev.domino.runtime.internal.trees.TerminalWalks.setHubWalks(false);
            Artifact off = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0));
            RuntimeAccess.of(off).treeDemand().setMode(TreeDemand.Mode.DIRECT_ONLY);
            List<int[]> outputs = new ArrayList<>();
            SentenceSampler sampler = new SentenceSampler(g).maxLength(80);
            Random random = new Random(13);
            for (int i = 0; i < LongTests.scale(6, 20); i++) outputs.add(o200k.encode(sampler.sample(random)));
            List<List<BitSet>> masksOff = new ArrayList<>();
            for (int[] out : outputs) masksOff.add(masksAlong(off, out));
            dev.domino.runtime.RuntimeCaches.clear();
            dev.domino.runtime.internal.trees.TerminalWalks.setHubWalks(true);
            for (TreeDemand.Mode mode : new TreeDemand.Mode[] {TreeDemand.Mode.DIRECT_ONLY, TreeDemand.Mode.BUILD_ON_FIRST_USE}) {
                Artifact on = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0));
                RuntimeAccess.of(on).treeDemand().setMode(mode);
                for (int i = 0; i < outputs.size(); i++) assertThat(masksAlong(on, outputs.get(i))).as("%s, output %d", mode, i).isEqualTo(masksOff.get(i));
            }
        } finally {
            dev.domino.runtime.internal.trees.TerminalWalks.setHubWalks(true);
        }
    }

    /**
     * An unanchored key pattern: each partial match is a small loop core entered at a state of its own, walked from
     * the searching state's walk ({@code HubWalk}) when its core was not walked before, and not.
     */
    @Test void schemaUnanchoredKeyPatternCoresHubWalksOnAndOff() {
        String schema = """
                {"type": "object", "properties": {"name": {"type": "string"}},
                 "patternProperties": {"[0-9a-f]{6}": {"type": "integer"}}, "additionalProperties": false}""";
        Grammar g = JsonSchemaGrammar.from(schema).grammar();
        try {
            long before = dev.domino.runtime.internal.trees.TerminalWalks.hubWalks();
            for (boolean hubs : new boolean[] {true, false}) {
                dev.domino.runtime.RuntimeCaches.clear();
                dev.domino.runtime.internal.trees.TerminalWalks.setHubWalks(hubs);
                check(g, CompileOptions.defaults().withFineTerminals(true), LongTests.scale(6, 20), 117);
                if (hubs) assertThat(dev.domino.runtime.internal.trees.TerminalWalks.hubWalks()).as("walks derived from a hub's").isGreaterThan(before);
            }
        } finally {
            dev.domino.runtime.RuntimeCaches.clear();
            dev.domino.runtime.internal.trees.TerminalWalks.setHubWalks(true);
        }
    }

    private static List<BitSet> masksAlong(Artifact artifact, int[] tokens) {
        Matcher m = artifact.newMatcher();
        List<BitSet> masks = new ArrayList<>();
        for (int k = 0; k <= tokens.length; k++) {
            masks.add(m.nextTokenMask());
            if (k == tokens.length || !m.acceptToken(tokens[k])) break;
        }
        return masks;
    }

    @Test void schemaUnionOfObjects() {
        String schema = """
                {"type": "array", "items": {"anyOf": [
                   {"type": "object", "properties": {"error": {"type": "string"}, "name": {"enum": ["P"]}},
                    "required": ["name", "error"], "additionalProperties": false},
                   {"type": "object", "properties": {"error": {"type": "string", "maxLength": 12}, "name": {"enum": ["R", "S"]}, "n": {"type": "number"}},
                    "required": ["name"], "additionalProperties": false},
                   {"type": "object", "properties": {"error": {"type": "string"}, "name": {"type": "string"}},
                    "required": ["name", "error"]}]}}""";
        check(JsonSchemaGrammar.from(schema).grammar(), CompileOptions.defaults().withFineTerminals(true), LongTests.scale(6, 20), 106);
    }

    /** Several threads decode with matchers of one lazy artifact: trees built by masks (after two uses, or by the cost rule), or in the background. */
    @Test void concurrentMatchersBackgroundOnAndOff() throws Exception {
        Grammar g = JsonSchemaGrammar.from("""
                {"type": "object", "properties": {"a": {"type": "string", "maxLength": 30}, "b": {"type": "array", "items": {"type": "number"}},
                 "c": {"type": "string"}}, "additionalProperties": {"type": "boolean"}}""").grammar();
        CompileOptions options = CompileOptions.defaults().withFineTerminals(true);
        Artifact eager = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", options.withLazy(false));
        List<int[]> outputs = new ArrayList<>();
        SentenceSampler sampler = new SentenceSampler(g).maxLength(50);
        Random random = new Random(7);
        for (int i = 0; i < 12; i++) outputs.add(o200k.encode(sampler.sample(random)));
        for (int run = 0; run < 3; run++) {
            boolean background = run == 1;
            Artifact lazy = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", options.withLazy(true).withPrebuildMillis(0));
            if (run == 2) RuntimeAccess.of(lazy).treeDemand().setBuildAfterDirectMicros(0); // the cost rule: built on the second use
            else RuntimeAccess.of(lazy).treeDemand().setBuildAfterUses(2);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            BackgroundBuild build = background ? lazy.buildTreesInBackground(pool, 1) : null;
            List<Future<?>> done = new ArrayList<>();
            for (int th = 0; th < 3; th++) {
                int first = th;
                done.add(pool.submit(() -> {
                    for (int i = first; i < outputs.size(); i += 1) sameMasksAlong(lazy, eager, outputs.get((i + first) % outputs.size()));
                    return null;
                }));
            }
            for (Future<?> f : done) f.get(5, TimeUnit.MINUTES);
            if (build != null) build.cancel();
            pool.shutdown();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
    }

    /**
     * Builds a mask gives up over their budget leave the masks exact: every build the masks start is
     * given up at its first walk (the masks run inside a spent budget: {@code BuildBudget.within(0, ...)}),
     * so the missing trees stay walked directly.
     */
    @Test void buildsGivenUpOverTheirBudgetKeepMasksExact() {
        Grammar g = JsonSchemaGrammar.from("""
                {"type": "object", "properties": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}},
                 "additionalProperties": {"type": "string"}}""").grammar();
        CompileOptions options = CompileOptions.defaults().withFineTerminals(true);
        Artifact eager = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", options.withLazy(false));
        Artifact lazy = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", options.withLazy(true).withPrebuildMillis(0));
        RuntimeAccess.of(lazy).treeDemand().setBuildAfterDirectMicros(1);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(80);
        Random random = new Random(11);
        for (int i = 0; i < 20; i++) {
            int[] tokens = o200k.encode(sampler.sample(random));
            BuildBudget.within(0, unused -> {
                sameMasksAlong(lazy, eager, tokens);
                return null;
            }, 0);
        }
        assertThat(RuntimeAccess.of(lazy).treeBuilds().givenUp()).as("builds given up").isPositive();
        assertThat(RuntimeAccess.of(lazy).treeBuilds().trees()).as("trees built").isZero();
    }

    private static void sameMasksAlong(Artifact lazy, Artifact eager, int[] tokens) {
        Matcher a = lazy.newMatcher(), b = eager.newMatcher();
        for (int k = 0; k <= tokens.length; k++) {
            assertThat(a.nextTokenMask()).as("mask after %d tokens", k).isEqualTo(b.nextTokenMask());
            if (k == tokens.length || !b.acceptToken(tokens[k])) break;
            assertThat(a.acceptToken(tokens[k])).isTrue();
        }
    }

    /**
     * Compiles eagerly and lazily; masks of the tree-free walk, lazy trees built on first use,
     * lazy trees built after two direct uses and eager trees must agree at every checked prefix,
     * and with the oracle.
     */
    static void check(Grammar g, CompileOptions options, int sentences, long seed) {
        check(g, options, sentences, seed, 60);
    }

    /** {@code maxLength}: of the sampled sentences (see {@link SentenceSampler#maxLength}). */
    static void check(Grammar g, CompileOptions options, int sentences, long seed, int maxLength) {
        Vocabulary v = o200k.vocabulary();
        Artifact eager = GrammarCompiler.compile(g, v, "t", "ir", "t", options.withLazy(false));
        Artifact onFirstUse = GrammarCompiler.compile(g, v, "t", "ir", "t", options.withLazy(true).withPrebuildMillis(0));
        RuntimeAccess.of(onFirstUse).treeDemand().setMode(TreeDemand.Mode.BUILD_ON_FIRST_USE);
        Artifact afterUses = GrammarCompiler.compile(g, v, "t", "ir", "t", options.withLazy(true).withPrebuildMillis(0));
        RuntimeAccess.of(afterUses).treeDemand().setBuildAfterUses(2);
        Artifact treeFree = GrammarCompiler.compile(g, v, "t", "ir", "t", options.withLazy(true).withPrebuildMillis(0));
        RuntimeAccess.of(treeFree).treeDemand().setMode(TreeDemand.Mode.DIRECT_ONLY);
        Artifact byCost = GrammarCompiler.compile(g, v, "t", "ir", "t", options.withLazy(true).withPrebuildMillis(0));
        RuntimeAccess.of(byCost).treeDemand().setBuildAfterDirectMicros(30);
        Artifact[] artifacts = {eager, onFirstUse, afterUses, treeFree, byCost};
        String[] names = {"eager trees", "lazy trees", "lazy trees after two uses", "tree-free walk", "lazy trees by direct cost"};

        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(maxLength);
        Random random = new Random(seed);
        List<byte[]> allTokens = new ArrayList<>();
        for (int t = 0; t < v.size(); t++) allTokens.add(v.isGrammarToken(t) ? v.bytes(t) : null);
        int compared = 0;
        for (int i = 0; i < sentences; i++) {
            String sentence = sampler.sample(random);
            if (i % 3 == 2) sentence = SentenceSampler.mutate(sentence, random);
            int[] tokens = o200k.encode(sentence);
            Matcher[] m = new Matcher[artifacts.length];
            for (int a = 0; a < m.length; a++) m[a] = artifacts[a].newMatcher();
            Matcher[] k0 = {eager.newMatcher(0), treeFree.newMatcher(0)}, k1 = {eager.newMatcher(1), treeFree.newMatcher(1)};
            ByteEarleyOracle.State state = oracle.start();
            for (int k = 0; k <= tokens.length; k++) {
                if (k == tokens.length || random.nextInt(2) == 0) {
                    BitSet expected = m[0].nextTokenMask();
                    for (int a = 1; a < m.length; a++) {
                        assertThat(m[a].nextTokenMask()).as("%s vs eager after %d tokens of %s", names[a], k, sentence).isEqualTo(expected);
                    }
                    for (Matcher[] pair : new Matcher[][] {k0, k1}) {
                        if (!pair[0].isError() && !pair[1].isError()) {
                            assertThat(pair[1].nextTokenMask()).as("k=%d tree-free vs eager after %d tokens of %s",
                                    pair[0].lookahead(), k, sentence).isEqualTo(pair[0].nextTokenMask());
                        }
                    }
                    if (compared++ % ORACLE_EVERY == 0) againstOracle(expected, oracle, state, allTokens, random, sentence, k);
                }
                if (k == tokens.length) break;
                state = oracle.advance(state, v.bytes(tokens[k]));
                boolean accepted = m[0].acceptToken(tokens[k]);
                assertThat(accepted).as("token %d of %s", k, sentence).isEqualTo(oracle.isViable(state));
                if (!accepted) break;
                for (int a = 1; a < m.length; a++) assertThat(m[a].acceptToken(tokens[k])).isTrue();
                for (Matcher[] pair : new Matcher[][] {k0, k1}) {
                    // a token beyond k leaves the pair (both refuse it alike: their masks agreed)
                    boolean e = pair[0].acceptToken(tokens[k]), f = pair[1].acceptToken(tokens[k]);
                    assertThat(f).isEqualTo(e);
                    if (!e) { pair[0].setError("beyond k"); pair[1].setError("beyond k"); }
                }
            }
        }
        assertThat(compared).isGreaterThan(sentences);
    }

    private static void againstOracle(BitSet mask, ByteEarleyOracle oracle, ByteEarleyOracle.State state, List<byte[]> allTokens,
                                      Random random, String sentence, int position) {
        List<byte[]> candidates = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (int t = 0; t < allTokens.size(); t++) {
            if (allTokens.get(t) == null) continue;
            if (mask.get(t) || random.nextInt(40) == 0) { candidates.add(allTokens.get(t)); ids.add(t); }
        }
        BitSet viable = oracle.viableTokens(state, candidates);
        for (int i = 0; i < ids.size(); i++) {
            int t = ids.get(i);
            if (mask.get(t) != viable.get(i)) {
                throw new AssertionError("after " + position + " tokens of '" + sentence + "': token " + t + " '"
                        + Vocabulary.displayBytes(allTokens.get(t)) + "' mask=" + mask.get(t) + " oracle=" + viable.get(i));
            }
        }
    }
}
