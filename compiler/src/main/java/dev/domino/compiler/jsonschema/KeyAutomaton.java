package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * Several key languages (Ref-free IR expressions over code points: patterns, declared names, propertyNames)
 * run side by side in one deterministic automaton, so each state knows which of them accept the text read
 * so far (bit j of {@link #accepts}: language j). Any Boolean combination of the languages (a key matching
 * patterns 1 and 3 but not 2, declared by no property) is then a choice of accepting states:
 * {@link #language} minimizes the automaton for that choice (Moore refinement) and turns it back into an
 * expression by state elimination, which the JSON Schema compiler spells as keys.
 *
 * <p>The alphabet is the coarsest partition of the code points that every character class and literal of
 * the languages respects: a state has one edge per class, not per code point. Sizes are bounded
 * ({@link #MAX_STATES} states, {@link #MAX_EXPR_NODES} nodes in a result); beyond them the caller gets a
 * {@link GrammarException} to report against its keyword.
 */
final class KeyAutomaton {
    static final int MAX_LANGUAGES = 62;
    static final int MAX_STATES = 4096;
    static final int MAX_NFA_STATES = 200_000;
    static final int MAX_EXPR_NODES = 20_000;

    /** Class i holds the code points [bounds[i], bounds[i + 1] - 1]. */
    private final int[] bounds;
    private final int classes;
    /** next[s][c]: the state after class c from state s (state 0 is the start). */
    private final int[][] next;
    /** accepts[s]: bit j set when language j accepts the text leading to s. */
    final long[] accepts;

    KeyAutomaton(List<Expr> languages) {
        if (languages.size() > MAX_LANGUAGES) throw new GrammarException("more than " + MAX_LANGUAGES + " key languages");
        this.bounds = partition(languages);
        this.classes = bounds.length - 1;
        Nfa nfa = new Nfa();
        int[] starts = new int[languages.size()];
        for (int j = 0; j < languages.size(); j++) {
            int[] f = nfa.build(languages.get(j));
            starts[j] = f[0];
            nfa.acceptMask.set(f[1], nfa.acceptMask.get(f[1]) | (1L << j));
        }
        // subset construction over all languages at once
        List<int[]> sets = new ArrayList<>();
        Map<String, Integer> ids = new HashMap<>();
        List<int[]> rows = new ArrayList<>();
        List<Long> acc = new ArrayList<>();
        int[] first = nfa.closure(starts);
        sets.add(first);
        ids.put(Arrays.toString(first), 0);
        for (int s = 0; s < sets.size(); s++) {
            int[] set = sets.get(s);
            long mask = 0;
            for (int q : set) mask |= nfa.acceptMask.get(q);
            acc.add(mask);
            int[] row = new int[classes];
            for (int c = 0; c < classes; c++) {
                int[] to = nfa.closure(nfa.move(set, c));
                String key = Arrays.toString(to);
                Integer id = ids.get(key);
                if (id == null) {
                    if (sets.size() >= MAX_STATES) throw new GrammarException("key language automaton over " + MAX_STATES + " states");
                    id = sets.size();
                    sets.add(to);
                    ids.put(key, id);
                }
                row[c] = id;
            }
            rows.add(row);
        }
        this.next = rows.toArray(int[][]::new);
        this.accepts = new long[acc.size()];
        for (int i = 0; i < accepts.length; i++) accepts[i] = acc.get(i);
    }

    /** Whether some key reaches a state whose accept bits satisfy {@code accept}. */
    boolean nonEmpty(LongPredicate accept) {
        for (long a : reachableAccepts()) if (accept.test(a)) return true;
        return false;
    }

    /** The distinct accept-bit combinations of reachable states (every state is reachable by construction). */
    long[] reachableAccepts() { return Arrays.stream(accepts).distinct().sorted().toArray(); }

    /** The keys whose state's accept bits satisfy {@code accept}, as an expression over code points; null if none. */
    Expr language(LongPredicate accept) {
        int n = next.length;
        // Moore refinement from the accept / reject split
        int[] cls = new int[n];
        for (int s = 0; s < n; s++) cls[s] = accept.test(accepts[s]) ? 1 : 0;
        int count = -1;
        while (true) {
            Map<String, Integer> sig = new HashMap<>();
            int[] fresh = new int[n];
            for (int s = 0; s < n; s++) {
                int[] key = new int[classes + 1];
                key[0] = cls[s];
                for (int c = 0; c < classes; c++) key[c + 1] = cls[next[s][c]];
                fresh[s] = sig.computeIfAbsent(Arrays.toString(key), k -> sig.size());
            }
            cls = fresh;
            if (sig.size() == count) break;
            count = sig.size();
        }
        // minimal automaton over the classes, its live states (an accepting state reachable)
        int m = count;
        int[][] mNext = new int[m][];
        boolean[] mAccept = new boolean[m];
        for (int s = 0; s < n; s++) {
            if (mNext[cls[s]] != null) continue;
            mAccept[cls[s]] = accept.test(accepts[s]);
            int[] row = new int[classes];
            for (int c = 0; c < classes; c++) row[c] = cls[next[s][c]];
            mNext[cls[s]] = row;
        }
        boolean[] live = new boolean[m];
        for (int i = 0; i < m; i++) live[i] = mAccept[i];
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int i = 0; i < m; i++) {
                if (live[i]) continue;
                for (int t : mNext[i]) if (live[t]) { live[i] = true; changed = true; break; }
            }
        }
        int start = cls[0];
        if (!live[start]) return null;
        return eliminate(mNext, mAccept, live, start);
    }

    /** State elimination: edges labelled with expressions, states removed cheapest first (fewest in × out edges). */
    private Expr eliminate(int[][] mNext, boolean[] mAccept, boolean[] live, int start) {
        int m = mNext.length;
        int src = m, dst = m + 1;
        List<Map<Integer, Expr>> out = new ArrayList<>(), in = new ArrayList<>();
        for (int i = 0; i < m + 2; i++) { out.add(new TreeMap<>()); in.add(new TreeMap<>()); }
        for (int i = 0; i < m; i++) {
            if (!live[i]) continue;
            Map<Integer, CodePointSet> byTarget = new LinkedHashMap<>();
            for (int c = 0; c < classes; c++) {
                int t = mNext[i][c];
                if (!live[t]) continue;
                byTarget.merge(t, CodePointSet.range(bounds[c], bounds[c + 1] - 1), CodePointSet::union);
            }
            for (Map.Entry<Integer, CodePointSet> e : byTarget.entrySet()) put(out, in, i, e.getKey(), charsOf(e.getValue()));
            if (mAccept[i]) put(out, in, i, dst, Expr.EMPTY);
        }
        put(out, in, src, start, Expr.EMPTY);
        boolean[] gone = new boolean[m];
        for (int i = 0; i < m; i++) if (!live[i]) gone[i] = true;
        while (true) {
            int best = -1;
            long bestCost = Long.MAX_VALUE;
            for (int q = 0; q < m; q++) {
                if (gone[q]) continue;
                long cost = (long) in.get(q).size() * out.get(q).size();
                if (cost < bestCost) { bestCost = cost; best = q; }
            }
            if (best < 0) break;
            int q = best;
            gone[q] = true;
            Expr loop = out.get(q).remove(q);
            in.get(q).remove(q);
            Expr star = loop == null ? null : Expr.star(loop);
            List<Map.Entry<Integer, Expr>> ins = new ArrayList<>(in.get(q).entrySet());
            List<Map.Entry<Integer, Expr>> outs = new ArrayList<>(out.get(q).entrySet());
            for (Map.Entry<Integer, Expr> p : ins) out.get(p.getKey()).remove(q);
            for (Map.Entry<Integer, Expr> r : outs) in.get(r.getKey()).remove(q);
            for (Map.Entry<Integer, Expr> p : ins) {
                for (Map.Entry<Integer, Expr> r : outs) {
                    Expr path = star == null ? JsonSyntax.seq(p.getValue(), r.getValue()) : JsonSyntax.seq(p.getValue(), star, r.getValue());
                    put(out, in, p.getKey(), r.getKey(), path);
                }
            }
        }
        Expr result = out.get(src).get(dst);
        if (result == null) return null;
        if (size(result, 0) > MAX_EXPR_NODES) throw new GrammarException("key language over " + MAX_EXPR_NODES + " expression nodes");
        return result;
    }

    private static void put(List<Map<Integer, Expr>> out, List<Map<Integer, Expr>> in, int from, int to, Expr e) {
        Expr old = out.get(from).get(to);
        Expr merged = old == null ? e : union(old, e);
        out.get(from).put(to, merged);
        in.get(to).put(from, merged);
    }

    private static Expr union(Expr a, Expr b) {
        if (a instanceof Expr.Chars x && b instanceof Expr.Chars y) return charsOf(x.set().union(y.set()));
        List<Expr> opts = new ArrayList<>();
        for (Expr e : List.of(a, b)) {
            if (e instanceof Expr.Alt alt) opts.addAll(alt.options());
            else opts.add(e);
        }
        return new Expr.Alt(opts);
    }

    private static Expr charsOf(CodePointSet set) {
        return set.rangeCount() == 1 && set.lo(0) == set.hi(0) ? Expr.literal(Character.toString(set.lo(0))) : Expr.chars(set);
    }

    private static int size(Expr e, int acc) {
        if (acc > MAX_EXPR_NODES) return acc;
        acc++;
        if (e instanceof Expr.Seq s) for (Expr x : s.items()) acc = size(x, acc);
        else if (e instanceof Expr.Alt a) for (Expr x : a.options()) acc = size(x, acc);
        else if (e instanceof Expr.Repeat r) acc = size(r.body(), acc);
        return acc;
    }

    // ------------------------------------------------------------------ alphabet

    private static int[] partition(List<Expr> languages) {
        java.util.TreeSet<Integer> cuts = new java.util.TreeSet<>();
        cuts.add(0);
        cuts.add(CodePointSet.MAX + 1);
        for (Expr e : languages) collectCuts(e, cuts);
        return cuts.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void collectCuts(Expr e, java.util.Set<Integer> cuts) {
        if (e instanceof Expr.Literal l) l.text().codePoints().forEach(cp -> { cuts.add(cp); cuts.add(cp + 1); });
        else if (e instanceof Expr.Chars c) {
            for (int i = 0; i < c.set().rangeCount(); i++) { cuts.add(c.set().lo(i)); cuts.add(c.set().hi(i) + 1); }
        } else if (e instanceof Expr.Seq s) for (Expr x : s.items()) collectCuts(x, cuts);
        else if (e instanceof Expr.Alt a) for (Expr x : a.options()) collectCuts(x, cuts);
        else if (e instanceof Expr.Repeat r) collectCuts(r.body(), cuts);
        else throw new IllegalArgumentException("not a key language: " + e);
    }

    private int classOf(int cp) {
        int i = Arrays.binarySearch(bounds, cp);
        return i >= 0 ? i : -i - 2;
    }

    // ------------------------------------------------------------------ Thompson NFA over the classes

    private final class Nfa {
        final List<int[]> eps = new ArrayList<>();
        final List<List<Object[]>> edges = new ArrayList<>(); // {BitSet classes, Integer target}
        final List<Long> acceptMask = new ArrayList<>();
        final Map<Long, int[]> closures = new HashMap<>();

        int newState() {
            if (eps.size() >= MAX_NFA_STATES) throw new GrammarException("key language automaton over " + MAX_NFA_STATES + " states");
            eps.add(new int[0]);
            edges.add(new ArrayList<>());
            acceptMask.add(0L);
            return eps.size() - 1;
        }

        void epsilon(int from, int to) {
            int[] old = eps.get(from);
            int[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = to;
            eps.set(from, grown);
        }

        /** Fragment {entry, exit} of e. */
        int[] build(Expr e) {
            if (e instanceof Expr.Literal l) {
                int start = newState(), cur = start;
                for (int cp : l.text().codePoints().toArray()) {
                    int n = newState();
                    BitSet b = new BitSet();
                    b.set(classOf(cp));
                    edges.get(cur).add(new Object[] {b, n});
                    cur = n;
                }
                return new int[] {start, cur};
            }
            if (e instanceof Expr.Chars c) {
                int start = newState(), end = newState();
                BitSet b = new BitSet();
                for (int i = 0; i < c.set().rangeCount(); i++) b.set(classOf(c.set().lo(i)), classOf(c.set().hi(i)) + 1);
                if (!b.isEmpty()) edges.get(start).add(new Object[] {b, end});
                return new int[] {start, end};
            }
            if (e instanceof Expr.Seq s) {
                int start = newState(), cur = start;
                for (Expr x : s.items()) {
                    int[] f = build(x);
                    epsilon(cur, f[0]);
                    cur = f[1];
                }
                return new int[] {start, cur};
            }
            if (e instanceof Expr.Alt a) {
                int start = newState(), end = newState();
                for (Expr x : a.options()) {
                    int[] f = build(x);
                    epsilon(start, f[0]);
                    epsilon(f[1], end);
                }
                return new int[] {start, end};
            }
            if (e instanceof Expr.Repeat r) {
                int start = newState(), cur = start;
                for (int i = 0; i < r.min(); i++) {
                    int[] f = build(r.body());
                    epsilon(cur, f[0]);
                    cur = f[1];
                }
                int end = newState();
                if (r.max() == Expr.Repeat.UNBOUNDED) {
                    int[] f = build(r.body());
                    epsilon(cur, f[0]);
                    epsilon(f[1], cur);
                    epsilon(cur, end);
                } else {
                    epsilon(cur, end);
                    for (int i = r.min(); i < r.max(); i++) {
                        int[] f = build(r.body());
                        epsilon(cur, f[0]);
                        epsilon(f[1], end);
                        cur = f[1];
                    }
                }
                return new int[] {start, end};
            }
            throw new IllegalArgumentException("not a key language: " + e);
        }

        int[] closure(int[] from) {
            BitSet seen = new BitSet();
            int[] stack = new int[16];
            int sp = 0;
            for (int q : from) {
                if (seen.get(q)) continue;
                seen.set(q);
                if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                stack[sp++] = q;
            }
            while (sp > 0) {
                int q = stack[--sp];
                for (int t : eps.get(q)) {
                    if (seen.get(t)) continue;
                    seen.set(t);
                    if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                    stack[sp++] = t;
                }
            }
            return seen.stream().toArray();
        }

        int[] move(int[] set, int c) {
            BitSet to = new BitSet();
            for (int q : set) {
                for (Object[] e : edges.get(q)) if (((BitSet) e[0]).get(c)) to.set((Integer) e[1]);
            }
            return to.stream().toArray();
        }
    }
}
