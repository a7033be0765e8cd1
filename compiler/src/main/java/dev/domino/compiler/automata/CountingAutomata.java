package dev.domino.compiler.automata;

import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Exact automata of reference-free expressions with counted repeats, composed from the minimal
 * automata of their parts instead of unrolling copies. Why: the subset construction of
 * {@code (B){0,n}} unrolls n copies of B, and when B splits several ways ({@code "a" | [0-9]+}:
 * "12" is one copy or two) a subset holds one NFA state per copy that could be current, so nested
 * bounded repeats cost copies × states per subset, and the size estimate sends them to the parser.
 *
 * <p>{@code B{m,n}} is determinized over B's minimal automaton D: a state is the set of pairs
 * (state of D in the current copy, copies started), which is exact (a string is in the language
 * iff some pair is accepting in D with a count in [m, n]). When m ≤ 1 (after a nullable B is
 * made non-nullable, which sets m to 0: empty copies pad any count up to m) only the least count
 * per D state matters: a non-empty string uses at least one copy, and a pair with fewer copies
 * accepts every continuation one with more does. Sequences and alternatives are the subset and
 * product constructions over their parts' automata. Every result is minimized, so equal languages
 * give equal automata (as from {@link DfaBuilder}).
 */
public final class CountingAutomata {
    /** Repeat counts up to this are left to {@link DfaBuilder} (unrolled copies are cheap). */
    public static final int SMALL_COUNT = 8;

    private final DfaBuilder leaves;
    private final Function<String, Expr> rules;
    private final int maxStates;
    private final IdentityHashMap<Expr, DfaBuilder.Language> built = new IdentityHashMap<>();
    private final IdentityHashMap<Expr, Boolean> counted = new IdentityHashMap<>();

    /**
     * @param rules     a Ref's (regular, non-recursive) rule body
     * @param maxStates bound on the states of every automaton built on the way ({@link DfaBuilder.TooLarge} past it)
     */
    public CountingAutomata(Function<String, Expr> rules, int maxStates) {
        this.rules = rules;
        this.leaves = new DfaBuilder(rules);
        this.maxStates = maxStates;
    }

    /** True when e holds a repeat whose count is past {@link #SMALL_COUNT} (references followed). */
    public boolean hasCountedRepeat(Expr e) {
        Boolean known = counted.get(e);
        if (known != null) return known;
        counted.put(e, false); // guards recursion through references
        boolean c;
        if (e instanceof Expr.Seq s) c = s.items().stream().anyMatch(this::hasCountedRepeat);
        else if (e instanceof Expr.Alt a) c = a.options().stream().anyMatch(this::hasCountedRepeat);
        else if (e instanceof Expr.Repeat r) c = (r.max() != Expr.Repeat.UNBOUNDED && r.max() > SMALL_COUNT) || r.min() > SMALL_COUNT || hasCountedRepeat(r.body());
        else if (e instanceof Expr.Ref ref) { Expr body = rules.apply(ref.name()); c = body != null && hasCountedRepeat(body); }
        else c = false;
        counted.put(e, c);
        return c;
    }

    /**
     * True when e holds a counted repeat (past {@link #SMALL_COUNT}) whose body splits in more than one
     * way: nullable, or some match a proper prefix of another ({@code [0-9]+}, {@code [a-z]{1,5}}).
     * A prefix-free body's copies are found by one deterministic counter (the compiler's counted
     * terminals); the others are what this construction is for. False when a body is too large.
     */
    public boolean hasAmbiguousCount(Expr e) {
        Boolean known = ambiguous.get(e);
        if (known != null) return known;
        ambiguous.put(e, false);
        boolean a = false;
        if (!hasCountedRepeat(e)) a = false;
        else if (e instanceof Expr.Seq s) a = s.items().stream().anyMatch(this::hasAmbiguousCount);
        else if (e instanceof Expr.Alt alt) a = alt.options().stream().anyMatch(this::hasAmbiguousCount);
        else if (e instanceof Expr.Ref ref) a = hasAmbiguousCount(rules.apply(ref.name()));
        else if (e instanceof Expr.Repeat r) {
            a = hasAmbiguousCount(r.body());
            if (!a && ((r.max() != Expr.Repeat.UNBOUNDED && r.max() > SMALL_COUNT) || r.min() > SMALL_COUNT)) {
                try {
                    DfaBuilder.Language body = build(r.body());
                    a = body.dfa() != null && (body.nullable() || !prefixFree(body.dfa()));
                } catch (DfaBuilder.TooLarge tooLarge) {
                    a = false;
                }
            }
        }
        ambiguous.put(e, a);
        return a;
    }

