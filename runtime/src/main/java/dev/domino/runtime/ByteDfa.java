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
