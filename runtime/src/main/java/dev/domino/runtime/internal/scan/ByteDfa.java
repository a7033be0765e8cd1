package dev.domino.runtime.internal.scan;

import dev.domino.runtime.*;

/**
 * A deterministic automaton over bytes for one terminal, -1 = no transition. Every state can
 * reach an accepting state (the compiler removes dead states), so "inside this terminal at state
 * s" always means the terminal can still finish.
 *
 * <p>Transitions are kept as sorted byte ranges per state ({@code [lo, hi] -> target}, adjacent
 * ranges with one target merged): a trie of 10,000 enum values has 100,000 states with one or two
 * ranges each, 9 bytes per range instead of the 1 KB of a dense row. Automata of at most
 * {@link #denseMaxStates()} states also keep the dense table {@code next[state * 256 + byte]}:
 * most terminals are small, and their vocabulary walks index it directly.
 */
public final class ByteDfa {
    /**
     * Up to this many states an automaton keeps a dense table as well (at most 256 KB). Why 256:
     * most terminals are smaller, and beyond, the walks over ranges cost no more while dense rows
     * grow the artifact (docs/performance.md).
     * {@code RuntimeLimits.denseMaxStates} changes it, for automata made from then on.
     */
    private static volatile int DENSE_MAX_STATES = 256;

    /** See {@link #DENSE_MAX_STATES}; process-wide. */
    public static void setDenseMaxStates(int states) { DENSE_MAX_STATES = Math.max(0, states); }

    private final int stateCount;
    private final int start;
    private final boolean[] accepting;
    /** {@code next[state * 256 + byte]}, or null for a sparse automaton. */
    private final int[] next;
    /** Ranges of state s: {@code rangeStart[s] .. rangeStart[s + 1]}. */
    private final int[] rangeStart;
    private final byte[] rangeLo, rangeHi;
    private final int[] rangeTarget;

    /** From a dense table (validated). */
    public ByteDfa(int stateCount, int start, boolean[] accepting, int[] next) {
        if (stateCount < 1 || accepting.length != stateCount || next.length != stateCount * 256) {
            throw new IllegalArgumentException("inconsistent automaton arrays");
        }
        if (start < 0 || start >= stateCount) throw new IllegalArgumentException("bad start state");
        for (int v : next) {
            if (v < -1 || v >= stateCount) throw new IllegalArgumentException("transition to unknown state " + v);
        }
        this.stateCount = stateCount;
        this.start = start;
        this.accepting = accepting;
        Ranges r = Ranges.ofTable(stateCount, next);
        this.rangeStart = r.start; this.rangeLo = r.lo; this.rangeHi = r.hi; this.rangeTarget = r.target;
        this.next = stateCount <= DENSE_MAX_STATES ? next : null;
    }

    /** Trusted dense arrays (built here, consistent by construction; may hold ports, see {@link #renumberFrom}). */
    private ByteDfa(int stateCount, boolean[] accepting, int[] next) {
        this.stateCount = stateCount;
        this.start = 0;
        this.accepting = accepting;
        this.next = next;
        Ranges r = Ranges.ofTable(stateCount, next);
        this.rangeStart = r.start; this.rangeLo = r.lo; this.rangeHi = r.hi; this.rangeTarget = r.target;
    }

    private ByteDfa(int stateCount, int start, boolean[] accepting, Ranges r, boolean forceDense) {
        this.stateCount = stateCount;
        this.start = start;
        this.accepting = accepting;
        this.rangeStart = r.start; this.rangeLo = r.lo; this.rangeHi = r.hi; this.rangeTarget = r.target;
        this.next = forceDense || stateCount <= DENSE_MAX_STATES ? r.toTable(stateCount) : null;
    }