    private final IdentityHashMap<Expr, Boolean> ambiguous = new IdentityHashMap<>();

    private static boolean prefixFree(ByteDfa dfa) {
        for (int s = 0; s < dfa.stateCount(); s++) {
            if (!dfa.isAccepting(s)) continue;
            for (int b = 0; b < 256; b++) if (dfa.step(s, b) >= 0) return false;
        }
        return true;
    }

    /** The language of e (nullable apart, as {@link DfaBuilder#build}); {@link DfaBuilder.TooLarge} past the bound. */
    public DfaBuilder.Language build(Expr e) {
        DfaBuilder.Language l = built.get(e);
        if (l != null) return l;
        dev.domino.compiler.CompileLimits.checkClock();
        if (!hasCountedRepeat(e)) l = leaves.build(e, maxStates);
        else if (e instanceof Expr.Ref ref) l = build(rules.apply(ref.name()));
        else if (e instanceof Expr.Repeat r) {
            try {
                l = repeat(build(r.body()), r.min(), r.max());
            } catch (DfaBuilder.TooLarge tooLarge) {
                // sets of counts (min ≥ 2) can outgrow the unrolled copies' subsets: try those
                if (r.min() <= 1 || hasCountedRepeat(r.body())) throw tooLarge;
                l = leaves.build(e, maxStates);
            }
        }
        else if (e instanceof Expr.Alt a) {
            for (Expr o : a.options()) { DfaBuilder.Language x = build(o); l = l == null ? x : union(l, x); }
        } else if (e instanceof Expr.Seq s) {
            List<Expr> run = new ArrayList<>();
            for (Expr item : s.items()) {
                if (!hasCountedRepeat(item)) { run.add(item); continue; }
                if (!run.isEmpty()) { l = append(l, leaves.build(run.size() == 1 ? run.get(0) : new Expr.Seq(List.copyOf(run)), maxStates)); run.clear(); }
                l = append(l, build(item));
            }
            if (!run.isEmpty()) l = append(l, leaves.build(run.size() == 1 ? run.get(0) : new Expr.Seq(List.copyOf(run)), maxStates));
        } else l = leaves.build(e, maxStates);
        built.put(e, l);
        return l;
    }

    private DfaBuilder.Language append(DfaBuilder.Language left, DfaBuilder.Language right) { return left == null ? right : concat(left, right); }

    // ------------------------------------------------------------ views of languages

    /** A language as an automaton whose extra last state is a start that accepts when the language is nullable. */
    private record View(ByteDfa d, boolean nullable) {
        int start() { return d == null ? 0 : d.stateCount(); }
        int step(int s, int b) { return d == null ? -1 : d.step(s == d.stateCount() ? d.start() : s, b); }
        boolean accepting(int s) { return s == start() ? nullable : d.isAccepting(s); }
        int states() { return d == null ? 1 : d.stateCount() + 1; }
    }

    private static View view(DfaBuilder.Language l) { return new View(l.dfa(), l.nullable()); }

    /** Byte classes: b starts a class when some state of some view steps differently on b and b - 1. */
    private static boolean[] boundaries(View... views) {
        boolean[] cut = new boolean[257];
        cut[0] = cut[256] = true;
        for (View v : views) {
            for (int s = 0; s < v.states(); s++) {
                int prev = v.step(s, 0);
                for (int b = 1; b < 256; b++) { int t = v.step(s, b); if (t != prev) cut[b] = true; prev = t; }
            }
        }
        return cut;
    }

