package dev.domino.runtime;

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
        int[] newId = new int[stateCount];
        java.util.Arrays.fill(newId, -1);
        int[] order = new int[Math.min(stateCount, maxStates)];
        int n = 0;
        newId[state] = n;
        order[n++] = state;
        for (int i = 0; i < n; i++) {
            int base = order[i] << 8;
            for (int b = 0; b < 256; b++) {
                int t = next[base | b];
                if (t >= 0 && newId[t] < 0) {
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
                table[(i << 8) | b] = t < 0 ? -1 : newId[t];
            }
        }
        return new ByteDfa(n, 0, acc, table);
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

    boolean[] acceptingArray() { return accepting; }
    int[] table() { return next; }
}
