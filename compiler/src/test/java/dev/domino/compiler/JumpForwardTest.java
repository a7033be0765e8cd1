package dev.domino.compiler;

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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import static dev.domino.compiler.ir.Expr.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Matcher#forcedBytes()} against the byte-level Earley oracle: at random byte prefixes of
 * sampled (and mutated) sentences, each forced byte is the only byte the oracle allows next and
 * the output cannot end before it, and after the forced bytes the output may end or two bytes
 * may follow (the string is the longest). Forced tokens spell a prefix of the forced bytes and
 * are each allowed.
 */
class JumpForwardTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    @Test void freeJson() { check(TestGrammars.json(), 25, 1, CompileOptions.defaults().withLazy(true)); }

    @Test void literalHeavyTemplate() {
        Map<String, Expr> r = new LinkedHashMap<>();
        CodePointSet letters = CodePointSet.range('a', 'z');
        r.put("root", seq(literal("<person>\n  <name>"), plus(chars(letters)), literal("</name>\n  <job>"),
                alt(literal("teacher"), literal("tester"), literal("doctor")), literal("</job>\n"),
                star(seq(literal("  <friend>"), ref("root"), literal("</friend>\n"))), literal("</person>")));
        check(Grammar.of("root", r), 25, 2, CompileOptions.defaults().withLazy(true));
    }

    @Test void compactJsonSchema() {
        String schema = """
                {"type": "object", "properties": {
                   "customer_name": {"type": "string"}, "kind": {"enum": ["retail", "wholesale"]},
                   "items": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "integer"}},
                             "required": ["sku"], "additionalProperties": false}}},
                 "required": ["customer_name", "kind", "items"], "additionalProperties": false}""";
        Grammar g = JsonSchemaGrammar.from(schema, JsonSchemaOptions.compact()
                .withPropertyOrder(JsonSchemaOptions.PropertyOrder.SCHEMA)).grammar();
        check(g, 25, 3, CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        Artifact a = GrammarCompiler.compile(g, o200k.vocabulary(), "t", "json-schema", schema,
                CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        Matcher m = a.newMatcher();
        assertThat(new String(m.forcedBytes(), StandardCharsets.UTF_8)).startsWith("{\"");
        assertThat(m.acceptString("{\"customer_name\":\"Ann\"")).isTrue();
        // the next key is required and keys are spelled plainly (--json-key-escapes plain): the whole key is forced
        assertThat(new String(m.forcedBytes(), StandardCharsets.UTF_8)).isEqualTo(",\"kind\":\"");
        assertThat(m.acceptString(",\"kind\":\"retail\",\"items\":[]}")).isTrue();
        assertThat(m.forcedBytes()).isEmpty(); // EOS may come
    }

    @Test void emptyAfterEosAndInTheErrorState() {
        Artifact a = GrammarCompiler.compile(GrammarSources.regexGrammar("abc(d|e)"), o200k.vocabulary(), "t", "regex", "", CompileOptions.defaults());
        Matcher m = a.newMatcher();
        assertThat(new String(m.forcedBytes(), StandardCharsets.UTF_8)).isEqualTo("abc");
        int[] tokens = m.forcedTokens();
        ByteArrayOutputStream spelled = new ByteArrayOutputStream();
        for (int t : tokens) spelled.writeBytes(a.vocabulary().bytes(t));
        assertThat("abc").startsWith(spelled.toString(StandardCharsets.UTF_8));
        m.setError("test");
        assertThat(m.forcedBytes()).isEmpty();
        assertThat(m.forcedTokens()).isEmpty();
    }

    static void check(Grammar g, int sentences, long seed, CompileOptions options) {
        Artifact artifact = GrammarCompiler.compile(g, o200k.vocabulary(), "test", "ir", "test", options);
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(60);
        Random random = new Random(seed);
        int nonEmpty = 0, checked = 0;
        for (int i = 0; i < sentences; i++) {
            String sentence = sampler.sample(random);
            if (i % 4 == 3) sentence = SentenceSampler.mutate(sentence, random);
            byte[] text = sentence.getBytes(StandardCharsets.UTF_8);
            for (int cut = 0; cut <= text.length; cut += 1 + random.nextInt(4)) {
                byte[] prefix = Arrays.copyOf(text, cut);
                ByteEarleyOracle.State state = oracle.advance(oracle.start(), prefix);
                Matcher m = artifact.newMatcher();
                boolean viable = m.acceptBytes(prefix);
                assertThat(viable).as("prefix %s", show(prefix)).isEqualTo(oracle.isViable(state));
                if (!viable) break;
                byte[] forced = m.forcedBytes();
                checked++;
                if (forced.length > 0) nonEmpty++;
                for (int k = 0; k < forced.length; k++) {
                    assertThat(oracle.isComplete(state)).as("output may end before forced byte %d after %s", k, show(prefix)).isFalse();
                    BitSet next = oracle.nextBytes(state);
                    assertThat(next.cardinality()).as("bytes after %s + %d forced", show(prefix), k).isEqualTo(1);
                    assertThat(next.nextSetBit(0)).isEqualTo(forced[k] & 0xFF);
                    state = oracle.advance(state, forced[k]);
                }
                assertThat(oracle.isComplete(state) || oracle.nextBytes(state).cardinality() != 1 || forced.length == Matcher.MAX_FORCED_BYTES)
                        .as("forced bytes after %s stop early: %s", show(prefix), show(forced)).isTrue();
                // forced tokens: each allowed in turn, together a prefix of the forced bytes
                Matcher f = m.fork();
                ByteArrayOutputStream spelled = new ByteArrayOutputStream();
                for (int t : m.forcedTokens()) {
                    assertThat(f.acceptToken(t)).isTrue();
                    spelled.writeBytes(artifact.vocabulary().bytes(t));
                }
                byte[] s = spelled.toByteArray();
                assertThat(Arrays.equals(s, 0, s.length, forced, 0, s.length)).isTrue();
                assertThat(m.isError()).isFalse();
            }
        }
        assertThat(checked).isGreaterThan(sentences);
        assertThat(nonEmpty).as("prefixes with forced bytes").isGreaterThan(0);
    }

    private static String show(byte[] b) { return "'" + new String(b, StandardCharsets.UTF_8) + "'"; }
}
