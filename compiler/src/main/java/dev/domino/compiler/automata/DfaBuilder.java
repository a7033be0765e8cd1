package dev.domino.compiler.automata;

import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.ByteDfa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Regular IR expression → minimal byte DFA: Thompson NFA ({@link ByteNfa}), subset
 * construction into byte ranges per state, dead states removed, minimization by partition
 * refinement ({@link Minimizer}), states numbered canonically (BFS in byte order), so equal
 * languages give equal automata.
 *
 * <p>Everything is sparse (ranges and transitions, never a 256-entry row per state): a trie of
 * 10,000 enum values has 100,000 states with one or two ranges each; dense rows made it 100 MB
 * and 100 s of work.
 *
 * <p>Hand-written because this is the compile hot path: dk.brics.automaton, which works on
 * UTF-16 chars and minimizes with a high constant factor, serves as the independent reference
 * in the tests instead.
 */
public final class DfaBuilder {
    private final ByteNfa nfa;

    /** Above this many DFA states a piece is not worth being one terminal (see {@link TooLarge}). */
    public static final int MAX_STATES = 4000;

    /** Thrown when a terminal's automaton would exceed its state bound; the caller decomposes it instead. */
    public static final class TooLarge extends RuntimeException {
        TooLarge(int max) { super("automaton larger than " + max + " states", null, false, false); }
    }

    /** @param rules resolves a Ref's rule name to its (regular, non-recursive) body */
    public DfaBuilder(Function<String, Expr> rules) { this.nfa = new ByteNfa(rules); }

    /** A terminal's language: its automaton without the empty string, and whether it had it. */
    public record Language(ByteDfa dfa, boolean nullable) {
        /** True when nothing but possibly the empty string matches. */
        public boolean isEmpty() { return dfa == null; }
    }

    public Language build(Expr e) { return build(e, MAX_STATES); }

    /** As {@link #build(Expr)}, throwing {@link TooLarge} past {@code maxStates} subset states. */
    public Language build(Expr e, int maxStates) {
        ByteNfa.Fragment f = nfa.build(e);
        Sparse d = determinize(f, maxStates);
        boolean nullable = d.accepting[0];
        if (nullable) d = d.withoutEmptyString();
        return new Language(Minimizer.minimize(d), nullable);
    }

    /**
     * A DFA under construction as byte ranges: state 0 is the start; state s has ranges
     * {@code rangeStart[s] .. rangeStart[s + 1]} ({@code lo..hi -> target}), sorted, disjoint.
     */
    static final class Sparse {
        int count;
        boolean[] accepting = new boolean[16];
        int[] rangeStart = new int[17];
        int ranges;
        int[] lo = new int[64], hi = new int[64], target = new int[64];

        void addRange(int l, int h, int t) {
            if (ranges > rangeStart[count] && target[ranges - 1] == t && hi[ranges - 1] + 1 == l) { hi[ranges - 1] = h; return; }
            if (ranges == lo.length) {
                int n = ranges * 2;
                lo = Arrays.copyOf(lo, n); hi = Arrays.copyOf(hi, n); target = Arrays.copyOf(target, n);
            }
            lo[ranges] = l; hi[ranges] = h; target[ranges] = t; ranges++;
        }

        /** Closes the current state's ranges and opens the next state's. */
        void endState(boolean acc) {
            if (count + 2 > rangeStart.length) {
                rangeStart = Arrays.copyOf(rangeStart, rangeStart.length * 2);
                accepting = Arrays.copyOf(accepting, rangeStart.length);
            }
            accepting[count] = acc;
            count++;
            rangeStart[count] = ranges;
        }

        Sparse withoutEmptyString() {
            // a fresh start state, not accepting, with the old start's transitions
            Sparse r = new Sparse();
            for (int i = rangeStart[0]; i < rangeStart[1]; i++) r.addRange(lo[i], hi[i], target[i] + 1);
            r.endState(false);
            for (int s = 0; s < count; s++) {
                for (int i = rangeStart[s]; i < rangeStart[s + 1]; i++) r.addRange(lo[i], hi[i], target[i] + 1);
                r.endState(accepting[s]);
            }
            return r;
        }
    }

    /**
     * Subset construction over the fragment's own states and edges (a contiguous range of the
     * NFA, which keeps growing as more terminals are built): states are numbered relative to
     * the fragment, so the cost does not grow with everything built before.
     */
    private int base; // first NFA state of the fragment being determinized (closure works relative to it)

