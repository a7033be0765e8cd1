package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.parse.EarleyParser;
import dev.domino.runtime.internal.parse.EarleyState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parser's closure memo (a set's own predicted items shared by the nonterminals predicted)
 * against closures computed in full: along random terminal sequences, the
 * states of the shared generation and those of a root that shares nothing must hold the same items,
 * their origins corresponding step for step, expect the same terminals and accept alike. Also with
 * three threads walking one shared generation at once. Masks over these states are compared with
 * the byte-level oracle by {@link DirectMaskOracleTest} and {@link OracleMaskTest}.
 */
class ClosureMemoDuelTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    static final String SCHEMA = """
            {"type": "object", "properties": {
               "items": {"type": "array", "items": {"type": "object", "properties": {
                   "id": {"type": "integer"}, "name": {"type": "string"}, "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}},
                   "child": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "boolean"}}, "required": ["x"]}},
                 "required": ["id"], "additionalProperties": false}},
               "kind": {"enum": ["one", "two", "three"]},
               "meta": {"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 1, "maxProperties": 3},
               "n": {"type": "integer"}},
             "required": ["items"], "additionalProperties": false}""";

    @Test void schemaWithPermutations() {
        duel(compile(JsonSchemaGrammar.from(SCHEMA).grammar()), 1, 300, 201);
    }

    /**
     * Objects open to other members, alternatives of several such objects, nested: a value position
     * predicts hundreds of items, so states hold shared own items whose indexes serve scans and
     * completions (sets over {@code EarleyParser.INDEXED_ITEMS} items).
     */
    @Test void largeSetsOfOpenAlternatives() {
        StringBuilder defs = new StringBuilder();
        int kinds = 6;
        for (int k = 0; k < kinds; k++) {
            if (k > 0) defs.append(',');
            defs.append("\"k").append(k).append("\": {\"type\": \"object\", \"required\": [\"type\"], \"properties\": {\"type\": {\"enum\": [\"K")
                    .append(k).append("\"]}, \"id\": {\"type\": \"string\"}, \"n").append(k).append("\": {\"type\": \"number\"}, \"child\": {\"$ref\": \"#/definitions/any\"}, ")
                    .append("\"list\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/definitions/k").append((k + 1) % kinds).append("\"}}}}");
        }
        StringBuilder any = new StringBuilder("\"any\": {\"oneOf\": [");
        for (int k = 0; k < kinds; k++) any.append(k > 0 ? ", " : "").append("{\"$ref\": \"#/definitions/k").append(k).append("\"}");
        any.append("]}");
        String schema = "{\"$ref\": \"#/definitions/any\", \"definitions\": {" + defs + ", " + any + "}}";
        SHARED_STATES.set(0);
        duel(compile(JsonSchemaGrammar.from(schema).grammar()), 1, 200, 206);
        duel(compile(JsonSchemaGrammar.from(schema).grammar()), 3, 80, 207);
        assertThat(SHARED_STATES.get()).as("states pointing to shared own items").isPositive();
    }

    /** States seen along the walks that point to shared own items. */
    static final java.util.concurrent.atomic.AtomicLong SHARED_STATES = new java.util.concurrent.atomic.AtomicLong();

    @Test void ambiguousGrammars() {
        duel(compile(TestGrammars.json()), 1, 150, 202);
        duel(compile(TestGrammars.ambiguousExpr()), 1, 150, 203);
        duel(compile(TestGrammars.wordSoup()), 1, 150, 204);
    }

    @Test void threadsSharingOneGeneration() {
        duel(compile(JsonSchemaGrammar.from(SCHEMA).grammar()), 3, 150, 205);
    }

    private static EarleyParser compile(Grammar g) {
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withPrebuildMillis(0));
        return RuntimeAccess.of(a).parser();
    }

    /** Runs {@code walks} random walks on each of {@code threads} threads. */
    private static void duel(EarleyParser parser, int threads, int walks, long seed) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long threadSeed = seed * 31 + t;
                futures.add(pool.submit(() -> {
                    Random random = new Random(threadSeed);
                    for (int w = 0; w < walks; w++) walk(parser, random, 80);
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get(5, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new AssertionError(e.getCause() != null ? e.getCause() : e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One walk of random expected terminals from both roots; the shared generation's states checked against the full closures'. */
    private static void walk(EarleyParser parser, Random random, int steps) {
        EarleyState full = parser.initialUnshared(), shared = parser.initial();
        Map<EarleyState, EarleyState> twin = new IdentityHashMap<>(); // state of the full closures -> the shared one
        twin.put(full, shared);
        assertSame(full, shared, twin);
        for (int step = 0; step < steps; step++) {
            int[] expected = terminals(full.expected);
            if (expected.length == 0) break;
            int t = expected[random.nextInt(expected.length)];
            EarleyState fullNext = parser.scan(full, t), sharedNext = parser.scan(shared, t);
            if (parser.isDead(fullNext)) {
                assertThat(parser.isDead(sharedNext)).isTrue();
                break;
            }
            assertSame(fullNext, sharedNext, twin);
            EarleyState before = twin.putIfAbsent(fullNext, sharedNext);
            if (before != null) assertThat(before).isSameAs(sharedNext);
            full = fullNext;
            shared = sharedNext;
            if (shared.sharedItemCount() > 0) SHARED_STATES.incrementAndGet();
        }
    }

    private static void assertSame(EarleyState full, EarleyState shared, Map<EarleyState, EarleyState> twin) {
        assertThat(shared.itemCount()).isEqualTo(full.itemCount());
        assertThat(shared.expected).isEqualTo(full.expected);
        assertThat(shared.isAccepting()).isEqualTo(full.isAccepting());
        int n = full.itemCount();
        int[] rules = new int[n];
        EarleyState[] origins = new EarleyState[n];
        long[][] seen = new long[n][];
        boolean anySeen = false;
        for (int i = 0; i < n; i++) {
            assertThat(shared.rule(i)).as("rule of item " + i).isEqualTo(full.rule(i));
            assertThat(shared.seenAt(i)).as("members seen by item " + i).isEqualTo(full.seenAt(i));
            if (full.origin(i) == null) {
                assertThat(shared.origin(i)).isNull();
            } else {
                assertThat(shared.origin(i)).as("origin of item " + i).isSameAs(twin.get(full.origin(i)));
            }
            rules[i] = shared.rule(i);
            origins[i] = shared.origin(i);
            seen[i] = shared.seenAt(i);
            anySeen |= seen[i] != null;
        }
        // a state that points to shared own items equals, and hashes as, the same items held in full arrays
        EarleyState rebuilt = new EarleyState(rules, origins, anySeen ? seen : null, shared.expected, shared.isAccepting());
        assertThat(rebuilt.hashCode()).as("hash against full arrays").isEqualTo(shared.hashCode());
        assertThat(rebuilt).isEqualTo(shared);
        assertThat(shared).isEqualTo(rebuilt);
        if (n > 0) { // and differs from the same items with one rule changed
            int[] other = rules.clone();
            other[n - 1]++;
            assertThat(shared).isNotEqualTo(new EarleyState(other, origins, anySeen ? seen : null, shared.expected, shared.isAccepting()));
        }
    }

    /**
     * Unions of two sets at one position (the scans of two different terminals from one set), merged in
     * canonical order where they share their own items ({@code SortedUnion}), against the union of all their
     * items hashed into a new set: equal items, hash, expected terminals and acceptance.
     */
    @Test void unionsMergedInOrderEqualUnionsInFull() {
        StringBuilder defs = new StringBuilder();
        int kinds = 5;
        for (int k = 0; k < kinds; k++) {
            if (k > 0) defs.append(',');
            defs.append("\"k").append(k).append("\": {\"type\": \"object\", \"required\": [\"type\"], \"properties\": {\"type\": {\"enum\": [\"K")
                    .append(k % 2).append("\"]}, \"id\": {\"type\": \"string\"}, \"n").append(k).append("\": {\"type\": \"number\"}, \"child\": {\"$ref\": \"#/definitions/any\"}}}");
        }
        StringBuilder any = new StringBuilder("\"any\": {\"anyOf\": [");
        for (int k = 0; k < kinds; k++) any.append(k > 0 ? ", " : "").append("{\"$ref\": \"#/definitions/k").append(k).append("\"}");
        any.append("]}");
        String schema = "{\"$ref\": \"#/definitions/any\", \"definitions\": {" + defs + ", " + any + "}}";
        for (Grammar g : List.of(JsonSchemaGrammar.from(schema).grammar(), JsonSchemaGrammar.from(SCHEMA).grammar(), TestGrammars.ambiguousExpr())) {
            EarleyParser parser = compile(g);
            Random random = new Random(208);
            int merged = 0;
            for (int w = 0; w < 100; w++) {
                EarleyState s = random.nextBoolean() ? parser.initial() : parser.initialUnshared();
                for (int step = 0; step < 60; step++) {
                    int[] expected = terminals(s.expected);
                    if (expected.length == 0) break;
                    EarleyState a = parser.scan(s, expected[random.nextInt(expected.length)]);
                    EarleyState b = parser.scan(s, expected[random.nextInt(expected.length)]);
                    EarleyState union = parser.union(a, b), reference = parser.unionInFull(a, b);
                    assertThat(union).isEqualTo(reference);
                    assertThat(union.hashCode()).isEqualTo(reference.hashCode());
                    assertThat(union.expected).isEqualTo(reference.expected);
                    assertThat(union.isAccepting()).isEqualTo(reference.isAccepting());
                    for (int i = 0; i < union.itemCount(); i++) {
                        assertThat(union.origin(i)).as("origin of item " + i).isSameAs(reference.origin(i));
                    }
                    if (a != b && !parser.isDead(a) && !parser.isDead(b) && union.sharedItemCount() > 0) merged++;
                    s = parser.isDead(a) ? b : a;
                    if (parser.isDead(s)) break;
                }
            }
            assertThat(merged).as("unions kept shared own items").isPositive();
        }
    }

    private static int[] terminals(long[] bits) {
        int n = 0;
        for (long w : bits) n += Long.bitCount(w);
        int[] out = new int[n];
        int k = 0;
        for (int w = 0; w < bits.length; w++) {
            for (long b = bits[w]; b != 0; b &= b - 1) out[k++] = (w << 6) + Long.numberOfTrailingZeros(b);
        }
        return out;
    }
}
