package dev.domino.runtime.internal;

/**
 * The scanner of an artifact: its terminals' automata with their states numbered globally, and
 * which terminals each byte can start. {@link #BETWEEN} (0) is "between terminals"; terminal t's
 * automaton state s is {@code offset(t) + s}.
 *
 * <p>Immutable, so thread-safe.
 */
public final class ScannerStates {
    /** The scanner state between terminals. */
    public static final int BETWEEN = 0;
    /** Bound on scanner states (two ints each, plus a tree slot when lazy). */
    public static final int MAX_STATES = 1 << 23;

    private final Terminal[] terminals;
    private final int[] offset;
    private final int[] terminalOf;
    private final int[] localOf;
    /** Per byte value, the terminals whose first byte it can be. */
    private final int[][] startersByByte;
    /** The same as bitsets over terminals (64 per long): ANDed with a parser state's expected terminals. */
    private final long[][] startersBitsByByte;

    public ScannerStates(Terminal[] terminals) {
        this.terminals = terminals;
        offset = new int[terminals.length];
        int states = 1;
        for (int t = 0; t < terminals.length; t++) {
            offset[t] = states;
            states += terminals[t].stateCount();
            if (states > MAX_STATES) throw new IllegalArgumentException("too many scanner states");
        }
        terminalOf = new int[states];
        localOf = new int[states];
        terminalOf[BETWEEN] = -1;
        for (int t = 0; t < terminals.length; t++) {
            for (int s = 0; s < terminals[t].stateCount(); s++) {
                terminalOf[offset[t] + s] = t;
                localOf[offset[t] + s] = s;
            }
        }
        startersByByte = Terminal.startersByByte(terminals);
        startersBitsByByte = new long[256][(terminals.length + 63) >>> 6];
        for (int b = 0; b < 256; b++) for (int t : startersByByte[b]) startersBitsByByte[b][t >>> 6] |= 1L << t;
    }

    public int count() { return terminalOf.length; }
    public Terminal[] terminals() { return terminals; }
    public Terminal terminal(int t) { return terminals[t]; }
    public int offset(int terminal) { return offset[terminal]; }
    /** Terminal of a scanner state, or -1 for {@link #BETWEEN}. */
    public int terminalOf(int state) { return terminalOf[state]; }
    public int localOf(int state) { return localOf[state]; }
    /** Terminals whose first byte {@code b} can be, as a bitset (64 terminals per long; shared: do not modify). */
    public long[] startersBits(int b) { return startersBitsByByte[b]; }
    /** Terminals whose first byte {@code b} can be (shared: do not modify). */
    public int[] starters(int b) { return startersByByte[b]; }

    /** Display name of a scanner state: {@code between} or {@code TERMINAL:s}. */
    public String name(int state) {
        if (state == BETWEEN) return "between";
        return terminals[terminalOf[state]].name() + ":" + localOf[state];
    }
}
