package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.automata.ByteAutomata;
import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.algebra.CodePointDfa;
import dev.domino.compiler.jsonschema.algebra.ExprLanguage;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.runtime.internal.scan.ByteDfa;
import dk.brics.automaton.Automaton;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IR leaf {@link Expr.Automaton} against the expression it stands for: the same byte automaton
 * (so the same terminals and masks), the same JSON spellings, the same sentences for the byte-level
 * oracle, the reference matcher and the sampler; length analyses and derivatives agree.
 */
class AutomatonLeafTest {
    private static final String[] SAMPLES = {"", "a", "ab", "ba", "aab", "é", "中", "😀", "a😀", "\"", "\\", "/", "\n", "\u0001", "abé中", "x", "bb"};

    private static Expr leaf(Expr e) { return CodePointDfa.of(e).toLeaf(); }

    private static DfaBuilder.Language bytes(Expr e) { return new DfaBuilder(name -> null).build(e, 1_000_000); }

    @Test void leafCompilesToTheSameByteAutomatonAsItsExpression() {
        Random random = new Random(5);
        int leaves = 0;
        for (int i = 0; i < 300; i++) {
            Expr e = randomExpr(random, 4);
            Expr l = leaf(e);
            if (l instanceof Expr.Automaton) leaves++;
            DfaBuilder.Language a = bytes(e), b = bytes(l);
            assertThat(b.nullable()).as("nullable %s", e).isEqualTo(a.nullable());
            assertThat(b.dfa()).as("byte automaton of the leaf of %s", e).isEqualTo(a.dfa());
            // the reference construction (dk.brics) of the leaf agrees too
            if (b.dfa() != null) {
                Automaton ref = new ByteAutomata(name -> null).build(l);
                if (ref.run("")) ref = ByteAutomata.withoutEmptyString(ref);
                assertThat(b.dfa()).as("reference automaton of the leaf of %s", e).isEqualTo(ByteAutomata.toByteDfa(ref));
            }
            for (String s : SAMPLES) {
                assertThat(ExprMatcher.matches(l, s)).as("%s on %s", e, s).isEqualTo(ExprMatcher.matches(e, s));
                assertThat(ExprLanguage.matches(l, s)).as("%s on %s", e, s).isEqualTo(ExprMatcher.matches(e, s));
            }
            if (l instanceof Expr.Automaton) {
                assertThat(ExprLanguage.minLen(l)).as("min length of %s", e).isEqualTo(ExprLanguage.minLen(e));
                assertThat(ExprLanguage.maxLen(l)).as("max length of %s", e).isEqualTo(ExprLanguage.maxLen(e));
            }
        }
        assertThat(leaves).isGreaterThan(100);
    }

    /** Equal languages give equal leaves (minimal, canonically numbered), whatever automaton they came from. */
    @Test void leavesAreCanonical() {
        Expr a = Expr.seq(Expr.star(Expr.alt(Expr.literal("a"), Expr.literal("b"))), Expr.literal("b"));
        Expr b = Expr.alt(Expr.literal("b"), Expr.seq(Expr.plus(Expr.chars(CodePointSet.range('a', 'b'))), Expr.literal("b")));
        assertThat(leaf(a)).isEqualTo(leaf(b));
        assertThat(((Expr.Automaton) leaf(a)).dfa().stateCount()).isEqualTo(2);
        // a state's ranges merge across code points that lead to the same place
        CodePointAutomaton.Builder builder = new CodePointAutomaton.Builder();
        int s = builder.addState(false), t = builder.addState(true), u = builder.addState(true);
        builder.addRange(s, 'a', 'c', t);
        builder.addRange(s, 'd', 'f', u);
        CodePointAutomaton merged = builder.build();
        assertThat(merged.stateCount()).isEqualTo(2);
        assertThat(merged.rangeCount()).isEqualTo(1);
        assertThat(merged.matches("e")).isTrue();
    }

    /** The JSON spellings of a leaf (built directly as an automaton) are those of the expression, every escape and surrogate pair. */
    @Test void jsonEncodingOfALeafEqualsThatOfTheExpression() {
        Random random = new Random(9);
        for (int i = 0; i < 200; i++) {
            Expr e = i < 4 ? fixedForEscapes(i) : randomExpr(random, 3);
            Expr l = leaf(e);
            for (boolean all : new boolean[] {true, false}) {
                DfaBuilder.Language expected = bytes(JsonStrings.encodeRegex(e, all));
                DfaBuilder.Language actual = bytes(JsonStrings.encodeRegex(l, all));
                assertThat(actual.nullable()).as("nullable %s", e).isEqualTo(expected.nullable());
                assertThat(actual.dfa()).as("JSON spellings (all %s) of %s", all, e).isEqualTo(expected.dfa());
            }
        }
    }