    private Sparse determinize(ByteNfa.Fragment f, int maxStates) {
        base = f.firstState();
        int n = f.endState() - base;
        int start = f.start() - base, end = f.end() - base;
        // outgoing edge lists per NFA state
        int[] outStart = new int[n + 1];
        for (int i = f.firstEdge(); i < f.endEdge(); i++) outStart[nfa.from[i] - base + 1]++;
        for (int i = 0; i < n; i++) outStart[i + 1] += outStart[i];
        int[] outEdge = new int[f.endEdge() - f.firstEdge()];
        int[] fill = Arrays.copyOf(outStart, n);
        for (int i = f.firstEdge(); i < f.endEdge(); i++) outEdge[fill[nfa.from[i] - base]++] = i;

        Map<Key, Integer> ids = new HashMap<>();
        List<int[]> sets = new ArrayList<>();
        int[] mark = new int[n];
        int[] stamp = {0};
        int[] first = closure(new int[] {start}, 1, outStart, outEdge, mark, stamp);
        ids.put(new Key(first), 0);
        sets.add(first);
        Sparse d = new Sparse();
        int[] targets = new int[64];
        int[] boundaries = new int[514];
        // states are numbered in discovery order and processed in that order, so each state's
        // ranges are appended right after the previous state's
        for (int id = 0; id < sets.size(); id++) {
            // a server stops a compile past its time budget by interrupting it (ConstraintCache)
            if ((id & 1023) == 0 && Thread.currentThread().isInterrupted()) throw new java.util.concurrent.CancellationException("compile interrupted");
            int[] set = sets.get(id);
            sets.set(id, null);
            boolean accepting = false;
            // byte segments where the set of live edges is constant
            int nb = 0;
            for (int s : set) {
                if (s == end) accepting = true;
                for (int k = outStart[s]; k < outStart[s + 1]; k++) {
                    int e = outEdge[k];
                    if (nfa.lo[e] < 0) continue;
                    if (nb + 2 > boundaries.length) boundaries = Arrays.copyOf(boundaries, boundaries.length * 2);
                    boundaries[nb++] = nfa.lo[e];
                    boundaries[nb++] = nfa.hi[e] + 1;
                }
            }
            Arrays.sort(boundaries, 0, nb);
            for (int i = 0; i + 1 < nb; i++) {
                int lo = boundaries[i], hi = boundaries[i + 1];
                if (lo == hi) continue;
                int tn = 0;
                for (int s : set) {
                    for (int k = outStart[s]; k < outStart[s + 1]; k++) {
                        int e = outEdge[k];
                        if (nfa.lo[e] >= 0 && nfa.lo[e] <= lo && nfa.hi[e] >= hi - 1) {
                            if (tn == targets.length) targets = Arrays.copyOf(targets, tn * 2);
                            targets[tn++] = nfa.to[e] - base;
                        }
                    }
                }
                if (tn == 0) continue;
                int[] next = closure(targets, tn, outStart, outEdge, mark, stamp);
                Key key = new Key(next);
                Integer nid = ids.get(key);
                if (nid == null) {
                    if (sets.size() >= maxStates) throw new TooLarge(maxStates);
                    nid = sets.size();
                    ids.put(key, nid);
                    sets.add(next);
                }
                d.addRange(lo, hi - 1, nid);
            }
            d.endState(accepting);
        }
        return d;
    }

    /** Epsilon closure, as a sorted array of NFA states. */
    private int[] closure(int[] seeds, int count, int[] outStart, int[] outEdge, int[] mark, int[] stamp) {
        int s0 = ++stamp[0];
        int[] stack = new int[Math.max(16, count)];
        int sp = 0;
        int[] out = new int[Math.max(16, count)];
        int on = 0;
        for (int i = 0; i < count; i++) {
            if (mark[seeds[i]] != s0) { mark[seeds[i]] = s0; if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2); stack[sp++] = seeds[i]; }
        }
        while (sp > 0) {
            int s = stack[--sp];
            if (on == out.length) out = Arrays.copyOf(out, on * 2);
            out[on++] = s;
            for (int k = outStart[s]; k < outStart[s + 1]; k++) {
                int e = outEdge[k];
                if (nfa.lo[e] >= 0) continue;
                int t = nfa.to[e] - base;
                if (mark[t] != s0) {
                    mark[t] = s0;
                    if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                    stack[sp++] = t;
                }
            }
        }
        int[] r = Arrays.copyOf(out, on);
        Arrays.sort(r);
        return r;
    }

    private record Key(int[] set) {
        @Override public boolean equals(Object o) { return o instanceof Key k && Arrays.equals(set, k.set); }
        @Override public int hashCode() { return Arrays.hashCode(set); }
    }
}
