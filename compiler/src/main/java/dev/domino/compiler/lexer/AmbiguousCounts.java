package dev.domino.compiler.lexer;

import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.automata.RelativeCounts;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Function;

/**
 * Counted repeats {@code B{m,n}} (m ≤ 1, n large) whose body splits a string several ways
 * ({@code "a" | [0-9]+}: "12" is one copy or two) as one counted terminal: the least-count loop
 * automaton of {@link RelativeCounts} in its one-byte-lag form, with unit boundaries and final
 * weights for the runtime's {@link CountedLoop} (see docs/counted-repeats.md). Nested counts arrive
 * folded ({@code (B{0,20}){0,15}} is {@code B{0,300}}, see RepeatClosure). Instead of the exact
 * counting automaton (one state per count reached, each with its own tree) or counted parser rules
 * (every split a parse).
 */
public final class AmbiguousCounts {
    /** Counts below this stay as they were (one terminal of the exact automaton, or parser rules). */
    public static final int MIN_COUNT = 16;
    private static volatile int minCount = MIN_COUNT;

    /** Tests: counted terminals from this count on (small counts put the bounds within a few tokens); returns the one before. */
    public static int setMinCountForTests(int count) {
        int before = minCount;
        minCount = count;
        return before;
    }
    /** Tests: grouped repeats (see GroupedCounts) are split out even when one exact terminal would do. */
    private static volatile boolean groupsAlways;

    /** Tests: see {@link #groupsAlways}; returns the value before. */
    public static boolean setGroupsAlwaysForTests(boolean always) {
        boolean was = groupsAlways;
        groupsAlways = always;
        return was;
    }

    /**
     * States of the body's automaton allowed: building the loop costs its states × 256 bytes × the
     * pairs of body states in each, so bounded bodies keep a grammar's compile time bounded.
     */
    static final int MAX_BODY_STATES = 256;
    /** States of the loop (lagged form, at least the least-count automaton's) allowed: each has up to two trees. */
    static final int MAX_LOOP_STATES = 256;

    /**
     * The counted terminal {@code B{1,n}} of a repeat, optional when the repeat allows no copy.
     *
     * @param weights per loop state, what an end there adds to the count (0 where it cannot end)
     */
    record Counter(ByteDfa loop, boolean[] boundaries, int[] weights, int max, boolean optional) {
        /** Equal counters make one terminal. */
        List<Object> key() { return List.of(loop, max, Arrays.toString(boundaries), Arrays.toString(weights)); }
    }

    private final Function<Expr, DfaBuilder.Language> languageOf;
    private final java.util.function.Predicate<Expr> refFree;
    /** Rule bodies by name for the regular rules (null for others). */
    private final Function<String, Expr> regularRule;
    private final IdentityHashMap<Expr, Counter> counters = new IdentityHashMap<>();
    private final IdentityHashMap<Expr, Boolean> holds = new IdentityHashMap<>();

    /**
     * @param languageOf  the language of a reference-free expression, null when too large
     * @param refFree     whether an expression refers to no rule
     * @param regularRule the body of a regular rule, null for a rule that is not
     */
    AmbiguousCounts(Function<Expr, DfaBuilder.Language> languageOf, java.util.function.Predicate<Expr> refFree, Function<String, Expr> regularRule) {
        this.languageOf = languageOf;
        this.refFree = refFree;
        this.regularRule = regularRule;
    }

    /**
     * True when e is such a repeat or a sequence or alternative (through regular rules) holding one
     * outside any other repeat: e is then better split so that the repeat becomes its counted terminal.
     * Under a repeat that does not fold into it, the repeat is left as it was (the parser would see
     * one counted terminal after another: ambiguous again).
     */
    boolean holds(Expr e) {
        Boolean known = holds.get(e);
        if (known != null) return known;
        holds.put(e, false); // guards recursion through rules
        boolean h = false;
        if (e instanceof Expr.Repeat r) h = of(r) != null || groupsAlways && GroupedCounts.of(r, this, languageOf, Long.MAX_VALUE) != null;
        else if (e instanceof Expr.Seq s) { for (Expr i : s.items()) if (holds(i)) { h = true; break; } }
        else if (e instanceof Expr.Alt a) { for (Expr o : a.options()) if (holds(o)) { h = true; break; } }
        else if (e instanceof Expr.Ref ref) { Expr body = regularRule.apply(ref.name()); h = body != null && holds(body); }
        holds.put(e, h);
        return h;
    }

    /** e, or the body of the regular rule it names (through at most a few names), as written. */
    Expr resolve(Expr e) {
        for (int i = 0; i < 16 && e instanceof Expr.Ref ref; i++) {
            Expr body = regularRule.apply(ref.name());
            if (body == null) return e;
            e = body;
        }
        return e;
    }

    /** The counter of repeat r, or null when it does not qualify. */
    Counter of(Expr.Repeat r) {
        if (counters.containsKey(r)) return counters.get(r);
        Counter c = null;
        try {
            c = build(r);
        } catch (DfaBuilder.TooLarge | IllegalStateException | IllegalArgumentException tooLarge) {
            c = null;
        }
        counters.put(r, c);
        return c;
    }

    /**
     * The counter of {@code body{0,max}} for a count past the written one (the least count of a
     * group's words, see GroupedCounts), or null when the body does not qualify.
     */
    Counter widened(Expr body, int max) {
        try {
            return build(body, 0, max);
        } catch (DfaBuilder.TooLarge | IllegalStateException | IllegalArgumentException tooLarge) {
            return null;
        }
    }

    private Counter build(Expr.Repeat r) { return build(r.body(), r.min(), r.max()); }

    private Counter build(Expr bodyExpr, int min, int max) {
        if (max == Expr.Repeat.UNBOUNDED || max < minCount || min > 1 || !refFree.test(bodyExpr)) return null;
        DfaBuilder.Language body = languageOf.apply(bodyExpr);
        if (body == null || body.dfa() == null || body.dfa().stateCount() > MAX_BODY_STATES) return null;
        if (!body.nullable() && prefixFree(body.dfa())) return null; // one unit per copy: the plain counted terminal
        // B{0,n} with ε in B is (B minus ε){0,n}: the loop counts non-empty copies, the terminal is optional
        RelativeCounts a = RelativeCounts.of(new DfaBuilder.Language(body.dfa(), false), 1, max, MAX_LOOP_STATES);
        RelativeCounts.Lagged lagged = a.lagged();
        if (lagged == null || lagged.stateCount() > MAX_LOOP_STATES) return null;
        int n = lagged.stateCount();
        if ((long) (max + 1) * n > CountedLoop.MAX_STATES) return null;
        ByteDfa loop = lagged.dfa();
        int[] weights = lagged.finalWeights();
        // the runtime's check, here: every loop state can still finish within max
        new CountedLoop(loop, lagged.boundary(), weights, 1, max);
        return new Counter(loop, lagged.boundary().clone(), weights, max, min == 0 || body.nullable());
    }

    /** True when no match is a proper prefix of another: accepting states have no way on. */
    static boolean prefixFree(ByteDfa dfa) {
        for (int s = 0; s < dfa.stateCount(); s++) {
            if (!dfa.isAccepting(s)) continue;
            for (int b = 0; b < 256; b++) if (dfa.step(s, b) >= 0) return false;
        }
        return true;
    }
}