    private static Expr fixedForEscapes(int i) {
        return switch (i) {
            case 0 -> Expr.star(Expr.chars(CodePointSet.ANY));
            case 1 -> Expr.alt(Expr.literal("a\"b"), Expr.literal("\\/"), Expr.literal("\n\u0001\u001f"), Expr.literal("😀"), Expr.literal("\uFFFF"));
            case 2 -> Expr.plus(Expr.chars(CodePointSet.range(0x1F000, 0x10FFFF).union(CodePointSet.range(0, 0x30))));
            default -> Expr.seq(Expr.chars(CodePointSet.range(0xE000, 0x10400)), Expr.chars(CodePointSet.of(0x10FFFF)));
        };
    }

    /** The byte-level oracle and the sampler on a grammar with a leaf, against the same grammar with the expression. */
    @Test void oracleAndSamplerAgreeOnLeafAndExpression() {
        Random random = new Random(13);
        for (int i = 0; i < 60; i++) {
            Expr e = randomExpr(random, 3);
            Expr l = leaf(e);
            Grammar withExpr = Grammar.of("root", Map.of("root", Expr.seq(Expr.literal("<"), e, Expr.literal(">"))));
            Grammar withLeaf = Grammar.of("root", Map.of("root", Expr.seq(Expr.literal("<"), l, Expr.literal(">"))));
            ByteEarleyOracle a = new ByteEarleyOracle(withExpr), b = new ByteEarleyOracle(withLeaf);
            for (String s : SAMPLES) {
                String text = "<" + s + ">";
                assertThat(b.isSentence(text)).as("%s on %s", e, s).isEqualTo(a.isSentence(text));
                assertThat(b.isViablePrefix("<" + s)).as("%s on prefix %s", e, s).isEqualTo(a.isViablePrefix("<" + s));
            }
            SentenceSampler sampler = new SentenceSampler(withLeaf);
            if (sampler.languageIsEmpty()) {
                assertThat(new SentenceSampler(withExpr).languageIsEmpty()).isTrue();
                continue;
            }
            for (int k = 0; k < 10; k++) {
                String sample = sampler.sample(random);
                assertThat(a.isSentence(sample)).as("sample %s of %s", sample, e).isTrue();
            }
        }
    }

    /** Derivatives and length restriction (LengthBounds) treat a leaf as its language. */
    @Test void lengthBoundsOnALeaf() {
        Expr e = Expr.seq(Expr.star(Expr.chars(CodePointSet.range('a', 'c'))), Expr.literal("c"), Expr.optional(Expr.literal("😀")));
        Expr l = leaf(e);
        Expr restricted = LengthBounds.restrict(l, 2, 4);
        assertThat(restricted).isNotNull();
        assertThat(bytes(restricted).dfa()).isEqualTo(bytes(CodePointDfa.of(e).intersect(CodePointDfa.lengths(2, 4)).toLeaf()).dfa());
    }

    /** The complement of a 60-value enum: a leaf of a few hundred states where state elimination passed 50,000 nodes. */
    @Test void complementOfALargeEnumIsALeaf() {
        List<Expr> values = new ArrayList<>();
        Random random = new Random(3);
        for (int i = 0; i < 60; i++) {
            StringBuilder w = new StringBuilder();
            for (int k = 2 + random.nextInt(8); k > 0; k--) w.append((char) ('a' + random.nextInt(26)));
            values.add(Expr.literal(w.toString()));
        }
        CodePointDfa complement = CodePointDfa.of(new Expr.Alt(values)).complement();
        Expr l = complement.toLeaf();
        assertThat(l).isInstanceOf(Expr.Automaton.class);
        for (Expr v : values) assertThat(ExprLanguage.matches(l, ((Expr.Literal) v).text())).isFalse();
        assertThat(ExprLanguage.matches(l, "")).isTrue();
        assertThat(ExprLanguage.matches(l, "zzzzzzzzzzzz")).isTrue();
        ByteDfa d = bytes(JsonStrings.encodeRegex(l, true)).dfa();
        assertThat(d.matches("ab\\u0063".getBytes())).isEqualTo(!values.contains(Expr.literal("abc")));
    }

    static Expr randomExpr(Random r, int depth) {
        int k = depth == 0 ? r.nextInt(2) : r.nextInt(6);
        switch (k) {
            case 0: {
                String[] lits = {"a", "ab", "é", "中", "😀", "", "ba", "\"", "\\", "\n"};
                return Expr.literal(lits[r.nextInt(lits.length)]);
            }
            case 1: {
                int lo = r.nextInt(3) == 0 ? 0x80 + r.nextInt(0x1000) : 'a' + r.nextInt(4);
                int hi = lo + r.nextInt(r.nextBoolean() ? 3 : 0x3000);
                if (r.nextInt(6) == 0) { lo = 0xF000 + r.nextInt(0x2000); hi = lo + r.nextInt(0x20000); }
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