    /**
     * From byte ranges: state s has ranges {@code rangeStart[s] .. rangeStart[s + 1]} of
     * {@code lo[i]..hi[i] -> target[i]} (unsigned bytes), sorted and disjoint. Every number is
     * checked (artifacts are read through here); adjacent ranges with one target are merged. The arrays
     * are the automaton's from then on (kept, not copied, when nothing merges): callers never change them.
     */
    public static ByteDfa ofRanges(int stateCount, int start, boolean[] accepting, int[] rangeStart, byte[] lo, byte[] hi, int[] target) {
        if (stateCount < 1 || accepting.length != stateCount || rangeStart.length != stateCount + 1) {
            throw new IllegalArgumentException("inconsistent automaton arrays");
        }
        if (start < 0 || start >= stateCount) throw new IllegalArgumentException("bad start state");
        int ranges = lo.length;
        if (hi.length != ranges || target.length != ranges || rangeStart[0] != 0 || rangeStart[stateCount] != ranges) {
            throw new IllegalArgumentException("inconsistent automaton ranges");
        }
        for (int s = 0; s < stateCount; s++) {
            if (rangeStart[s + 1] < rangeStart[s] || rangeStart[s + 1] > ranges) throw new IllegalArgumentException("inconsistent automaton ranges");
        }
        for (int s = 0; s < stateCount; s++) {
            int previousHi = -1;
            for (int i = rangeStart[s]; i < rangeStart[s + 1]; i++) {
                int l = lo[i] & 0xFF, h = hi[i] & 0xFF;
                if (l > h || l <= previousHi) throw new IllegalArgumentException("automaton byte ranges out of order in state " + s);
                if (target[i] < 0 || target[i] >= stateCount) throw new IllegalArgumentException("transition to unknown state " + target[i]);
                previousHi = h;
            }
        }
        return new ByteDfa(stateCount, start, accepting, Ranges.merged(stateCount, rangeStart, lo, hi, target), false);
    }

    /** The same automaton with a dense table whatever its size (tests compare both layouts). */
    public ByteDfa dense() {
        return next != null ? this : new ByteDfa(stateCount, start, accepting, new Ranges(rangeStart, rangeLo, rangeHi, rangeTarget), true);
    }

    /** The same automaton without a dense table (tests compare both layouts). */
    public ByteDfa sparse() {
        return next == null ? this : new ByteDfa(this, null);
    }

    private ByteDfa(ByteDfa d, int[] next) {
        this.stateCount = d.stateCount; this.start = d.start; this.accepting = d.accepting; this.next = next;
        this.rangeStart = d.rangeStart; this.rangeLo = d.rangeLo; this.rangeHi = d.rangeHi; this.rangeTarget = d.rangeTarget;
    }

    /** Up to this many states an automaton keeps a dense table ({@code -Ddomino.dfa.denseMaxStates}). */
    public static int denseMaxStates() { return DENSE_MAX_STATES; }

    public int stateCount() { return stateCount; }
    public int start() { return start; }
    public boolean isAccepting(int state) { return accepting[state]; }

    public int step(int state, int unsignedByte) {
        int[] n = next;
        if (n != null) return n[(state << 8) | unsignedByte];
        int i = rangeStart[state], end = rangeStart[state + 1];
        if (end - i > 8) {
            // binary search for the first range whose hi >= b
            int a = i, z = end;
            while (a < z) {
                int m = (a + z) >>> 1;
                if ((rangeHi[m] & 0xFF) < unsignedByte) a = m + 1; else z = m;
            }
            i = a;
        } else {
            while (i < end && (rangeHi[i] & 0xFF) < unsignedByte) i++;
        }
        return i < end && (rangeLo[i] & 0xFF) <= unsignedByte ? rangeTarget[i] : -1;
    }

    /** Runs the bytes from {@code state}; -1 when the automaton dies. */
    public int run(int state, byte[] bytes) {
        for (byte b : bytes) {
            state = step(state, b & 0xFF);
            if (state < 0) return -1;
        }
        return state;
    }

    public boolean matches(byte[] bytes) {
        int s = run(start, bytes);
        return s >= 0 && accepting[s];
    }

    /** True when the dense table is kept ({@link #table()} is non-null). */
    public boolean isDense() { return next != null; }

