package dev.domino.compiler;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.domino.compiler.ir.Expr.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fast masks against the independent byte-level Earley oracle over the original grammar
 * IR: for prefixes of sampled (and mutated) sentences, every token the mask allows must be
 * viable, and every viable token in a large random sample must be allowed. Canonical
 * tokenizations of valid sentences must be accepted token by token.
 */
class OracleMaskTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    @Test void json() { check(TestGrammars.json(), 12, 1); }

    @Test void jsonLazyTrees() { check(TestGrammars.json(), 8, 11, true); }

    @Test void jsonFineTerminals() { check(TestGrammars.json(), 8, 13, true, true); }

    @Test void ambiguousArithmetic() { check(TestGrammars.ambiguousExpr(), 12, 2); }

    @Test void wordSoupLexicalAmbiguity() { check(TestGrammars.wordSoup(), 10, 3); }

    /** (a|b)*a(a|b){12} needs 2^13 DFA states: too large for one terminal, so it stays in the parser. */
    @Test void automatonTooLargeForOneTerminal() {
        Map<String, Expr> r = new LinkedHashMap<>();
        Expr ab = alt(literal("a"), literal("b"));
        r.put("root", seq(star(ab), literal("a"), new Repeat(ab, 12, 12)));
        check(Grammar.of("root", r), 4, 6);
    }

    /**
     * Exponentially many splits of a token into words: a tree's walk spends its excess budget,
     * then continues with a tiny configured cap, so most long tokens are dynamic (checked depth
     * first at run time) while nodes walked before the switch keep their paths.
     */
    @Test void dynamicTokensAfterTheBudgetRunsOut() {
        CompileOptions tinyCap = CompileOptions.defaults().withDynamicCap(2);
        check(TestGrammars.wordSoup(), 8, 61, tinyCap);
        check(TestGrammars.wordSoup(), 4, 62, tinyCap.withLazy(true), true);
        Artifact a = GrammarCompiler.compile(TestGrammars.wordSoup(), o200k.vocabulary(), "t", "ir", "t", tinyCap);
        int dynamic = 0;
        ArtifactInternals ai = RuntimeAccess.of(a);
        for (int q = 0; q < ai.scannerStateCount(); q++) dynamic += ai.treeOfState(q).dynamicTokenCount();
        assertThat(dynamic).as("dynamic tokens").isGreaterThan(1000);
    }

    /**
     * A literal set too large for the old one-terminal bound (4,000 words, ~40,000 NFA states):
     * one trie-shaped terminal with a sparse automaton, in a list so that words meet at
     * terminal boundaries, with prefixes of each other (bridge tokens, ambiguity).
     */
    @Test void largeLiteralSetIsOneSparseTerminal() {
        Random random = new Random(71);
        List<Expr> words = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            StringBuilder w = new StringBuilder();
            for (int k = 1 + random.nextInt(9); k > 0; k--) w.append((char) ('a' + random.nextInt(random.nextBoolean() ? 4 : 26)));
            if (random.nextInt(20) == 0) w.append("é");
            words.add(literal(w.toString()));
        }
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", seq(literal("["), ref("word"), star(seq(literal(","), ref("word"))), literal("]")));
        r.put("word", new Alt(words));
        Grammar g = Grammar.of("root", r);
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        int big = 0;
        for (dev.domino.runtime.internal.scan.Terminal t : dev.domino.runtime.internal.RuntimeAccess.of(a).terminals()) {
            if (t.dfa().stateCount() > 1000) { big++; assertThat(t.dfa().isDense()).isFalse(); }
        }
        assertThat(big).as("the word set (and \",\" word) as whole terminals").isBetween(1, 2);
        check(g, 10, 72, CompileOptions.defaults().withLazy(true), true);
    }

    @Test void keywordsVersusIdentifiers() {
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", plus(ref("stmt")));
        r.put("stmt", alt(seq(literal("if "), ref("id"), literal(" then "), ref("stmt"), literal(";")),
                seq(ref("id"), literal("="), ref("id"), literal(";")), seq(literal("return "), ref("id"), literal(";"))));
        r.put("id", seq(chars(CodePointSet.fromRanges(new int[] {'a', 'z', '_', '_'})), star(chars(CodePointSet.fromRanges(new int[] {'a', 'z', '0', '9', '_', '_'})))));
        check(Grammar.of("root", r), 12, 4);
    }

    @Test void whitespaceHeavyAndMultiByte() {
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", seq(ref("ws"), ref("item"), star(seq(ref("ws"), literal("—"), ref("ws"), ref("item"))), ref("ws")));
        r.put("ws", star(chars(CodePointSet.fromRanges(new int[] {' ', ' ', '\n', '\n', '\t', '\t', 0x3000, 0x3000}))));
        r.put("item", plus(chars(CodePointSet.fromRanges(new int[] {'a', 'c', 0xE9, 0xE9, 0x4E2D, 0x4E2D, 0x1F600, 0x1F64F}))));
        check(Grammar.of("root", r), 12, 5);
    }

    /** Samples sentences, then compares masks with the oracle at every token boundary. */
    static void check(Grammar g, int sentences, long seed) { check(g, sentences, seed, seed % 2 == 0); }

    static void check(Grammar g, int sentences, long seed, boolean lazy) { check(g, sentences, seed, lazy, false); }

    static void check(Grammar g, int sentences, long seed, boolean lazy, boolean fine) {
        check(g, sentences, seed, CompileOptions.defaults().withLazy(lazy).withFineTerminals(fine));
    }

    /**
     * A JSON Schema grammar (fine terminals: keys merged with the value strings after them, so
     * walks are shared through loop cores with exits), partly prebuilt, read back from bytes.
     */
    @Test void jsonSchemaPartlyPrebuiltRoundTrip() throws Exception {
        String schema = """
                {"type": "object", "properties": {
                   "name": {"type": "string"}, "note": {"type": "string", "maxLength": 3},
                   "tags": {"type": "array", "items": {"type": "string"}},
                   "age": {"type": "integer"}, "kind": {"enum": ["a\\b", "c"]}},
                 "required": ["name"], "additionalProperties": {"type": "string"}}""";
        Grammar g = dev.domino.compiler.jsonschema.JsonSchemaGrammar.from(schema).grammar();
        check(g, 10, 21, CompileOptions.defaults().withLazy(true).withFineTerminals(true).withPrebuildMillis(1), true);
        check(g, 6, 22, CompileOptions.defaults().withLazy(true).withFineTerminals(true).withPrebuildMillis(60_000), true);
    }

    /**
     * Strings too long for one automaton are counted (a loop plus a counter): lengths must stay
     * exact at both bounds, and masks exact both where a token cannot reach the maximum and
     * within a token's length of it.
     */
    @Test void longBoundedStrings() {
        String schema = """
                {"type": "object", "properties": {
                   "a": {"type": "string", "minLength": 37, "maxLength": 700},
                   "b": {"type": "string", "maxLength": 1000}},
                 "required": ["a"], "additionalProperties": false}""";
        Grammar g = dev.domino.compiler.jsonschema.JsonSchemaGrammar.from(schema).grammar();
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        for (int n : new int[] {36, 37, 38, 47, 48, 699, 700, 701}) {
            Matcher m = a.newMatcher();
            boolean ok = m.acceptString("{\"a\": \"" + "x".repeat(n) + "\"}");
            assertThat(ok && m.isAccepting()).as("length %d", n).isEqualTo(n >= 37 && n <= 700);
        }
        // exact masks far from and near the maximum of counted terminals (one o200k token holds up
        // to 128 characters), with multi-byte characters and escapes in the count; short maxima
        // keep the reference recognizer fast
        Grammar short_ = dev.domino.compiler.jsonschema.JsonSchemaGrammar.from("""
                {"type": "object", "properties": {
                   "c": {"type": "string", "minLength": 2, "maxLength": 200},
                   "d": {"type": "string", "maxLength": 170},
                   "e": {"type": "string", "minLength": 5, "maxLength": 20}},
                 "required": ["c"], "additionalProperties": false}""").grammar();
        check(short_, 2, 31, CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        check(short_, 2, 32, CompileOptions.defaults().withLazy(true).withPrebuildMillis(60_000), true); // stored annotated trees
        Artifact counted = GrammarCompiler.compile(short_, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        ByteEarleyOracle oracle = new ByteEarleyOracle(short_);
        Random random = new Random(5);
        Vocabulary v = o200k.vocabulary();
        List<byte[]> allTokens = new ArrayList<>();
        for (int t = 0; t < v.size(); t++) allTokens.add(v.isGrammarToken(t) ? v.bytes(t) : null);
        String[] chars = {"a", "b", " ", "\\u00e9", "\\n", "é", "1"};
        for (String key : new String[] {"c", "d", "e"}) {
            int max = key.equals("c") ? 200 : key.equals("d") ? 170 : 20;
            int[] lengths = key.equals("e") ? new int[] {0, 3, 4, 5, 6, 15, 19, 20} : new int[] {0, 2, max - 129, max - 128, max - 127, max - 1};
            for (int n : lengths) {
                StringBuilder text = new StringBuilder(key.equals("c") ? "{\"c\": \"" : "{\"c\": \"yy\", \"" + key + "\": \"");
                for (int i = 0; i < n; i++) text.append(chars[i % chars.length]);
                Matcher m = counted.newMatcher();
                assertThat(m.acceptString(text.toString())).as("prefix with %d characters", n).isTrue();
                ByteEarleyOracle.State state = oracle.advance(oracle.start(), text.toString().getBytes(StandardCharsets.UTF_8));
                compare(m, oracle, state, allTokens, random, key + ":" + n, n);
            }
        }
    }

    /**
     * A union of objects whose keys lex two ways (a declared property's literal, and the "any
     * other key" string of the open branch): configurations that share a scanner state are merged
     * into the union of their parser states. Masks must stay exact, and after a commit each
     * scanner state appears once.
     */
    @Test void unionOfObjectsWithAnOpenBranchMergesConfigurations() {
        String schema = """
                {"type": "array", "items": {"anyOf": [
                   {"type": "object", "properties": {"error": {"type": "string"}, "name": {"enum": ["P"]}},
                    "required": ["name", "error"], "additionalProperties": false},
                   {"type": "object", "properties": {"error": {"type": "string"}, "name": {"enum": ["R", "S"]}, "n": {"type": "integer"}},
                    "required": ["name"], "additionalProperties": false},
                   {"type": "object", "properties": {"error": {"type": "string"}, "name": {"type": "string"}},
                    "required": ["name", "error"]}]}}""";
        Grammar g = dev.domino.compiler.jsonschema.JsonSchemaGrammar.from(schema).grammar();
        check(g, 12, 41, CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        check(g, 6, 42, CompileOptions.defaults().withLazy(true));
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        Matcher m = a.newMatcher();
        assertThat(m.acceptString("[{\"error\": \"x\", \"name\": \"R")).isTrue();
        int[][] live = RuntimeAccess.get().liveConfigurations(m);
        assertThat(java.util.Arrays.stream(live).mapToInt(c -> c[0]).distinct().count()).isEqualTo(live.length);
        assertThat(m.acceptString("\"}, {\"name\": \"P\", \"error\": \"\"}]")).isTrue();
        assertThat(m.isAccepting()).isTrue();
    }

    /**
     * Many optional properties in schema order, string-or-null values of several maximum lengths
     * (Snowplow's shape): after a value, every later key may follow, and the whitespace and comma
     * tokens that start each of them are one group of a terminal class ("any of these keys").
     * Masks must stay exact, lazily built and stored.
     */
    @Test void manyOptionalKeysShareTerminalClasses() {
        StringBuilder props = new StringBuilder();
        int[] maxLengths = {3, 12, 50, 255};
        for (int i = 0; i < 14; i++) {
            if (i > 0) props.append(", ");
            props.append("\"k").append(i % 3 == 0 ? "a" : "b").append(i).append("\": {\"type\": [\"string\", \"null\"], \"maxLength\": ")
                    .append(maxLengths[i % maxLengths.length]).append('}');
        }
        String schema = "{\"type\": \"object\", \"properties\": {" + props + "}, \"additionalProperties\": false}";
        Grammar g = dev.domino.compiler.jsonschema.JsonSchemaGrammar.from(schema).grammar();
        check(g, 10, 51, CompileOptions.defaults().withLazy(true));
        check(g, 6, 52, CompileOptions.defaults().withLazy(true).withPrebuildMillis(60_000), true);
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        boolean anyClass = false;
        ArtifactInternals ai = RuntimeAccess.of(a);
        for (int q = 0; q < ai.scannerStateCount() && !anyClass; q++) anyClass = ai.treeOfState(q).terminalClassCount() > 0;
        assertThat(anyClass).as("some tree groups tokens by terminal class").isTrue();
    }

    static void check(Grammar g, int sentences, long seed, CompileOptions options) { check(g, sentences, seed, options, false); }

    static void check(Grammar g, int sentences, long seed, CompileOptions options, boolean roundTrip) {
        Artifact compiled = GrammarCompiler.compile(g, o200k.vocabulary(), "test", "ir", "test", options);
        Artifact artifact;
        try {
            artifact = roundTrip ? dev.domino.runtime.internal.format.ArtifactFormat.read(new java.io.ByteArrayInputStream(
                    dev.domino.runtime.internal.format.ArtifactFormat.toBytes(compiled))) : compiled;
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(60);
        Random random = new Random(seed);
        Vocabulary v = o200k.vocabulary();
        List<byte[]> allTokens = new ArrayList<>();
        for (int t = 0; t < v.size(); t++) allTokens.add(v.isGrammarToken(t) ? v.bytes(t) : null);
        int checkedSteps = 0;
        for (int i = 0; i < sentences; i++) {
            String sentence = sampler.sample(random);
            boolean valid = true;
            if (i % 3 == 2) { sentence = SentenceSampler.mutate(sentence, random); valid = oracle.isSentence(sentence); }
            int[] tokens = o200k.encode(sentence);
            Matcher m = artifact.newMatcher();
            ByteEarleyOracle.State state = oracle.start();
            for (int k = 0; k <= tokens.length; k++) {
                if (k == tokens.length || random.nextInt(3) == 0) {
                    compare(m, oracle, state, allTokens, random, sentence, k);
                    checkedSteps++;
                }
                if (k == tokens.length) break;
                ByteEarleyOracle.State next = oracle.advance(state, v.bytes(tokens[k]));
                boolean accepted = m.acceptToken(tokens[k]);
                assertThat(accepted).as("token %d of %s", k, sentence).isEqualTo(oracle.isViable(next));
                if (!accepted) break;
                state = next;
            }
            if (valid) assertThat(m.isAccepting()).as("complete sentence %s", sentence).isTrue();
        }
        assertThat(checkedSteps).isGreaterThan(sentences);
    }

    private static void compare(Matcher m, ByteEarleyOracle oracle, ByteEarleyOracle.State state,
                                List<byte[]> allTokens, Random random, String sentence, int position) {
        BitSet mask = m.nextTokenMask();
        // every allowed token, plus a random sample of the rest
        List<byte[]> candidates = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (int t = 0; t < allTokens.size(); t++) {
            if (allTokens.get(t) == null) continue;
            if (mask.get(t) || random.nextInt(20) == 0) { candidates.add(allTokens.get(t)); ids.add(t); }
        }
        BitSet viable = oracle.viableTokens(state, candidates);
        for (int i = 0; i < ids.size(); i++) {
            int t = ids.get(i);
            if (mask.get(t) != viable.get(i)) {
                throw new AssertionError("after " + position + " tokens of '" + sentence + "': token " + t + " '"
                        + Vocabulary.displayBytes(allTokens.get(t)) + "' mask=" + mask.get(t) + " oracle=" + viable.get(i));
            }
        }
        boolean eos = mask.get(o200k.vocabulary().eosIds()[0]);
        assertThat(eos).as("EOS after %d tokens of %s", position, sentence).isEqualTo(oracle.isComplete(state));
        assertThat(new String(new byte[0], StandardCharsets.UTF_8)).isEmpty();
    }
}