    /** A deterministic automaton given by its states as int arrays. */
    private interface Configs {
        int[] start();
        /** The successor on byte b, or null when no string goes on. */
        int[] step(int[] config, int b);
        boolean accepting(int[] config);
    }

    private record Key(int[] a) {
        @Override public boolean equals(Object o) { return o instanceof Key k && Arrays.equals(a, k.a); }
        @Override public int hashCode() { return Arrays.hashCode(a); }
    }

    /** The reachable part of c, breadth first, minimized. */
    private DfaBuilder.Language determinize(Configs c, boolean[] cut) {
        Map<Key, Integer> ids = new HashMap<>();
        List<int[]> states = new ArrayList<>();
        states.add(c.start());
        ids.put(new Key(c.start()), 0);
        DfaBuilder.Sparse d = new DfaBuilder.Sparse();
        for (int i = 0; i < states.size(); i++) {
            if ((i & 1023) == 1023) dev.domino.compiler.CompileLimits.checkClock();
            int[] config = states.get(i);
            for (int lo = 0; lo < 256; ) {
                int hi = lo;
                while (!cut[hi + 1]) hi++;
                int[] next = c.step(config, lo);
                if (next != null) {
                    Integer id = ids.get(new Key(next));
                    if (id == null) {
                        if (states.size() >= maxStates) throw new DfaBuilder.TooLarge(maxStates);
                        id = states.size();
                        ids.put(new Key(next), id);
                        states.add(next);
                    }
                    d.addRange(lo, hi, id);
                }
                lo = hi + 1;
            }
            d.endState(c.accepting(config));
        }
        return DfaBuilder.finish(d);
    }

    // ------------------------------------------------------------ operations

    /** A ∪ B: pairs of states (-1 where one side is dead). */
    DfaBuilder.Language union(DfaBuilder.Language a, DfaBuilder.Language b) {
        View x = view(a), y = view(b);
        return determinize(new Configs() {
            public int[] start() { return new int[] {x.start(), y.start()}; }
            public int[] step(int[] c, int byteValue) {
                int p = c[0] < 0 ? -1 : x.step(c[0], byteValue), q = c[1] < 0 ? -1 : y.step(c[1], byteValue);
                return p < 0 && q < 0 ? null : new int[] {p, q};
            }
            public boolean accepting(int[] c) { return (c[0] >= 0 && x.accepting(c[0])) || (c[1] >= 0 && y.accepting(c[1])); }
        }, boundaries(x, y));
    }

    /** A · B: a state of A (or -1) and the sorted set of B's states that may be current. */
    DfaBuilder.Language concat(DfaBuilder.Language a, DfaBuilder.Language b) {
        View x = view(a), y = view(b);
        boolean[] mark = new boolean[y.states()];
        return determinize(new Configs() {
            public int[] start() { return x.accepting(x.start()) ? new int[] {x.start(), y.start()} : new int[] {x.start()}; }
            public int[] step(int[] c, int byteValue) {
                int p = c[0] < 0 ? -1 : x.step(c[0], byteValue);
                int n = 0;
                int[] out = new int[c.length + 1];
                for (int i = 1; i < c.length; i++) { int q = y.step(c[i], byteValue); if (q >= 0 && !mark[q]) { mark[q] = true; out[1 + n++] = q; } }
                if (p >= 0 && x.accepting(p) && !mark[y.start()]) { mark[y.start()] = true; out[1 + n++] = y.start(); }
                for (int i = 1; i <= n; i++) mark[out[i]] = false;
                if (p < 0 && n == 0) return null;
                out[0] = p;
                Arrays.sort(out, 1, 1 + n);
                return Arrays.copyOf(out, 1 + n);
            }
            public boolean accepting(int[] c) {
                for (int i = 1; i < c.length; i++) if (y.accepting(c[i])) return true;
                return false;
            }
        }, boundaries(x, y));
    }