    /** Byte ranges of all states (see {@link #ofRanges}); the arrays are shared, do not modify. */
    public int firstRange(int state) { return rangeStart[state]; }
    public int endRange(int state) { return rangeStart[state + 1]; }
    public int rangeLo(int i) { return rangeLo[i] & 0xFF; }
    public int rangeHi(int i) { return rangeHi[i] & 0xFF; }
    public int rangeTarget(int i) { return rangeTarget[i]; }
    public int rangeCount() { return rangeLo.length; }

    /**
     * The automaton as seen from {@code state}: the states reachable from it, renumbered in
     * breadth-first order (bytes ascending) with {@code state} as start. Minimal automata with
     * the same language from their states give equal residuals, so the residual is a key under
     * which such states share work. Null when more than {@code maxStates} states are reachable.
     */
    public ByteDfa residual(int state, int maxStates) {
        Renumbered r = renumberFrom(state, maxStates, false);
        return r == null ? null : new ByteDfa(r.accepting().length, r.accepting(), r.table());
    }

    /**
     * States reachable from {@code state} renumbered breadth-first (bytes ascending), {@code state}
     * first, as a dense table. With {@code withinComponent}, only the state's strongly connected
     * component is kept and transitions leaving it become ports: {@code -2 - p}, with
     * {@code ports[p]} the original target. Null when more than {@code maxStates} states would be kept.
     */
    public Renumbered renumberFrom(int state, int maxStates, boolean withinComponent) {
        int[] scc = withinComponent ? components() : null;
        int component = withinComponent ? scc[state] : 0;
        // few states are kept (maxStates is small): for a large automaton, maps sized by them
        StateMap newId = new StateMap(stateCount), portOf = new StateMap(stateCount);
        int[] order = new int[Math.min(stateCount, maxStates)];
        int[] ports = new int[8];
        int n = 0, portCount = 0;
        newId.put(state, n);
        order[n++] = state;
        for (int i = 0; i < n; i++) {
            int q = order[i];
            for (int r = rangeStart[q]; r < rangeStart[q + 1]; r++) {
                int t = rangeTarget[r];
                if (scc != null && scc[t] != component) {
                    if (portOf.get(t) < 0) {
                        if (portCount == ports.length) ports = java.util.Arrays.copyOf(ports, portCount * 2);
                        portOf.put(t, portCount);
                        ports[portCount++] = t;
                    }
                } else if (newId.get(t) < 0) {
                    if (n == order.length) return null;
                    newId.put(t, n);
                    order[n++] = t;
                }
            }
        }
        boolean[] acc = new boolean[n];
        int[] table = new int[n << 8];
        java.util.Arrays.fill(table, -1);
        for (int i = 0; i < n; i++) {
            int q = order[i];
            acc[i] = accepting[q];
            for (int r = rangeStart[q]; r < rangeStart[q + 1]; r++) {
                int t = rangeTarget[r];
                int v = scc != null && scc[t] != component ? -2 - portOf.get(t) : newId.get(t);
                java.util.Arrays.fill(table, (i << 8) | (rangeLo[r] & 0xFF), ((i << 8) | (rangeHi[r] & 0xFF)) + 1, v);
            }
        }
        return new Renumbered(table, acc, java.util.Arrays.copyOf(ports, portCount));
    }

    /** State -> int (-1 when absent): an array for small automata, a hash map for large ones. */
    private static final class StateMap {
        private final int[] array;
        private final java.util.HashMap<Integer, Integer> map;

        StateMap(int states) {
            array = states <= 4096 ? new int[states] : null;
            map = array == null ? new java.util.HashMap<>() : null;
            if (array != null) java.util.Arrays.fill(array, -1);
        }

        int get(int state) { return array != null ? array[state] : map.getOrDefault(state, -1); }

        void put(int state, int value) { if (array != null) array[state] = value; else map.put(state, value); }
    }

    /** See {@link #renumberFrom}. */
    public record Renumbered(int[] table, boolean[] accepting, int[] ports) {}

    private volatile int[] components;
    private volatile boolean[] onCycle;

