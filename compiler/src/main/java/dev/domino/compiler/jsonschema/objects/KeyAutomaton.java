package dev.domino.compiler.jsonschema.objects;

import dev.domino.compiler.ir.CodePointAutomaton;
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
 * {@link #language} minimizes the automaton for that choice (Moore refinement) and hands it on as an IR
 * leaf ({@link Expr.Automaton}), which the JSON Schema compiler spells as keys.
 *
 * <p>The alphabet is the coarsest partition of the code points that every character class and literal of
 * the languages respects: a state has one edge per class, not per code point. Sizes are bounded
 * ({@link #MAX_STATES} states, {@link #MAX_NFA_STATES} NFA states); beyond them the caller gets a
 * {@link GrammarException} to report against its keyword.
 */
final class KeyAutomaton {
    static final int MAX_LANGUAGES = 62;
    static final int MAX_STATES = 4096;
    static final int MAX_NFA_STATES = 200_000;

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
        Map<IntsKey, Integer> ids = new HashMap<>();
        List<int[]> rows = new ArrayList<>();
        List<Long> acc = new ArrayList<>();
        int[] first = nfa.closure(starts);
        sets.add(first);
        ids.put(new IntsKey(first), 0);
        for (int s = 0; s < sets.size(); s++) {
            int[] set = sets.get(s);
            long mask = 0;
            for (int q : set) mask |= nfa.acceptMask.get(q);
            acc.add(mask);
            int[] row = new int[classes];
            BitSet[] moves = nfa.moves(set, classes);
            for (int c = 0; c < classes; c++) {
                int[] to = moves[c] == null ? new int[0] : nfa.closure(moves[c].stream().toArray());
                IntsKey key = new IntsKey(to);
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
            Map<IntsKey, Integer> sig = new HashMap<>();
            int[] fresh = new int[n];
            for (int s = 0; s < n; s++) {
                int[] key = new int[classes + 1];
                key[0] = cls[s];
                for (int c = 0; c < classes; c++) key[c + 1] = cls[next[s][c]];
                fresh[s] = sig.computeIfAbsent(new IntsKey(key), k -> sig.size());
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
        return leaf(mNext, mAccept, live, start);
    }

    /**
     * The minimal automaton as an IR leaf ({@link Expr.Automaton}), each class its code point range. No state
     * elimination: its expression grew past 20,000 nodes on keys "not matching 4 patterns" (MaskBench
     * Github_medium---o48427).
     */
    private Expr leaf(int[][] mNext, boolean[] mAccept, boolean[] live, int start) {
        int m = mNext.length;
        CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
        int[] id = new int[m];
        // the start first: the builder's state 0
        id[start] = b.addState(mAccept[start]);
        for (int i = 0; i < m; i++) if (i != start && live[i]) id[i] = b.addState(mAccept[i]);
        for (int i = 0; i < m; i++) {
            if (!live[i]) continue;
            for (int c = 0; c < classes; c++) {
                int t = mNext[i][c];
                if (live[t]) b.addRange(id[i], bounds[c], bounds[c + 1] - 1, id[t]);
            }
        }
        return new Expr.Automaton(b.build());
    }

    /** An int array as a hash key (the subset construction's state sets, the refinement's signatures). */
    private record IntsKey(int[] values) {
        @Override public boolean equals(Object o) { return o instanceof IntsKey k && Arrays.equals(values, k.values); }
        @Override public int hashCode() { return Arrays.hashCode(values); }
    }

    /**
     * The automaton of one object's key languages, built on first use and shared by every member that needs it
     * (each undeclared-member block and the partitioned members ran the same subset construction again).
     * A failure is kept and thrown again, so every caller reports it against its own keyword.
     */
    static final class Once {
        private final List<Expr> languages;
        private List<Expr> builtFor;
        private KeyAutomaton built;
        private GrammarException failure;

        Once(List<Expr> languages) { this.languages = languages; }

        KeyAutomaton get() {
            if (!sameAsBuilt()) { // the list may still grow before the first use
                builtFor = List.copyOf(languages);
                built = null;
                failure = null;
                try {
                    built = new KeyAutomaton(builtFor);
                } catch (GrammarException x) {
                    failure = x;
                }
            }
            if (failure != null) throw failure;
            return built;
        }

        private boolean sameAsBuilt() {
            if (builtFor == null || builtFor.size() != languages.size()) return false;
            for (int i = 0; i < builtFor.size(); i++) if (builtFor.get(i) != languages.get(i)) return false;
            return true;
        }
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
        } else if (e instanceof Expr.Automaton a) {
            for (int r = 0; r < a.dfa().rangeCount(); r++) { cuts.add(a.dfa().lo(r)); cuts.add(a.dfa().hi(r) + 1); }
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
            if (e instanceof Expr.Automaton a) {
                CodePointAutomaton d = a.dfa();
                int base = eps.size();
                for (int q = 0; q < d.stateCount(); q++) newState();
                int start = newState(), end = newState();
                epsilon(start, base + d.start());
                for (int q = 0; q < d.stateCount(); q++) {
                    if (d.isAccepting(q)) epsilon(base + q, end);
                    for (int r = d.firstRange(q); r < d.endRange(q); r++) {
                        BitSet b = new BitSet();
                        b.set(classOf(d.lo(r)), classOf(d.hi(r)) + 1);
                        edges.get(base + q).add(new Object[] {b, base + d.target(r)});
                    }
                }
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

        /** Per class, the states one step from {@code set} (null: none), all classes in one pass over the edges. */
        BitSet[] moves(int[] set, int classes) {
            BitSet[] to = new BitSet[classes];
            for (int q : set) {
                for (Object[] e : edges.get(q)) {
                    BitSet on = (BitSet) e[0];
                    int target = (Integer) e[1];
                    for (int c = on.nextSetBit(0); c >= 0; c = on.nextSetBit(c + 1)) {
                        if (to[c] == null) to[c] = new BitSet();
                        to[c].set(target);
                    }
                }
            }
            return to;
        }
    }
}