    /**
     * B{m,n} (n may be {@link Expr.Repeat#UNBOUNDED}). A state is {@code [init, q0, c0, q1, c1, ...]}:
     * init 1 only before the first byte; pairs (state of B's automaton in the current copy, copies
     * started), sorted; with m ≤ 1 one pair per state of B, its least count. Counts stop at n, or at m
     * without a maximum (all counts from m on are alike).
     */
    DfaBuilder.Language repeat(DfaBuilder.Language body, int min, int max) {
        boolean bounded = max != Expr.Repeat.UNBOUNDED;
        if (body.dfa() == null || (bounded && max == 0)) {
            boolean empty = min == 0 || body.nullable();
            return new DfaBuilder.Language(null, empty);
        }
        int m = body.nullable() ? 0 : min; // empty copies pad any count up to m (m ≤ n)
        int cap = bounded ? max : Math.max(m, 1);
        boolean least = m <= 1;
        ByteDfa d = body.dfa();
        int n = d.stateCount();
        int[] best = new int[n];
        Arrays.fill(best, Integer.MAX_VALUE);
        View v = new View(d, false);
        return determinize(new Configs() {
            public int[] start() { return new int[] {1}; }
            public int[] step(int[] c, int b) {
                List<int[]> pairs = new ArrayList<>();
                int first = d.step(d.start(), b);
                if (c[0] == 1 && first >= 0) add(pairs, first, 1);
                for (int i = 1; i < c.length; i += 2) {
                    int q = c[i], k = c[i + 1];
                    int q2 = d.step(q, b);
                    if (q2 >= 0) add(pairs, q2, k);
                    if (first >= 0 && d.isAccepting(q)) {
                        int k2 = k + 1;
                        if (!bounded) k2 = Math.min(k2, cap);
                        else if (k2 > cap) continue;
                        add(pairs, first, k2);
                    }
                }
                if (pairs.isEmpty()) return null;
                int[] out;
                if (least) {
                    for (int[] p : pairs) best[p[0]] = Math.min(best[p[0]], p[1]);
                    List<Integer> qs = new ArrayList<>();
                    for (int[] p : pairs) if (best[p[0]] != Integer.MAX_VALUE) { qs.add(p[0]); qs.add(best[p[0]]); best[p[0]] = Integer.MAX_VALUE; }
                    out = new int[1 + qs.size()];
                    for (int i = 0; i < qs.size(); i++) out[1 + i] = qs.get(i);
                    sortPairs(out);
                } else {
                    pairs.sort((p, q) -> p[0] != q[0] ? Integer.compare(p[0], q[0]) : Integer.compare(p[1], q[1]));
                    List<int[]> distinct = new ArrayList<>();
                    for (int[] p : pairs) if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), p)) distinct.add(p);
                    out = new int[1 + 2 * distinct.size()];
                    for (int i = 0; i < distinct.size(); i++) { out[1 + 2 * i] = distinct.get(i)[0]; out[2 + 2 * i] = distinct.get(i)[1]; }
                }
                return out;
            }
            public boolean accepting(int[] c) {
                if (c[0] == 1) return m == 0;
                for (int i = 1; i < c.length; i += 2) if (d.isAccepting(c[i]) && c[i + 1] >= m) return true;
                return false;
            }
        }, boundaries(v));
    }

    private static void add(List<int[]> pairs, int q, int k) { pairs.add(new int[] {q, k}); }

    /** Sorts the pairs of {@code [init, q0, c0, ...]} by state (states are distinct). */
    private static void sortPairs(int[] a) {
        int pairs = (a.length - 1) / 2;
        long[] packed = new long[pairs];
        for (int i = 0; i < pairs; i++) packed[i] = ((long) a[1 + 2 * i] << 32) | (a[2 + 2 * i] & 0xFFFFFFFFL);
        Arrays.sort(packed);
        for (int i = 0; i < pairs; i++) { a[1 + 2 * i] = (int) (packed[i] >>> 32); a[2 + 2 * i] = (int) packed[i]; }
    }
}