    /** Strongly connected component of each state (ids arbitrary but equal within a component). */
    public int[] components() {
        int[] c = components;
        if (c == null) {
            c = tarjan();
            boolean[] cyc = new boolean[stateCount];
            int[] size = new int[stateCount];
            for (int q = 0; q < stateCount; q++) size[c[q]]++;
            for (int q = 0; q < stateCount; q++) {
                boolean on = size[c[q]] > 1;
                for (int r = rangeStart[q]; r < rangeStart[q + 1] && !on; r++) on = rangeTarget[r] == q;
                cyc[q] = on;
            }
            onCycle = cyc;
            components = c;
        }
        return c;
    }

    /** True when some non-empty byte string leads from the state back to itself. */
    public boolean onCycle(int state) {
        components();
        return onCycle[state];
    }

    /** Iterative Tarjan over the ranges: automata can have thousands of states, too deep for recursion. */
    private int[] tarjan() {
        int[] index = new int[stateCount], low = new int[stateCount], comp = new int[stateCount];
        java.util.Arrays.fill(index, -1);
        boolean[] onStack = new boolean[stateCount];
        int[] stack = new int[stateCount];
        int[] callState = new int[stateCount], callRange = new int[stateCount];
        int sp = 0, counter = 0, comps = 0;
        for (int root = 0; root < stateCount; root++) {
            if (index[root] >= 0) continue;
            int depth = 0;
            callState[0] = root; callRange[0] = rangeStart[root];
            index[root] = low[root] = counter++;
            stack[sp++] = root; onStack[root] = true;
            while (depth >= 0) {
                int v = callState[depth];
                if (callRange[depth] < rangeStart[v + 1]) {
                    int w = rangeTarget[callRange[depth]++];
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        stack[sp++] = w; onStack[w] = true;
                        depth++;
                        callState[depth] = w; callRange[depth] = rangeStart[w];
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                } else {
                    if (low[v] == index[v]) {
                        int w;
                        do { w = stack[--sp]; onStack[w] = false; comp[w] = comps; } while (w != v);
                        comps++;
                    }
                    depth--;
                    if (depth >= 0) { int u = callState[depth]; low[u] = Math.min(low[u], low[v]); }
                }
            }
        }
        return comp;
    }

    private volatile long[] asciiLoops;

    /**
     * Per state, the ASCII bytes that lead back to the same state, as two longs (bytes 0..63,
     * 64..127): lets a vocabulary walk take whole trie subtrees that cannot leave the state.
     */
    public long[] asciiLoops() {
        long[] loops = asciiLoops;
        if (loops == null) {
            loops = new long[2 * stateCount];
            for (int s = 0; s < stateCount; s++) {
                for (int r = rangeStart[s]; r < rangeStart[s + 1]; r++) {
                    if (rangeTarget[r] != s) continue;
                    for (int b = rangeLo[r] & 0xFF, h = Math.min(127, rangeHi[r] & 0xFF); b <= h; b++) loops[2 * s + (b >>> 6)] |= 1L << b;
                }
            }
            asciiLoops = loops;
        }
        return loops;
    }

    private int hash;

