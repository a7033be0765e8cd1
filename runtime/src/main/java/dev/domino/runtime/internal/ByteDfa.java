package dev.domino.runtime.internal;

import dev.domino.runtime.*;
import dev.domino.runtime.diagnostics.*;

/**
 * A deterministic automaton over bytes for one terminal: dense transition table, -1 = no
 * transition. Every state can reach an accepting state (the compiler removes dead states), so
 * "inside this terminal at state s" always means the terminal can still finish.
 */
public final class ByteDfa {
    private final int stateCount;
    private final int start;
    private final boolean[] accepting;
    /** {@code next[state * 256 + byte]}. */
    private final int[] next;

    public ByteDfa(int stateCount, int start, boolean[] accepting, int[] next) {
        if (accepting.length != stateCount || next.length != stateCount * 256) {
            throw new IllegalArgumentException("inconsistent automaton arrays");
        }
        if (start < 0 || start >= stateCount) throw new IllegalArgumentException("bad start state");
        for (int v : next) {
            if (v < -1 || v >= stateCount) throw new IllegalArgumentException("transition to unknown state " + v);
        }
        this.stateCount = stateCount;
        this.start = start;
        this.accepting = accepting;
        this.next = next;
    }

    /** Trusted arrays (built here, consistent by construction): no validation pass. */
    private ByteDfa(int stateCount, boolean[] accepting, int[] next) {
        this.stateCount = stateCount;
        this.start = 0;
        this.accepting = accepting;
        this.next = next;
    }

    public int stateCount() { return stateCount; }
    public int start() { return start; }
    public boolean isAccepting(int state) { return accepting[state]; }
    public int step(int state, int unsignedByte) { return next[(state << 8) | unsignedByte]; }

    /** Runs the bytes from {@code state}; -1 when the automaton dies. */
    public int run(int state, byte[] bytes) {
        for (byte b : bytes) {
            state = next[(state << 8) | (b & 0xFF)];
            if (state < 0) return -1;
        }
        return state;
    }

    public boolean matches(byte[] bytes) {
        int s = run(start, bytes);
        return s >= 0 && accepting[s];
    }

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
     * first. With {@code withinComponent}, only the state's strongly connected component is kept
     * and transitions leaving it become ports: {@code -2 - p}, with {@code ports[p]} the original
     * target. Null when more than {@code maxStates} states would be kept.
     */
    public Renumbered renumberFrom(int state, int maxStates, boolean withinComponent) {
        int[] scc = withinComponent ? components() : null;
        int component = withinComponent ? scc[state] : 0;
        int[] newId = new int[stateCount];
        java.util.Arrays.fill(newId, -1);
        int[] portOf = withinComponent ? new int[stateCount] : null;
        if (portOf != null) java.util.Arrays.fill(portOf, -1);
        int[] order = new int[Math.min(stateCount, maxStates)];
        int[] ports = new int[8];
        int n = 0, portCount = 0;
        newId[state] = n;
        order[n++] = state;
        for (int i = 0; i < n; i++) {
            int base = order[i] << 8;
            for (int b = 0; b < 256; b++) {
                int t = next[base | b];
                if (t < 0) continue;
                if (scc != null && scc[t] != component) {
                    if (portOf[t] < 0) {
                        if (portCount == ports.length) ports = java.util.Arrays.copyOf(ports, portCount * 2);
                        portOf[t] = portCount;
                        ports[portCount++] = t;
                    }
                } else if (newId[t] < 0) {
                    if (n == order.length) return null;
                    newId[t] = n;
                    order[n++] = t;
                }
            }
        }
        boolean[] acc = new boolean[n];
        int[] table = new int[n << 8];
        for (int i = 0; i < n; i++) {
            acc[i] = accepting[order[i]];
            int base = order[i] << 8;
            for (int b = 0; b < 256; b++) {
                int t = next[base | b];
                table[(i << 8) | b] = t < 0 ? -1 : scc != null && scc[t] != component ? -2 - portOf[t] : newId[t];
            }
        }
        return new Renumbered(table, acc, java.util.Arrays.copyOf(ports, portCount));
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
                for (int b = 0; b < 256 && !on; b++) on = next[(q << 8) | b] == q;
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

    /** Iterative Tarjan: automata can have thousands of states, too deep for recursion. */
    private int[] tarjan() {
        int[] index = new int[stateCount], low = new int[stateCount], comp = new int[stateCount];
        java.util.Arrays.fill(index, -1);
        boolean[] onStack = new boolean[stateCount];
        int[] stack = new int[stateCount];
        int[] callState = new int[stateCount], callByte = new int[stateCount];
        int sp = 0, counter = 0, comps = 0;
        for (int root = 0; root < stateCount; root++) {
            if (index[root] >= 0) continue;
            int depth = 0;
            callState[0] = root; callByte[0] = 0;
            index[root] = low[root] = counter++;
            stack[sp++] = root; onStack[root] = true;
            while (depth >= 0) {
                int v = callState[depth];
                if (callByte[depth] < 256) {
                    int w = next[(v << 8) | callByte[depth]++];
                    if (w < 0) continue;
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        stack[sp++] = w; onStack[w] = true;
                        depth++;
                        callState[depth] = w; callByte[depth] = 0;
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
                for (int b = 0; b < 128; b++) if (next[(s << 8) | b] == s) loops[2 * s + (b >>> 6)] |= 1L << b;
            }
            asciiLoops = loops;
        }
        return loops;
    }

    private int hash;

    /** Content equality: identical automata share cached vocabulary walks across artifacts. */
    @Override public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof ByteDfa d && hashCode() == d.hashCode() && stateCount == d.stateCount && start == d.start
                && java.util.Arrays.equals(accepting, d.accepting) && java.util.Arrays.equals(next, d.next);
    }

    @Override public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 31 * (31 * stateCount + start) + java.util.Arrays.hashCode(accepting);
            h = 31 * h + java.util.Arrays.hashCode(next);
            if (h == 0) h = 1;
            hash = h;
        }
        return h;
    }

    public boolean[] acceptingArray() { return accepting; }
    public int[] table() { return next; }
}
