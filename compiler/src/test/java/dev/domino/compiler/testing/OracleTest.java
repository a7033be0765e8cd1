package dev.domino.compiler.testing;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.domino.compiler.ir.Expr.alt;
import static dev.domino.compiler.ir.Expr.literal;
import static dev.domino.compiler.ir.Expr.ref;
import static dev.domino.compiler.ir.Expr.seq;
import static dev.domino.compiler.ir.Expr.star;
import static dev.domino.compiler.testing.TestGrammars.cs;
import static dev.domino.compiler.testing.TestGrammars.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OracleTest {

    private static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) out[i] = (byte) b[i];
        return out;
    }

    /** Every byte prefix of {@code s} is viable, and all of it is a sentence. */
    private static void assertSentenceWithViablePrefixes(ByteEarleyOracle o, String s) {
        byte[] b = utf8(s);
        ByteEarleyOracle.State st = o.start();
        assertThat(o.isViable(st)).as("empty prefix of %s", s).isTrue();
        for (int i = 0; i < b.length; i++) {
            st = o.advance(st, new byte[] {b[i]});
            assertThat(o.isViable(st)).as("prefix of %d bytes of %s", i + 1, s).isTrue();
        }
        assertThat(o.isComplete(st)).as("sentence %s", s).isTrue();
        assertThat(o.isSentence(b)).isTrue();
    }

    // ------------------------------------------------------------------------------------------
    // UTF-8 ranges

    @Test
    void utf8SequencesMatchExactlyTheEncodingsOfTheSet() {
        Random rnd = new Random(1);
        List<CodePointSet> sets = new ArrayList<>(List.of(CodePointSet.ANY, CodePointSet.of(0x20AC),
                CodePointSet.range(0x7F, 0x800), CodePointSet.range(0xFFF, 0x10001), CodePointSet.range(0x3B1, 0x3C9)));
        for (int i = 0; i < 30; i++) {
            int a = rnd.nextInt(0x110000), b = rnd.nextInt(0x110000);
            int c = rnd.nextInt(0x3000);
            sets.add(CodePointSet.range(Math.min(a, b), Math.max(a, b)).union(CodePointSet.range(c, c + rnd.nextInt(300))));
        }
        for (CodePointSet set : sets) {
            List<int[]> seqs = Utf8Ranges.sequences(set);
            // every code point (sampled) of the set is matched by exactly one sequence; others by none
            for (int k = 0; k < 3000; k++) {
                int cp = rnd.nextInt(4) == 0 ? rnd.nextInt(0x800) : rnd.nextInt(0x110000);
                if (cp >= 0xD800 && cp <= 0xDFFF) continue;
                byte[] enc = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                long hits = seqs.stream().filter(q -> Utf8Ranges.matches(q, enc)).count();
                assertThat(hits).as("%s in %s", Integer.toHexString(cp), set).isEqualTo(set.contains(cp) ? 1 : 0);
            }
        }
        // For ANY: every 1..3 byte string is matched iff it is well-formed UTF-8 of one code point.
        List<int[]> any = Utf8Ranges.sequences(CodePointSet.ANY);
        for (int len = 1; len <= 3; len++) {
            // 3-byte strings: only E0..EF leads can be one code point (others are settled by len 1-2)
            int from = len == 3 ? 0xE00000 : 0, to = len == 3 ? 0xF00000 : 1 << (8 * len);
            for (int v = from; v < to; v++) {
                byte[] b = new byte[len];
                for (int k = 0; k < len; k++) b[k] = (byte) (v >> (8 * (len - 1 - k)));
                boolean matched = false;
                for (int[] q : any) if (Utf8Ranges.matches(q, b)) { matched = true; break; }
                assertThat(matched).as("bytes %02X..", b[0]).isEqualTo(isOneCodePoint(b));
            }
        }
    }

    /** Well-formed UTF-8 of exactly one code point: decoding round-trips (no U+FFFD substitution). */
    private static boolean isOneCodePoint(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        return s.codePointCount(0, s.length()) == 1 && java.util.Arrays.equals(s.getBytes(StandardCharsets.UTF_8), b);
    }

    // ------------------------------------------------------------------------------------------
    // Grammars

    @Test
    void jsonSentencesPrefixesAndRejections() {
        ByteEarleyOracle o = new ByteEarleyOracle(TestGrammars.json());
        for (String s : List.of("{}", " [1, -2.5e+3, \"a\\n\\u00e9\", true, null, {\"k\": []}] ", "\"€中😀\"", "0", "-0.0E1")) {
            assertSentenceWithViablePrefixes(o, s);
        }
        assertThat(o.isViablePrefix("{\"a\": [1, 2")).isTrue();
        assertThat(o.isSentence("{\"a\": [1, 2")).isFalse();
        for (String bad : List.of("}", "{,", "[1,]", "01", "[1 2", "tru e", "{\"a\" 1", "\"\u0001", "-.", "1.e", "[]]", "nul1")) {
            assertThat(o.isViablePrefix(bad)).as(bad).isFalse();
        }
        assertThat(o.isSentence("")).isFalse();
        assertThat(o.isViablePrefix("")).isTrue();
        assertThat(o.isSentence("[1,")).isFalse();
    }

    @Test
    void jsonAgreesWithJacksonOnSamplesAndMutations() throws Exception {
        Grammar g = TestGrammars.json();
        ByteEarleyOracle o = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g);
        ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        Random rnd = new Random(7);
        int accepted = 0, rejected = 0;
        for (int i = 0; i < 300; i++) {
            String s = sampler.sample(rnd);
            assertSentenceWithViablePrefixes(o, s);
            assertThat(jacksonAccepts(mapper, s)).as("jackson on %s", s).isTrue();
            String m = SentenceSampler.mutate(s, rnd);
            boolean oracle = o.isSentence(m);
            assertThat(oracle).as("oracle vs jackson on %s", m).isEqualTo(jacksonAccepts(mapper, m));
            if (oracle) accepted++; else rejected++;
        }
        assertThat(rejected).isGreaterThan(100);
        assertThat(accepted).isGreaterThan(5);
    }

    private static boolean jacksonAccepts(ObjectMapper mapper, String s) {
        try {
            JsonNode n = mapper.readTree(s);
            return n != null && !n.isMissingNode();
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void leftRecursiveArithmetic() {
        ByteEarleyOracle o = new ByteEarleyOracle(TestGrammars.arithmetic());
        for (String s : List.of("1", "1+2*3", "(1+2)*3-4/5", "((((7))))", "1-2-3-4-5-6")) assertSentenceWithViablePrefixes(o, s);
        for (String bad : List.of("+", "1++", "()", "1)", "(1+2))", "1 + 2")) assertThat(o.isViablePrefix(bad)).as(bad).isFalse();
        assertThat(o.isViablePrefix("((1+")).isTrue();
        assertThat(o.isSentence("((1+")).isFalse();
        regexAgreement(TestGrammars.arithmetic(), null, "0123456789+-*/()", 2000, 3);
    }

    @Test
    void ambiguousGrammarWithEpsilonIsAStar() {
        regexAgreement(TestGrammars.ambiguous(), "a*", "ab", 500, 4);
        ByteEarleyOracle o = new ByteEarleyOracle(TestGrammars.ambiguous());
        assertThat(o.isSentence("")).isTrue();
        // Long input stays cheap enough despite exponential ambiguity (Earley sets are bounded).
        assertThat(o.isSentence("a".repeat(200))).isTrue();
    }

    @Test
    void epsilonRules() {
        regexAgreement(TestGrammars.epsilon(), "e{0,2}xe?b*", "exb", 3000, 5);
        ByteEarleyOracle o = new ByteEarleyOracle(TestGrammars.epsilon());
        assertThat(o.isSentence("x")).isTrue();
        assertThat(o.isSentence("eexebbb")).isTrue();
        assertThat(o.isViablePrefix("eee")).isFalse();
    }

    @Test
    void regularGrammarsAgreeWithJavaRegex() {
        // (a|bc)*d?[x-z]{2,3}
        Grammar g1 = Grammar.of("r", rules("r", seq(star(alt(literal("a"), literal("bc"))),
                Expr.optional(literal("d")), new Expr.Repeat(cs('x', 'z'), 2, 3))));
        regexAgreement(g1, "(a|bc)*d?[x-z]{2,3}", "abcdxyzé", 5000, 4);
        // multi-byte: [a-zé€中😀]+(-[α-ω]{1,3})?
        regexAgreement(TestGrammars.multiByte(), "[a-zé€中😀]+(-[α-ω]{1,3})?", "abé€中😀-αωβ文", 5000, 4);
        // nested bounded repeats and empty alternatives
        Grammar g3 = Grammar.of("r", rules("r", new Expr.Repeat(alt(literal("ab"), Expr.EMPTY, seq(literal("c"), Expr.optional(literal("d")))), 1, 4)));
        regexAgreement(g3, "(ab||cd?){1,4}", "abcd", 5000, 3);
    }

    /**
     * Random strings over {@code alphabet}: sentence iff the regex matches; viable iff the regex
     * matches or hits the end of input (i.e. more input could still change the outcome).
     * With {@code regex == null} only consistency between viability and sentences is checked.
     */
    private static void regexAgreement(Grammar g, String regex, String alphabet, int n, int meanLen) {
        ByteEarleyOracle o = new ByteEarleyOracle(g);
        SentenceSampler sampler = new SentenceSampler(g);
        Pattern p = regex == null ? null : Pattern.compile(regex);
        int[] letters = alphabet.codePoints().toArray();
        Random rnd = new Random(regex == null ? 0 : regex.hashCode());
        for (int i = 0; i < n; i++) {
            String s;
            if (i % 3 == 0) {
                s = sampler.sample(rnd);
                assertSentenceWithViablePrefixes(o, s);
            } else if (i % 3 == 1) {
                s = SentenceSampler.mutate(sampler.sample(rnd), rnd);
            } else {
                StringBuilder sb = new StringBuilder();
                int len = rnd.nextInt(2 * meanLen + 1);
                for (int k = 0; k < len; k++) sb.appendCodePoint(letters[rnd.nextInt(letters.length)]);
                s = sb.toString();
            }
            ByteEarleyOracle.State st = o.advance(o.start(), utf8(s));
            if (o.isComplete(st)) assertThat(o.isViable(st)).isTrue();
            if (p != null) {
                Matcher m = p.matcher(s);
                boolean matches = m.matches();
                assertThat(o.isComplete(st)).as("sentence %s", s).isEqualTo(matches);
                assertThat(o.isViable(st)).as("viable %s", s).isEqualTo(matches || m.hitEnd());
            }
        }
    }

    @Test
    void utf8SplitsInsideCharacters() {
        ByteEarleyOracle o = new ByteEarleyOracle(TestGrammars.multiByte());
        // € = E2 82 AC: every proper prefix is viable
        assertThat(o.isViablePrefix(bytes(0xE2))).isTrue();
        assertThat(o.isViablePrefix(bytes(0xE2, 0x82))).isTrue();
        assertThat(o.isSentence(bytes(0xE2, 0x82))).isFalse();
        assertThat(o.isSentence(bytes(0xE2, 0x82, 0xAC))).isTrue();
        // right lead byte, wrong continuation (E2 83 .. is not €)
        assertThat(o.isViablePrefix(bytes(0xE2, 0x83))).isFalse();
        // 😀 = F0 9F 98 80
        assertThat(o.isViablePrefix(bytes('a', 0xF0, 0x9F, 0x98))).isTrue();
        assertThat(o.isViablePrefix(bytes('a', 0xF0, 0x9F, 0x98, 0x81))).isFalse();
        // é = C3 A9 then a non-continuation byte in place of A9
        assertThat(o.isViablePrefix(bytes(0xC3))).isTrue();
        assertThat(o.isViablePrefix(bytes(0xC3, 'a'))).isFalse();
        // a lone continuation byte is never viable
        assertThat(o.isViablePrefix(bytes(0xA9))).isFalse();
        // α-ω after '-': CE B1..CF 89
        assertThat(o.isViablePrefix(bytes('a', '-', 0xCF))).isTrue();
        assertThat(o.isViablePrefix(bytes('a', '-', 0xCF, 0x8A))).isFalse();

        ByteEarleyOracle any = new ByteEarleyOracle(TestGrammars.anyText());
        assertThat(any.isSentence(utf8("héllo €中😀"))).isTrue();
        assertThat(any.isViablePrefix(bytes(0xC0, 0x80))).isFalse();        // overlong NUL
        assertThat(any.isViablePrefix(bytes(0xC1))).isFalse();              // overlong lead
        assertThat(any.isViablePrefix(bytes(0xE0, 0x80))).isFalse();        // overlong 3-byte
        assertThat(any.isViablePrefix(bytes(0xED, 0xA0))).isFalse();        // surrogate
        assertThat(any.isViablePrefix(bytes(0xED, 0x9F, 0xBF))).isTrue();   // U+D7FF
        assertThat(any.isViablePrefix(bytes(0xF4, 0x8F))).isTrue();         // up to U+10FFFF
        assertThat(any.isViablePrefix(bytes(0xF4, 0x90))).isFalse();        // beyond U+10FFFF
        assertThat(any.isViablePrefix(bytes(0xF5))).isFalse();
        assertThat(any.isViablePrefix(bytes(0xFF))).isFalse();
        assertThat(any.isSentence(bytes(0xF0, 0x9F))).isFalse();
        BitSet first = new BitSet();
        first.set(0x00, 0x80);
        first.set(0xC2, 0xF5);
        assertThat(any.nextBytes(any.start())).isEqualTo(first);
        BitSet afterE0 = new BitSet();
        afterE0.set(0xA0, 0xC0);
        assertThat(any.nextBytes(any.advance(any.start(), bytes(0xE0)))).isEqualTo(afterE0);
        // nextBytes agrees with trying every byte
        ByteEarleyOracle.State st = o.advance(o.start(), "a-");
        for (int b = 0; b < 256; b++) assertThat(o.isViable(o.advance(st, b))).isEqualTo(o.nextBytes(st).get(b));
    }

    @Test
    void larkStyleLexicalRulesAndIgnoredText() {
        Grammar g = TestGrammars.lark();
        ByteEarleyOracle o = new ByteEarleyOracle(g);
        for (String s : List.of("[]", " [ ]\n", "[1,ab_cd, 22 ,x]", "[ # note\n 1 ]# end\n", "<true>", " < true > ",
                "[(1 2)]", "[(12)]" /* byte-level semantics: NUMBER NUMBER may split "12" */)) {
            assertSentenceWithViablePrefixes(o, s);
        }
        for (String bad : List.of("[1 2", "[a1", "[ab _cd", "[ab_ cd", "<tr ue", "<t rue", "[#x]", "[1,,")) {
            assertThat(o.isViablePrefix(bad)).as(bad).isFalse();
        }
        assertThat(o.isViablePrefix("[ab_")).isTrue();
        assertThat(o.isViablePrefix("[ab #c")).isTrue();
        assertThat(o.isSentence("[ab #c")).isFalse();
        assertThat(o.isSentence("[ab #c\n]")).isTrue();

        // Without %ignore, no whitespace anywhere.
        Grammar strict = new Grammar("start", g.rules(), g.rulePositions(), g.lexicalRules(), List.of());
        ByteEarleyOracle s = new ByteEarleyOracle(strict);
        assertThat(s.isSentence("[1,ab]")).isTrue();
        assertThat(s.isViablePrefix(" ")).isFalse();
        assertThat(s.isViablePrefix("[1 ")).isFalse();

        SentenceSampler sampler = new SentenceSampler(g).ignoreProbability(0.5);
        Random rnd = new Random(3);
        boolean sawIgnored = false;
        for (int i = 0; i < 300; i++) {
            String x = sampler.sample(rnd);
            sawIgnored |= x.contains(" ") || x.contains("#");
            assertSentenceWithViablePrefixes(o, x);
        }
        assertThat(sawIgnored).isTrue();
    }

    @Test
    void nullableAndMultiByteIgnoredTextAndLexicalStart() {
        // start is itself lexical; %ignore /[ \u3000]*/ is nullable (IGN -> IGN one with one =>* ε: a cycle)
        Grammar g = new Grammar("WORD", rules("WORD", Expr.plus(cs('a', 'z')), "SP", star(cs(' ', ' ', 0x3000, 0x3000))),
                java.util.Map.of(), java.util.Set.of("WORD", "SP"), List.of(ref("SP")));
        ByteEarleyOracle o = new ByteEarleyOracle(g);
        assertSentenceWithViablePrefixes(o, "\u3000 abc \u3000");
        assertThat(o.isViablePrefix("ab c")).isFalse();
        assertThat(o.isSentence("   ")).isFalse();
        assertThat(o.isViablePrefix(bytes(0xE3, 0x80))).isTrue();   // first two bytes of U+3000
        assertThat(o.isViablePrefix(bytes(0xE3, 0x80, 0x81))).isFalse();
        SentenceSampler sampler = new SentenceSampler(g).ignoreProbability(0.8);
        Random rnd = new Random(4);
        for (int i = 0; i < 100; i++) assertSentenceWithViablePrefixes(o, sampler.sample(rnd));
    }

    @Test
    void emptyLanguagesAndUnproductiveRules() {
        // r: "a" loop | "b" ; loop: "x" loop  (loop is unproductive: "a" must not be viable)
        Grammar g = Grammar.of("r", rules("r", alt(seq(literal("a"), ref("loop")), literal("b")),
                "loop", seq(literal("x"), ref("loop"))));
        ByteEarleyOracle o = new ByteEarleyOracle(g);
        assertThat(o.isViablePrefix("a")).isFalse();
        assertThat(o.isSentence("b")).isTrue();
        ByteEarleyOracle empty = new ByteEarleyOracle(Grammar.of("r", rules("r", Expr.NOTHING)));
        assertThat(empty.isViable(empty.start())).isFalse();
        assertThat(empty.isViablePrefix("")).isFalse();
        ByteEarleyOracle emptySet = new ByteEarleyOracle(Grammar.of("r", rules("r", seq(literal("q"), Expr.chars(CodePointSet.EMPTY)))));
        assertThat(emptySet.isViablePrefix("q")).isFalse();
        assertThatThrownBy(() -> new ByteEarleyOracle(Grammar.of("r", rules("r", ref("nope")))))
                .isInstanceOf(GrammarException.class);
    }

    @Test
    void statesAreReusableAndDeadStatesStayDead() {
        ByteEarleyOracle o = new ByteEarleyOracle(TestGrammars.arithmetic());
        ByteEarleyOracle.State p = o.advance(o.start(), utf8("(1+"));
        assertThat(o.isComplete(o.advance(p, utf8("2)")))).isTrue();
        assertThat(o.isViable(o.advance(p, utf8(")")))).isFalse();
        assertThat(o.isComplete(o.advance(p, utf8("3)*4")))).isTrue(); // p unchanged by earlier calls
        ByteEarleyOracle.State dead = o.advance(p, utf8("+"));
        assertThat(o.isViable(o.advance(dead, utf8("1")))).isFalse();
        assertThat(o.isComplete(dead)).isFalse();
        // bulk check: empty token keeps a viable state viable; a dead state allows nothing
        List<byte[]> toks = List.of(new byte[0], utf8("2"), utf8(")"), utf8("2)"), utf8("2))"), utf8("2)*"));
        assertThat(o.viableTokens(p, toks)).isEqualTo(BitSet.valueOf(new long[] {0b101011}));
        assertThat(o.viableTokens(dead, toks).isEmpty()).isTrue();
    }

    /**
     * The bulk check equals the per-token one over 10,000 random tokens from three prefixes. The
     * time-out is a hang guard against accidental blow-ups (a few seconds on a quiet machine), not a benchmark.
     */
    @Test
    @Timeout(value = 120)
    void manyTokensFromOnePrefix() {
        ByteEarleyOracle o = new ByteEarleyOracle(TestGrammars.json());
        Random rnd = new Random(11);
        String alphabet = "{}[]\",: 0123456789.-eEtrufalsn\\\n abcxyz€é中😀";
        int[] cps = alphabet.codePoints().toArray();
        List<byte[]> tokens = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = 1 + rnd.nextInt(6);
            for (int k = 0; k < len; k++) sb.appendCodePoint(cps[rnd.nextInt(cps.length)]);
            byte[] b = utf8(sb.toString());
            // sometimes cut inside a multi-byte character, like real BPE tokens do
            if (b.length > 1 && rnd.nextInt(8) == 0) b = java.util.Arrays.copyOf(b, b.length - 1);
            tokens.add(b);
        }
        for (String prefix : List.of("{\"key\": [1, 2, {\"a\": \"", "{\"key\": [1, 2, {\"a\": 1", "")) {
            ByteEarleyOracle.State st = o.advance(o.start(), utf8(prefix));
            BitSet one = new BitSet();
            for (int i = 0; i < tokens.size(); i++) if (o.isViable(o.advance(st, tokens.get(i)))) one.set(i);
            BitSet bulk = o.viableTokens(st, tokens);
            assertThat(bulk).isEqualTo(one);
            assertThat(one.cardinality()).isGreaterThan(0);
            // spot-check against recomputing from scratch
            for (int i = 0; i < 200; i++) {
                byte[] tok = tokens.get(i);
                byte[] all = java.util.Arrays.copyOf(utf8(prefix), utf8(prefix).length + tok.length);
                System.arraycopy(tok, 0, all, utf8(prefix).length, tok.length);
                assertThat(o.isViablePrefix(all)).isEqualTo(one.get(i));
            }
        }
    }
}
