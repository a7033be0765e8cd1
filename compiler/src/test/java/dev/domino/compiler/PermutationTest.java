package dev.domino.compiler;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.domino.compiler.ir.Expr.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Members in any order ({@link Expr.Perm}): the fast masks against the byte-level oracle on random
 * prefixes of objects with many members (required and optional, with and without "other"
 * members), and the semantics on hand-picked sentences.
 */
class PermutationTest {
    @org.junit.jupiter.api.BeforeAll static void load() { OracleMaskTest.load(); }

    private static final Expr WS = star(chars(CodePointSet.fromRanges(new int[] {' ', ' ', '\n', '\n'})));
    private static final Expr DIGITS = plus(chars(CodePointSet.fromRanges(new int[] {'0', '9'})));

    /**
     * {@code { k0: v, k1: v, ... }} with n members, member i required when {@code required(i)};
     * with {@code other}, keys {@code "x<digits>"} may come any number of times.
     */
    static Grammar object(int n, java.util.function.IntPredicate required, boolean other) {
        return object(n, required, other, 0, Repeat.UNBOUNDED);
    }

    /** The same, with between minCount and maxCount members (declared and other together). */
    static Grammar object(int n, java.util.function.IntPredicate required, boolean other, int minCount, int maxCount) {
        Map<String, Expr> r = new LinkedHashMap<>();
        List<Perm.Member> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Expr value = i % 3 == 0 ? ref("value") : i % 3 == 1 ? DIGITS : alt(literal("true"), literal("false"));
            members.add(new Perm.Member(seq(literal("\"k" + i + "\""), WS, literal(":"), WS, value), required.test(i)));
        }
        Expr otherMember = other ? seq(literal("\"x"), DIGITS, literal("\""), WS, literal(":"), WS, ref("value")) : NOTHING;
        r.put("root", seq(literal("{"), WS, new Perm(members, otherMember, seq(WS, literal(","), WS), minCount, maxCount), WS, literal("}")));
        r.put("value", alt(DIGITS, literal("null"), seq(literal("["), optional(seq(ref("value"), star(seq(literal(","), ref("value"))))), literal("]"))));
        return Grammar.of("root", r);
    }

    @Test void fortyMembersSomeRequiredWithOthers() {
        Grammar g = object(40, i -> i % 7 == 3, true);
        OracleMaskTest.check(g, 8, 71, CompileOptions.defaults().withLazy(true).withFineTerminals(true), true);
        OracleMaskTest.check(g, 4, 72, CompileOptions.defaults().withLazy(true));
    }

    @Test void twoHundredMembersAllOptional() {
        OracleMaskTest.check(object(200, i -> false, false), 6, 73, CompileOptions.defaults().withLazy(true).withFineTerminals(true));
    }

    @Test void twoHundredMembersManyRequired() {
        OracleMaskTest.check(object(200, i -> i % 4 == 1, true), 4, 74, CompileOptions.defaults().withLazy(true).withFineTerminals(true));
    }

    /** No separator, a nonterminal separator, nested permutations, and every member required. */
    @Test void shapes() {
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", ref("p"));
        r.put("p", new Perm(List.of(new Perm.Member(literal("a"), true), new Perm.Member(literal("b"), false),
                new Perm.Member(seq(literal("("), ref("q"), literal(")")), false)), literal("z"), EMPTY));
        r.put("q", new Perm(List.of(new Perm.Member(literal("c"), true), new Perm.Member(literal("dd"), true),
                new Perm.Member(seq(literal("["), ref("p"), literal("]")), false)), NOTHING, ref("sep")));
        r.put("sep", alt(literal(";"), seq(literal(","), WS)));
        Grammar g = Grammar.of("root", r);
        OracleMaskTest.check(g, 12, 75, CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        OracleMaskTest.check(g, 12, 76, CompileOptions.defaults());
        Artifact a = GrammarCompiler.compile(g, OracleMaskTest.o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        for (String s : new String[] {"a", "ba", "zazbz", "(c;dd)a", "(dd, c)za", "(c;dd;[a])a", "zz", "", "ab a", "aa", "abb",
                "(c)a", "(c;dd;)a", "(c;dd;dd)a", "a(dd;[b(c;dd)a];c)"}) {
            Matcher m = a.newMatcher();
            boolean ok = m.acceptString(s) && m.isAccepting();
            assertThat(ok).as(s).isEqualTo(oracle.isSentence(s));
        }
        assertThat(oracle.isSentence("a(dd;[b(c;dd)a];c)")).isTrue();
        assertThat(oracle.isSentence("aa")).isFalse();
        assertThat(oracle.isSentence("(c;dd;)a")).isFalse();
    }

    @Test void semanticsOnAnObject() {
        Grammar g = object(5, i -> i == 2, true);
        Artifact a = GrammarCompiler.compile(g, OracleMaskTest.o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true).withFineTerminals(true));
        String[][] cases = {
                {"{\"k2\": true}", "true"},
                {"{\"k4\": 7, \"x1\": null, \"k2\": false, \"k0\": [1]}", "true"},
                {"{\"x9\": 1, \"x9\": 2, \"k2\": true}", "true"},
                {"{\"k0\": 1, \"k1\": 2}", "false"},             // k2 is required
                {"{\"k2\": true, \"k2\": true}", "false"},       // at most once
                {"{\"k2\": true,}", "false"},
                {"{}", "false"},
                {"{\"k1\": 1, \"k3\": 2, \"k2\": true, \"k0\": 4, \"k4\": 5}", "true"},
        };
        for (String[] c : cases) {
            Matcher m = a.newMatcher();
            assertThat(m.acceptString(c[0]) && m.isAccepting()).as(c[0]).isEqualTo(Boolean.parseBoolean(c[1]));
        }
        // every member seen and no other: a comma would lead nowhere, so it is not offered
        Grammar closed = object(3, i -> true, false);
        Artifact b = GrammarCompiler.compile(closed, OracleMaskTest.o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        Matcher m = b.newMatcher();
        assertThat(m.acceptString("{\"k2\": false, \"k0\": 1, \"k1\": 2")).isTrue();
        assertThat(m.tryAcceptToken(OracleMaskTest.o200k.encode(",")[0])).isFalse();
        assertThat(m.acceptString("}")).isTrue();
        assertThat(m.isAccepting()).isTrue();
    }

    @Test void sampledSentencesUseEachMemberOnce() {
        Grammar g = object(12, i -> i < 3, true);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(400);
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        Random random = new Random(7);
        for (int i = 0; i < 50; i++) {
            String s = sampler.sample(random);
            assertThat(oracle.isSentence(s)).as(s).isTrue();
            for (int k = 0; k < 12; k++) {
                int first = s.indexOf("\"k" + k + "\"");
                assertThat(first < 0 || s.indexOf("\"k" + k + "\"", first + 1) < 0).as(s).isTrue();
                if (k < 3) assertThat(first).as(s).isGreaterThanOrEqualTo(0);
            }
        }
    }

    @Test void membersMatchingTheEmptyStringAreAnError() {
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", new Perm(List.of(new Perm.Member(optional(literal("a")), false), new Perm.Member(literal("b"), false)), NOTHING, literal(",")));
        assertThatThrownBy(() -> GrammarCompiler.compile(Grammar.of("root", r), OracleMaskTest.o200k.vocabulary(), "t", "ir", "t",
                CompileOptions.defaults().withLazy(true))).isInstanceOf(GrammarException.class).hasMessageContaining("empty string");
    }

    /** Member counts (minProperties/maxProperties): masks against the oracle, with and without others and required members. */
    @Test void countedMasksMatchTheOracle() {
        CompileOptions fine = CompileOptions.defaults().withLazy(true).withFineTerminals(true);
        OracleMaskTest.check(object(6, i -> i == 1, true, 3, 5), 10, 81, fine, true);
        OracleMaskTest.check(object(12, i -> false, false, 2, 4), 10, 82, fine);
        OracleMaskTest.check(object(5, i -> i % 2 == 0, false, 4, Repeat.UNBOUNDED), 8, 83, CompileOptions.defaults().withLazy(true));
        OracleMaskTest.check(object(4, i -> false, true, 7, Repeat.UNBOUNDED), 6, 84, fine);   // minCount above the members: others fill
        OracleMaskTest.check(list(object(4, i -> false, true, 0, 0)), 4, 85, fine);            // maxCount 0: only {}
        OracleMaskTest.check(object(70, i -> i % 9 == 0, true, 10, 12), 6, 86, fine);         // two words of members seen
        OracleMaskTest.check(object(3, i -> true, false, 0, 3), 6, 87, fine);                  // maxCount = every member
    }

    /** {@code [o, o, ...]}: a list of g's sentences, so that short ones give enough prefixes to check. */
    static Grammar list(Grammar g) {
        Map<String, Expr> r = new LinkedHashMap<>(g.rules());
        r.put("list", seq(literal("["), ref(g.start()), star(seq(literal(","), ref(g.start()))), literal("]")));
        return Grammar.of("list", r);
    }

    @Test void countedSemantics() {
        String[][] cases = {
                // 4 members (k1 required), others allowed, 2..3 members in all
                {"{\"k1\": 1}", "false"},
                {"{\"x1\": 1, \"k1\": 2}", "true"},
                {"{\"x1\": 1, \"x2\": 2, \"k1\": 2}", "true"},
                {"{\"x1\": 1, \"x2\": 2, \"x3\": 3, \"k1\": 2}", "false"},
                {"{\"k0\": 1, \"k2\": true, \"k3\": 4}", "false"},  // k1 missing
                {"{\"k3\": 1, \"k1\": 2, \"k0\": null}", "true"},
                {"{}", "false"},
        };
        Grammar g = object(4, i -> i == 1, true, 2, 3);
        Artifact a = GrammarCompiler.compile(g, OracleMaskTest.o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults().withLazy(true));
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        for (String[] c : cases) {
            Matcher m = a.newMatcher();
            boolean expected = Boolean.parseBoolean(c[1]);
            assertThat(m.acceptString(c[0]) && m.isAccepting()).as(c[0]).isEqualTo(expected);
            assertThat(oracle.isSentence(c[0])).as(c[0]).isEqualTo(expected);
            assertThat(ExprMatcher.matches(g, c[0])).as(c[0]).isEqualTo(expected);
        }
        // at the maximum with k1 still missing, only k1 may follow; at the maximum with k1 seen, no comma
        Matcher m = a.newMatcher();
        assertThat(m.acceptString("{\"x1\": 1, \"x2\": 2, \"")).isTrue();
        assertThat(m.acceptString("x")).isFalse();
        assertThat(m.acceptString("k0")).isFalse();
        assertThat(m.acceptString("k1\": 3")).isTrue();
        assertThat(m.tryAcceptToken(OracleMaskTest.o200k.encode(",")[0])).isFalse();
        assertThat(m.acceptString("}") && m.isAccepting()).isTrue();
    }

    @Test void countsThatCannotBeMetLeaveNoSentence() {
        // minCount above the number of members, no others: the object never finishes
        Grammar g = object(3, i -> false, false, 4, Repeat.UNBOUNDED);
        assertThat(new ByteEarleyOracle(g).isSentence("{\"k0\": 1, \"k1\": 2, \"k2\": true}")).isFalse();
        assertThatThrownBy(() -> GrammarCompiler.compile(g, OracleMaskTest.o200k.vocabulary(), "t", "ir", "t",
                CompileOptions.defaults().withLazy(true))).isInstanceOf(GrammarException.class);
    }

    @Test void sampledCountedSentencesKeepTheCounts() {
        Grammar g = object(8, i -> i < 2, true, 3, 5);
        SentenceSampler sampler = new SentenceSampler(g).maxLength(400);
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        Random random = new Random(9);
        for (int i = 0; i < 50; i++) {
            String s = sampler.sample(random);
            assertThat(oracle.isSentence(s)).as(s).isTrue();
            int members = (int) s.chars().filter(c -> c == '"').count() / 2; // keys are the only strings
            assertThat(members).as(s).isBetween(3, 5);
        }
    }
}
