package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;
import dk.brics.automaton.Automaton;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-written byte DFA construction against two independent references: dk.brics.automaton
 * (minimal automata must be identical, state for state, after canonical numbering) and
 * java.util.regex on UTF-8 input.
 */
class DfaBuilderTest {
    @Test void agreesWithBricsOnRandomExpressions() {
        Random random = new Random(7);
        for (int i = 0; i < 400; i++) {
            Expr e = randomExpr(random, 4);
            DfaBuilder.Language ours = new DfaBuilder(name -> null).build(e);
            Automaton reference = new ByteAutomata(name -> null).build(e);
            boolean nullable = reference.run("");
            if (nullable) reference = ByteAutomata.withoutEmptyString(reference);
            ByteDfa expected = ByteAutomata.toByteDfa(reference);
            assertThat(ours.nullable()).as("nullable %s", e).isEqualTo(nullable);
            assertThat(ours.dfa()).as("automaton of %s", e).isEqualTo(expected);
        }
    }

    /**
     * Sequences built by joining their items' automata (see DfaBuilder#concatenation) equal the
     * subset construction of the whole, and brics: generated-grammar pieces (whitespace counters,
     * quoted keys, separators), where the joins apply, mixed with pieces where they do not.
     */
    @Test void joinedSequencesAgreeWithTheSubsetConstruction() {
        Random random = new Random(13);
        Expr ws = new Expr.Repeat(Expr.chars(CodePointSet.fromRanges(new int[] {'\t', '\n', '\r', '\r', ' ', ' '})), 0, 20);
        Expr[] pieces = {ws, Expr.literal("\"key\""), Expr.literal(":"), Expr.literal(","), Expr.literal("\""),
                Expr.plus(Expr.chars(CodePointSet.range('a', 'z'))), new Expr.Repeat(Expr.literal("ab"), 0, 3),
                Expr.literal(""), Expr.alt(Expr.literal("x"), Expr.literal(" ")), new Expr.Repeat(Expr.chars(CodePointSet.range('0', '9')), 1, 5)};
        int joined = 0;
        for (int i = 0; i < 300; i++) {
            List<Expr> items = new ArrayList<>();
            for (int k = 2 + random.nextInt(5); k > 0; k--) items.add(pieces[random.nextInt(pieces.length)]);
            Expr e = new Expr.Seq(items);
            DfaBuilder.Language whole;
            try {
                whole = new DfaBuilder(name -> null).buildBySubsets(e, 5000);
            } catch (DfaBuilder.TooLarge tooLarge) { // ambiguous counters next to each other: the bound holds both ways
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DfaBuilder(name -> null).build(e, 5000)).isInstanceOf(DfaBuilder.TooLarge.class);
                continue;
            }
            DfaBuilder.Language ours = new DfaBuilder(name -> null).build(e, 5000);
            assertThat(ours.nullable()).as("nullable %s", e).isEqualTo(whole.nullable());
            assertThat(ours.dfa()).as("automaton of %s", e).isEqualTo(whole.dfa());
            Automaton reference = new ByteAutomata(name -> null).build(e);
            if (reference.run("")) reference = ByteAutomata.withoutEmptyString(reference);
            assertThat(ours.dfa()).as("brics: automaton of %s", e).isEqualTo(reference.isEmpty() ? null : ByteAutomata.toByteDfa(reference));
            if (joinable(items)) joined++;
        }
        assertThat(joined).as("sequences where every boundary joins").isGreaterThan(30);
    }

    /** Whether the JSON-like pieces of the test join at every boundary (no shared byte at an accepting end). */
    private static boolean joinable(List<Expr> items) {
        DfaBuilder b = new DfaBuilder(name -> null);
        DfaBuilder.Sparse acc = null;
        for (Expr item : items) {
            DfaBuilder.Sparse d = b.subsetAutomaton(item);
            acc = acc == null ? d : DfaBuilder.join(acc, d);
            if (acc == null) return false;
        }
        return true;
    }

    /** A large literal set (a trie, 20,000 states) minimized against the reference; sparse and dense layouts step alike. */
    @Test void largeLiteralSetAgreesWithBrics() {
        Random random = new Random(11);
        List<Expr> words = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            StringBuilder w = new StringBuilder();
            for (int k = 3 + random.nextInt(10); k > 0; k--) w.append((char) ('a' + random.nextInt(random.nextBoolean() ? 3 : 26)));
            if (random.nextInt(10) == 0) w.append("é");
            words.add(Expr.literal(w.toString()));
        }
        Expr e = new Expr.Alt(words);
        DfaBuilder.Language ours = new DfaBuilder(name -> null).build(e, 1_000_000);
        ByteDfa expected = ByteAutomata.toByteDfa(new ByteAutomata(name -> null).build(e));
        assertThat(ours.dfa()).isEqualTo(expected);
        assertThat(ours.dfa().isDense()).isFalse();
        ByteDfa dense = ours.dfa().dense();
        for (int s = 0; s < dense.stateCount(); s++) {
            for (int b = 0; b < 256; b++) assertThat(ours.dfa().step(s, b)).isEqualTo(dense.step(s, b));
        }
    }

    @Test void buildBoundIsEnforced() {
        Expr ab = Expr.alt(Expr.literal("a"), Expr.literal("b"));
        Expr e = Expr.seq(Expr.star(ab), Expr.literal("a"), new Expr.Repeat(ab, 12, 12));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DfaBuilder(name -> null).build(e, 1000)).isInstanceOf(DfaBuilder.TooLarge.class);
    }

    /** Literals are made as chains directly: the same automata as the subset construction and the minimization give. */
    @Test void literalChainsEqualTheGeneralConstruction() {
        Random random = new Random(7);
        List<String> texts = new java.util.ArrayList<>(List.of("a", "\"key\"", "aaaa", "é", "中文", "😀x", "a\"b\\", "\u0000\n", "\ud800"));
        for (int i = 0; i < 300; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = 1 + random.nextInt(12); k > 0; k--) {
                int cp = random.nextInt(4) == 0 ? 0x80 + random.nextInt(0x10000) : 0x20 + random.nextInt(0x60);
                sb.appendCodePoint(cp >= 0xD800 && cp <= 0xDFFF ? 's' : cp);
            }
            texts.add(sb.toString());
        }
        for (String text : texts) {
            Expr.Literal l = (Expr.Literal) Expr.literal(text);
            DfaBuilder.Language direct = new DfaBuilder(name -> null).build(l, 4000);
            DfaBuilder.Language general = new DfaBuilder(name -> null).buildBySubsets(l, 4000);
            assertThat(direct.nullable()).isEqualTo(general.nullable()).isFalse();
            assertThat(direct.dfa()).as(text).isEqualTo(general.dfa());
            DfaBuilder.Sparse chain = DfaBuilder.literalChain(l, 4000).toSparse(), subsets = new DfaBuilder(name -> null).subsetAutomaton(l);
            assertThat(chain.count).isEqualTo(subsets.count);
            assertThat(Arrays.copyOf(chain.accepting, chain.count)).isEqualTo(Arrays.copyOf(subsets.accepting, subsets.count));
            assertThat(Arrays.copyOf(chain.rangeStart, chain.count + 1)).isEqualTo(Arrays.copyOf(subsets.rangeStart, subsets.count + 1));
            assertThat(Arrays.copyOf(chain.lo, chain.ranges)).isEqualTo(Arrays.copyOf(subsets.lo, subsets.ranges));
            assertThat(Arrays.copyOf(chain.hi, chain.ranges)).isEqualTo(Arrays.copyOf(subsets.hi, subsets.ranges));
            assertThat(Arrays.copyOf(chain.target, chain.ranges)).isEqualTo(Arrays.copyOf(subsets.target, subsets.ranges));
        }
        assertThat(DfaBuilder.literalChain((Expr.Literal) Expr.literal(""), 4000)).isNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DfaBuilder(name -> null).build(Expr.literal("abcd"), 4)).isInstanceOf(DfaBuilder.TooLarge.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DfaBuilder(name -> null).buildBySubsets(Expr.literal("abcd"), 4)).isInstanceOf(DfaBuilder.TooLarge.class);
        assertThat(new DfaBuilder(name -> null).build(Expr.literal("abc"), 4).dfa()).isEqualTo(new DfaBuilder(name -> null).buildBySubsets(Expr.literal("abc"), 4).dfa());
    }

    @Test void rangesAreValidated() {
        boolean[] acc = {false, true};
        int[] start = {0, 1, 1};
        assertThat(ByteDfa.ofRanges(2, 0, acc, start, new byte[] {'a'}, new byte[] {'z'}, new int[] {1}).matches("q".getBytes())).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ByteDfa.ofRanges(2, 0, acc, start, new byte[] {'z'}, new byte[] {'a'}, new int[] {1}))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ByteDfa.ofRanges(2, 0, acc, start, new byte[] {'a'}, new byte[] {'z'}, new int[] {2}))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ByteDfa.ofRanges(2, 0, acc, new int[] {0, 2, 1}, new byte[] {'a'}, new byte[] {'z'}, new int[] {1}))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ByteDfa.ofRanges(2, 0, acc, new int[] {0, 2, 2}, new byte[] {'a', 'c'}, new byte[] {'d', 'e'}, new int[] {1, 1}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test void agreesWithJavaRegexOnUtf8() {
        Expr e = Expr.seq(Expr.plus(Expr.chars(CodePointSet.fromRanges(new int[] {'a', 'c', 0xE9, 0xE9, 0x4E00, 0x4E2D, 0x1F600, 0x1F64F}))),
                Expr.optional(Expr.literal("—x")));
        Pattern p = Pattern.compile("[a-c\\u00e9\\u4e00-\\u4e2d\\x{1F600}-\\x{1F64F}]+(—x)?");
        ByteDfa dfa = new DfaBuilder(name -> null).build(e).dfa();
        String[] samples = {"abc", "é中😀", "a—x", "a—", "", "d", "😀😀—x", "ab—xx", "\u4e2e"};
        for (String s : samples) {
            assertThat(dfa.matches(s.getBytes(StandardCharsets.UTF_8))).as(s).isEqualTo(p.matcher(s).matches());
        }
    }

    @Test void sharedSubexpressionsAreBuiltOnce() {
        // a DAG: shared subexpressions are memoized as NFA templates and copied where used
        Expr e = Expr.literal("ab");
        for (int i = 0; i < 10; i++) e = Expr.alt(e, Expr.seq(e, Expr.literal("")));
        assertThat(new DfaBuilder(name -> null).build(e).dfa().stateCount()).isEqualTo(3);
    }

    @Test void resolvesRules() {
        Map<String, Expr> rules = Map.of("d", Expr.chars(CodePointSet.range('0', '9')));
        ByteDfa dfa = new DfaBuilder(rules::get).build(Expr.seq(Expr.ref("d"), Expr.star(Expr.ref("d")))).dfa();
        assertThat(dfa.matches("123".getBytes())).isTrue();
        assertThat(dfa.matches("".getBytes())).isFalse();
    }

    private static Expr randomExpr(Random r, int depth) {
        int k = depth == 0 ? r.nextInt(2) : r.nextInt(6);
        switch (k) {
            case 0: {
                String[] lits = {"a", "ab", "é", "中", "😀", "", "ba", "\\u"};
                return Expr.literal(lits[r.nextInt(lits.length)]);
            }
            case 1: {
                int lo = r.nextInt(3) == 0 ? 0x80 + r.nextInt(0x1000) : 'a' + r.nextInt(4);
                int hi = lo + r.nextInt(r.nextBoolean() ? 3 : 0x3000);
                CodePointSet s = CodePointSet.range(lo, hi);
                return Expr.chars(r.nextInt(5) == 0 ? s.complement() : s);
            }
            case 2: {
                List<Expr> items = new ArrayList<>();
                for (int i = r.nextInt(3) + 1; i > 0; i--) items.add(randomExpr(r, depth - 1));
                return new Expr.Seq(items);
            }
            case 3: {
                List<Expr> items = new ArrayList<>();
                for (int i = r.nextInt(3) + 1; i > 0; i--) items.add(randomExpr(r, depth - 1));
                return new Expr.Alt(items);
            }
            case 4: {
                int min = r.nextInt(3);
                int max = r.nextBoolean() ? Expr.Repeat.UNBOUNDED : min + r.nextInt(3);
                return new Expr.Repeat(randomExpr(r, depth - 1), min, max);
            }
            default:
                return Expr.EMPTY;
        }
    }
}
