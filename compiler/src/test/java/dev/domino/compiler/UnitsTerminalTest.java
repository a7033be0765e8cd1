package dev.domino.compiler;

import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.strings.JsonStrings;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A pattern under length bounds as one counted terminal ({@link Expr.Units}): masks and completion
 * against the byte-level oracle on sampled strings, their prefixes and strings around the bounds,
 * including patterns whose lengths have gaps ((ab)+ with minLength 3) and whose shortest completion
 * needs several more characters near maxLength.
 */
class UnitsTerminalTest {
    static final Expr JSON_CHAR = JsonStrings.encodeSet(CodePointSet.ANY, true);

    static Grammar units(String pattern, int min, int max) {
        Expr text = JsonStrings.encodeRegex(RegexParser.parseSearch(pattern, RegexParser.Flavor.ECMA).expr(), true);
        Map<String, Expr> rules = new LinkedHashMap<>();
        rules.put("root", Expr.seq(Expr.literal("\""), new Expr.Units(text, JSON_CHAR, min, max, "test"), Expr.literal("\"")));
        return Grammar.of("root", rules);
    }

    static final Object[][] CASES = {
        {"^(\\d+\\.\\d+\\.\\d+.*)$", 0, 32, "1.2.3-beta"},
        {"^(ab)+$", 3, 9, "ababab"},
        {"^[a-z]{2,5}x$", 0, 4, "abx"},
        {"^\\S+@\\S+$", 5, 40, "a@b.co"},
        {".+[@].+[.]___", 10, 30, "ab@cd.___"},
        {"^a*$", 1, 20, "aaa"},
        {"^a*$", 0, 20, ""},
        {"^[é€😀x]+$", 2, 17, "é€😀"},
        {"^([\\w\\/-]|[\\w-][\\w\\/-]*[\\w-])$", 0, 12, "a/b-c"},
    };

    @Test void masksMatchTheOracle() {
        // a hang guard, not a speed bound: the byte-level oracle takes about 11 s here on a loaded 2-core machine
        assertTimeoutPreemptively(Duration.ofMinutes(10), () -> {
            Vocabulary vocab = RuntimeFixturesTest.smallVocabulary();
            int[] stops = vocab.eosIds();
            Random random = new Random(7);
            for (Object[] c : CASES) {
                String pattern = (String) c[0];
                int min = (Integer) c[1], max = (Integer) c[2];
                Grammar g = units(pattern, min, max);
                Artifact a = GrammarCompiler.compile(g, vocab, "units", "ir", pattern,
                        CompileOptions.defaults().withLazy(true).withPrebuildMillis(0).withFineTerminals(true));
                ByteEarleyOracle oracle = new ByteEarleyOracle(g, vocab);
                SentenceSampler sampler = new SentenceSampler(g);
                java.util.List<String> texts = new java.util.ArrayList<>();
                texts.add("\"" + c[3] + "\"");
                for (int i = 0; i < 6; i++) texts.add(sampler.sample(random));
                // around the bounds: a unit repeated, doubled letters of the example
                String unit = ((String) c[3]).isEmpty() ? "a" : ((String) c[3]).substring(0, 1);
                for (int n : new int[] {Math.max(0, min - 1), min, max, max + 1}) texts.add("\"" + unit.repeat(n) + "\"");
                for (String text : texts) check(pattern, a, oracle, stops, vocab, text);
            }
        });
    }

    /** At every byte prefix of text: same viability, completion and mask as the oracle. */
    static void check(String pattern, Artifact a, ByteEarleyOracle oracle, int[] stops, Vocabulary vocab, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Matcher m = a.newMatcher();
        ByteEarleyOracle.State s = oracle.start();
        for (int i = 0; i <= bytes.length; i++) {
            String at = pattern + " at " + i + " of " + text;
            assertThat(m.isAccepting()).as("complete: %s", at).isEqualTo(oracle.isComplete(s));
            int[] mask = new int[m.bitmaskInts()];
            m.fillNextTokenBitmask(mask, 0);
            BitSet actual = new BitSet();
            for (int t = 0; t < vocab.size(); t++) if ((mask[t >>> 5] >>> t & 1) != 0) actual.set(t);
            assertThat(actual).as("mask: %s", at).isEqualTo(oracle.allowedTokens(s, stops));
            if (i == bytes.length) break;
            s = oracle.advance(s, bytes[i] & 0xFF);
            boolean ok = m.acceptBytes(new byte[] {bytes[i]});
            assertThat(ok).as("byte: %s", at).isEqualTo(oracle.isViable(s));
            if (!ok) break;
        }
    }

    /** Through the JSON Schema front-end: what unrolling refused compiles (dev-set cases). */
    @Test void refusedCombinationsCompile() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (String schema : new String[] {
                    "{\"type\":\"string\",\"pattern\":\"^(\\\\d+\\\\.\\\\d+\\\\.\\\\d+.*)$\",\"maxLength\":32}",
                    // 320: RFC 5321's longest mailbox (64 + 1 + 255); the exact email (quoted local parts, IPv6
                    // literals: 1,024 to 2,044 states as JSON string content) times 1,025 lengths is over the limit
                    "{\"type\":\"string\",\"format\":\"email\",\"maxLength\":320}",
                    "{\"type\":\"string\",\"pattern\":\".+[@].+[.]___\",\"minLength\":10,\"maxLength\":200}"}) {
                Grammar g = JsonSchemaGrammar.from(schema).grammar();
                assertThat(dev.domino.compiler.lexer.TerminalDerivation.deriveFine(g).terminals()).as(schema).isNotEmpty();
            }
        });
    }
}
