package dev.domino.compiler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
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
 * The token budget ({@link Matcher#setTokenBudget}) against oracles it does not use: the shortest
 * completion equals a breadth-first search over bytes with the byte-level Earley oracle; every
 * token the budgeted mask allows leaves a completion within the budget, every token it removes
 * does not; a large budget changes no mask; and random sampling under a budget always ends at EOS
 * with an instance networknt accepts.
 */
class TokenBudgetTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    /** JSON over a small alphabet (so a search over bytes stays small), with a forced-literal object and nesting. */
    static Grammar smallJson() {
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", ref("value"));
        r.put("value", alt(ref("object"), ref("array"), ref("string"), ref("number"), ref("person")));
        r.put("object", seq(literal("{"), optional(seq(ref("string"), literal(":"), ref("value"),
                star(seq(literal(","), ref("string"), literal(":"), ref("value"))))), literal("}")));
        r.put("array", seq(literal("["), optional(seq(ref("value"), star(seq(literal(","), ref("value"))))), literal("]")));
        r.put("string", seq(literal("\""), star(chars(CodePointSet.range('a', 'b'))), literal("\"")));
        r.put("number", seq(literal("1"), star(chars(CodePointSet.range('0', '1')))));
        r.put("person", seq(literal("<name="), ref("string"), literal(" age="), ref("number"), literal(">")));
        return Grammar.of("root", r);
    }

    /** Fewest bytes from the oracle state to a sentence, by breadth-first search (null past {@code limit}). */
    static Integer oracleShortest(ByteEarleyOracle oracle, ByteEarleyOracle.State s, int limit) {
        List<ByteEarleyOracle.State> layer = List.of(s);
        for (int d = 0; d <= limit; d++) {
            List<ByteEarleyOracle.State> next = new ArrayList<>();
            for (ByteEarleyOracle.State x : layer) {
                if (oracle.isComplete(x)) return d;
                BitSet bytes = oracle.nextBytes(x);
                for (int b = bytes.nextSetBit(0); b >= 0; b = bytes.nextSetBit(b + 1)) next.add(oracle.advance(x, b));
            }
            layer = next;
            if (layer.size() > 2_000_000) throw new IllegalStateException("search too large");
        }
        return null;
    }

    /**
     * The lexicographically smallest of the shortest completions (bytes), by breadth-first search in
     * lexicographic order (each layer in order, bytes tried ascending); null past {@code limit} bytes.
     */
    static byte[] oracleSmallestShortest(ByteEarleyOracle oracle, ByteEarleyOracle.State s, int limit) {
        List<ByteEarleyOracle.State> layer = List.of(s);
        List<byte[]> spelled = List.of(new byte[0]);
        for (int d = 0; d <= limit; d++) {
            List<ByteEarleyOracle.State> next = new ArrayList<>();
            List<byte[]> nextSpelled = new ArrayList<>();
            for (int i = 0; i < layer.size(); i++) {
                ByteEarleyOracle.State x = layer.get(i);
                if (oracle.isComplete(x)) return spelled.get(i);
                BitSet bytes = oracle.nextBytes(x);
                for (int b = bytes.nextSetBit(0); b >= 0; b = bytes.nextSetBit(b + 1)) {
                    next.add(oracle.advance(x, b));
                    nextSpelled.add(concat(spelled.get(i), new byte[] {(byte) b}));
                }
            }
            layer = next;
            spelled = nextSpelled;
            if (layer.size() > 2_000_000) throw new IllegalStateException("search too large");
        }
        return null;
    }

    /** Tokens of {@code text} spelled longest vocabulary entry first (an independent greedy over the vocabulary's bytes). */
    static int greedyTokens(Vocabulary v, byte[] text) {
        if (entries == null) {
            entries = new java.util.HashSet<>();
            for (int id = 0; id < v.size(); id++) if (v.isGrammarToken(id)) entries.add(new String(v.bytes(id), StandardCharsets.ISO_8859_1));
        }
        String s = new String(text, StandardCharsets.ISO_8859_1);
        int n = 0;
        for (int pos = 0; pos < s.length(); n++) {
            int len = Math.min(s.length() - pos, 128);
            while (!entries.contains(s.substring(pos, pos + len))) len--;
            pos += len;
        }
        return n;
    }

    static java.util.Set<String> entries;

    @Test void shortestCompletionEqualsTheOraclesSearch() {
        Grammar g = smallJson();
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        SentenceSampler sampler = new SentenceSampler(g).maxDepth(6).maxLength(60);
        Random random = new Random(5);
        int checked = 0;
        for (int n = 0; n < 60; n++) {
            byte[] sentence = sampler.sample(random).getBytes(StandardCharsets.UTF_8);
            for (int cut = 0; cut <= sentence.length; cut += 1 + random.nextInt(3)) {
                Matcher m = a.newMatcher();
                assertThat(m.acceptBytes(java.util.Arrays.copyOf(sentence, cut))).isTrue();
                int claimed = m.shortestCompletion();
                Integer truth = oracleShortest(oracle, oracle.advance(oracle.start(), java.util.Arrays.copyOf(sentence, cut)), Math.min(claimed, 9));
                if (claimed <= 9) assertThat(truth).as("prefix %s", new String(sentence, 0, cut, StandardCharsets.UTF_8)).isEqualTo(claimed);
                else assertThat(truth).as("prefix %s", new String(sentence, 0, cut, StandardCharsets.UTF_8)).isNull();
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(300);
    }

    /**
     * Budgeted masks along sampled outputs: each allowed token leaves a completion (per the oracle's
     * search, the stop token counted) within the budget; each removed one does not; a budget far above
     * the end changes nothing.
     */
    @Test void budgetedMasksKeepACompletionWithinTheBudget() {
        Grammar g = smallJson();
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        Vocabulary v = a.vocabulary();
        Random random = new Random(7);
        int restricted = 0, checkedTokens = 0, spelledInTokens = 0;
        for (int run = 0; run < 12; run++) {
            int budget = 4 + random.nextInt(10);
            Matcher m = a.newMatcher();
            Matcher free = a.newMatcher();
            assertThat(m.setTokenBudget(budget)).isTrue();
            assertThat(free.setTokenBudget(100_000)).isTrue();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (!m.isTerminated()) {
                int left = m.tokenBudget();
                BitSet mask = m.nextTokenMask();
                Matcher plain = a.newMatcher();
                plain.acceptBytes(out.toByteArray());
                BitSet grammar = plain.nextTokenMask();
                assertThat(free.nextTokenMask()).isEqualTo(grammar);
                assertThat(mask.cardinality()).as("some token fits").isPositive();
                // check the allowed tokens and the removed ones on a sample (all of the small ones)
                List<Integer> sample = new ArrayList<>();
                for (int id = grammar.nextSetBit(0); id >= 0; id = grammar.nextSetBit(id + 1)) {
                    if (v.isEos(id) || v.bytes(id).length <= 2 || random.nextInt(200) == 0) sample.add(id);
                }
                for (int id : sample) {
                    boolean allowed = mask.get(id);
                    if (v.isEos(id)) { assertThat(allowed).isEqualTo(left >= 1); continue; }
                    byte[] after = concat(out.toByteArray(), v.bytes(id));
                    // fits: a completion of at most left - 2 bytes, or the smallest shortest one spelled in at most left - 2 tokens
                    byte[] w = left < 2 ? null : oracleSmallestShortest(oracle, oracle.advance(oracle.start(), after), left + 6);
                    boolean fits = w != null && (w.length <= left - 2 || greedyTokens(v, w) <= left - 2);
                    if (allowed || w != null) {
                        assertThat(allowed).as("token %s after %s (left %d, completion %s)", v.display(id), out, left,
                                w == null ? null : new String(w, StandardCharsets.UTF_8)).isEqualTo(fits);
                    }
                    if (allowed && w.length > left - 2) spelledInTokens++;
                    checkedTokens++;
                }
                if (mask.cardinality() < grammar.cardinality()) restricted++;
                // sample among the allowed, preferring long tokens so that the budget is reached
                int pick = pick(mask, v, random);
                assertThat(m.acceptToken(pick)).isTrue();
                free.acceptToken(pick);
                if (!v.isEos(pick)) out.writeBytes(v.bytes(pick));
            }
            assertThat(m.committedTokens()).isLessThanOrEqualTo(budget);
            assertThat(oracle.isSentence(out.toByteArray())).isTrue();
        }
        assertThat(restricted).isPositive();
        assertThat(checkedTokens).isGreaterThan(100);
        assertThat(spelledInTokens).as("tokens allowed only because the completion is counted in tokens").isPositive();
    }

    @Test void aBudgetTooSmallForTheShortestCompletionIsRefused() {
        Artifact a = GrammarCompiler.compile(smallJson(), o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        Matcher m = a.newMatcher();
        m.acceptString("<name=\"ab");
        int shortest = m.shortestCompletion(); // "\" age=1>"
        assertThat(shortest).isEqualTo(8);
        String rest = "\" age=1>";
        Vocabulary v = a.vocabulary();
        int spelled = greedyTokens(v, rest.getBytes(StandardCharsets.UTF_8));
        assertThat(spelled).isLessThan(shortest);
        assertThat(m.setTokenBudget(spelled)).isFalse(); // no room for EOS
        assertThat(m.tokenBudget()).isEqualTo(-1);
        assertThat(m.setTokenBudget(spelled + 1)).isTrue();
        // the spelling stays allowed token after token (the longest entry that starts the rest), then only EOS
        Matcher f = m.fork();
        while (!rest.isEmpty()) {
            int[] allowed = f.nextTokenMask().stream().toArray();
            int longest = -1;
            for (int id : allowed) {
                String text = new String(v.bytes(id), StandardCharsets.UTF_8);
                if (rest.startsWith(text) && (longest < 0 || text.length() > v.bytes(longest).length)) longest = id;
            }
            assertThat(longest).as("a token spelling the rest of %s", rest).isNotNegative();
            assertThat(f.acceptToken(longest)).isTrue();
            rest = rest.substring(v.bytes(longest).length);
        }
        assertThat(f.tokenBudget()).isEqualTo(1);
        assertThat(f.budgetRestrictions()).isPositive();
        assertThat(f.nextTokenMask().stream().toArray()).containsExactly(a.vocabulary().eosIds());
        // rollback gives the tokens back
        f.rollback(2);
        assertThat(f.tokenBudget()).isEqualTo(3);
    }

    static final String SCHEMA = """
        {"type": "object",
         "properties": {
           "score": {"type": "number"},
           "tags": {"type": "array", "items": {"type": "string"}},
           "owner": {"type": "object",
                     "properties": {"name": {"type": "string"}, "age": {"type": "integer"},
                                    "address": {"type": "object", "properties": {"city": {"type": "string"}},
                                                "required": ["city"]}},
                     "required": ["name", "address"]},
           "points": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}}
         },
         "required": ["score", "tags", "owner"]}""";

    /**
     * Random sampling under the budgeted mask (uniform over allowed tokens, so numbers, arrays and
     * whitespace run long): every output ends at EOS within the budget and validates.
     */
    @Test void randomSamplingUnderABudgetAlwaysFinishesValid() throws Exception {
        Grammar g = JsonSchemaGrammar.from(SCHEMA, JsonSchemaOptions.defaults()).grammar();
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        ObjectMapper json = new ObjectMapper();
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(SCHEMA);
        Vocabulary v = a.vocabulary();
        int runs = Boolean.getBoolean("domino.test.long") ? 10 : 3;
        for (int budget : new int[] {64, 256}) {
            int restricted = 0;
            for (int run = 0; run < runs; run++) {
                Random random = new Random(budget * 100L + run);
                Matcher m = a.newMatcher();
                assertThat(m.setTokenBudget(budget)).isTrue();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int tokens = 0;
                while (!m.isTerminated()) {
                    BitSet mask = m.nextTokenMask();
                    assertThat(mask.cardinality()).as("a token fits after %s", out).isPositive();
                    int pick = pickShort(mask, v, random);
                    assertThat(m.acceptToken(pick)).isTrue();
                    tokens++;
                    if (!v.isEos(pick)) out.writeBytes(v.bytes(pick));
                }
                restricted += m.budgetRestrictions() > 0 ? 1 : 0;
                assertThat(tokens).isLessThanOrEqualTo(budget);
                String text = out.toString(StandardCharsets.UTF_8);
                JsonNode instance = json.readTree(text);
                assertThat(schema.validate(instance)).as(text).isEmpty();
            }
            assertThat(restricted).as("outputs where the budget restricted a mask, budget %d", budget).isPositive();
        }
    }

    /** A random allowed token, half the time EOS-free and among the longest few (to use up the budget). */
    static int pick(BitSet mask, Vocabulary v, Random random) {
        int[] ids = mask.stream().toArray();
        return ids[random.nextInt(ids.length)];
    }

    /**
     * A random allowed token among those of at most 3 bytes (digits, whitespace, brackets: what makes
     * outputs run long), EOS with small probability.
     */
    static int pickShort(BitSet mask, Vocabulary v, Random random) {
        List<Integer> shortOnes = new ArrayList<>();
        int eos = -1;
        for (int id = mask.nextSetBit(0); id >= 0; id = mask.nextSetBit(id + 1)) {
            if (v.isEos(id)) eos = id;
            else if (v.bytes(id).length <= 3) shortOnes.add(id);
        }
        if (eos >= 0 && (shortOnes.isEmpty() || random.nextInt(20) == 0)) return eos;
        if (shortOnes.isEmpty()) { int[] ids = mask.stream().toArray(); return ids[random.nextInt(ids.length)]; }
        return shortOnes.get(random.nextInt(shortOnes.size()));
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