    /** Content equality (whatever the layout): identical automata share cached vocabulary walks across artifacts. */
    @Override public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof ByteDfa d && hashCode() == d.hashCode() && stateCount == d.stateCount && start == d.start
                && java.util.Arrays.equals(accepting, d.accepting) && java.util.Arrays.equals(rangeStart, d.rangeStart)
                && java.util.Arrays.equals(rangeTarget, d.rangeTarget) && java.util.Arrays.equals(rangeLo, d.rangeLo)
                && java.util.Arrays.equals(rangeHi, d.rangeHi);
    }

    @Override public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 31 * (31 * stateCount + start) + java.util.Arrays.hashCode(accepting);
            h = 31 * h + java.util.Arrays.hashCode(rangeStart);
            h = 31 * h + java.util.Arrays.hashCode(rangeTarget);
            h = 31 * h + java.util.Arrays.hashCode(rangeLo);
            h = 31 * h + java.util.Arrays.hashCode(rangeHi);
            if (h == 0) h = 1;
            hash = h;
        }
        return h;
    }

    /** Estimated heap bytes (the arrays). */
    public long estimatedBytes() {
        return 64 + stateCount + 4L * rangeStart.length + 6L * rangeLo.length + (next == null ? 0 : 4L * next.length);
    }

    public boolean[] acceptingArray() { return accepting; }

    /** The dense table, or null for a sparse automaton ({@link #isDense()}). */
    public int[] table() { return next; }

    /** Ranges under construction or conversion. */
    private record Ranges(int[] start, byte[] lo, byte[] hi, int[] target) {
        /** Maximal ranges of a dense table (-1 = none; negative ports are targets like any other). */
        static Ranges ofTable(int states, int[] table) {
            int count = 0;
            for (int s = 0; s < states; s++) {
                int base = s << 8;
                for (int b = 0; b < 256; b++) {
                    int t = table[base | b];
                    if (t != -1 && (b == 0 || table[base | b - 1] != t)) count++;
                }
            }
            int[] start = new int[states + 1];
            byte[] lo = new byte[count], hi = new byte[count];
            int[] target = new int[count];
            int i = 0;
            for (int s = 0; s < states; s++) {
                start[s] = i;
                int base = s << 8;
                for (int b = 0; b < 256; b++) {
                    int t = table[base | b];
                    if (t == -1) continue;
                    if (b > 0 && table[base | b - 1] == t) { hi[i - 1] = (byte) b; continue; }
                    lo[i] = (byte) b; hi[i] = (byte) b; target[i] = t; i++;
                }
            }
            start[states] = i;
            return new Ranges(start, lo, hi, target);
        }

        /**
         * Sorted disjoint ranges with adjacent ones of one target merged: the given arrays themselves when
         * nothing merges (the compiler's automata come merged, and a member head's copy cost as much as making it).
         */
        static Ranges merged(int states, int[] rangeStart, byte[] lo, byte[] hi, int[] target) {
            if (!mergeable(states, rangeStart, lo, hi, target)) return new Ranges(rangeStart, lo, hi, target);
            int[] start = new int[states + 1];
            byte[] l2 = new byte[lo.length], h2 = new byte[lo.length];
            int[] t2 = new int[lo.length];
            int n = 0;
            for (int s = 0; s < states; s++) {
                start[s] = n;
                for (int i = rangeStart[s]; i < rangeStart[s + 1]; i++) {
                    if (n > start[s] && t2[n - 1] == target[i] && (h2[n - 1] & 0xFF) + 1 == (lo[i] & 0xFF)) { h2[n - 1] = hi[i]; continue; }
                    l2[n] = lo[i]; h2[n] = hi[i]; t2[n] = target[i]; n++;
                }
            }
            start[states] = n;
            if (n == lo.length) return new Ranges(start, l2, h2, t2);
            return new Ranges(start, java.util.Arrays.copyOf(l2, n), java.util.Arrays.copyOf(h2, n), java.util.Arrays.copyOf(t2, n));
        }

        /** Whether some state has two adjacent ranges to one target. */
        private static boolean mergeable(int states, int[] rangeStart, byte[] lo, byte[] hi, int[] target) {
            for (int s = 0; s < states; s++) {
                for (int i = rangeStart[s] + 1; i < rangeStart[s + 1]; i++) {
                    if (target[i - 1] == target[i] && (hi[i - 1] & 0xFF) + 1 == (lo[i] & 0xFF)) return true;
                }
            }
            return false;
        }

        int[] toTable(int states) {
            int[] table = new int[states << 8];
            java.util.Arrays.fill(table, -1);
            for (int s = 0; s < states; s++) {
                for (int i = start[s]; i < start[s + 1]; i++) {
                    java.util.Arrays.fill(table, (s << 8) | (lo[i] & 0xFF), ((s << 8) | (hi[i] & 0xFF)) + 1, target[i]);
                }
            }
            return table;
        }
    }
}
