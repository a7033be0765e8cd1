package dev.domino.runtime.internal.scan;

/**
 * The scanner of an artifact: its terminals' automata with their states numbered globally, and
 * which terminals each byte can start. {@link #BETWEEN} (0) is "between terminals"; terminal t's
 * automaton state s is {@code offset(t) + s}.
 *
 * <p>Nothing is kept per scanner state: a counted terminal's states are its counts times its
 * loop's states ({@link CountedLoop}), 21 million for a string of maxLength 10⁶, and only their
 * numbers exist. The terminal of a state comes from a page table of at most 2^18 entries (one
 * entry per state up to 262,144 states, the size of the largest Kubernetes schemas' scanners):
 * one read, or a binary search over the few terminals of a page of counted states. The
 * opportunistic check steps one or two configurations per byte and takes ~50 ns, so a search
 * over all terminals per step would have shown.
 *
 * <p>Immutable, so thread-safe.
 */
public final class ScannerStates {
    /** The scanner state between terminals. */
    public static final int BETWEEN = 0;
    /** Bound on scanner state numbers (ints; nothing is allocated per state). */
    public static final int MAX_STATES = 1 << 30;

    private final Terminal[] terminals;
    private final int[] offset;
    private final int count;
    /** States per page: 2^pageShift. */
    private final int pageShift;
    /** Per page, the terminal holding its first state (0 for the page of {@link #BETWEEN}); one more entry: the last terminal. */
    private final int[] pageTerminal;

    /** Entries of the page table at most. */
    private static final int MAX_PAGES = 1 << 18;
    /** Per byte value, the terminals whose first byte it can be. */
    private final int[][] startersByByte;
    /** The same as bitsets over terminals (64 per long): ANDed with a parser state's expected terminals. */
    private final long[][] startersBitsByByte;

    public ScannerStates(Terminal[] terminals) {
        this.terminals = terminals;
        offset = new int[terminals.length];
        long states = 1;
        for (int t = 0; t < terminals.length; t++) {
            offset[t] = (int) states;
            if (terminals[t].stateCount() < 1) throw new IllegalArgumentException("terminal " + t + " has no states");
            // a counted string's loop: short strings unrolled into other terminals are walked as its runs
            if (terminals[t].counted() != null) dev.domino.runtime.internal.trees.UnitRun.registerLoop(terminals[t].dfa(), terminals[t].counted());
            states += terminals[t].stateCount();
            if (states > MAX_STATES) throw new IllegalArgumentException("too many scanner states: over " + MAX_STATES);
        }
        count = (int) states;
        int shift = 0;
        while ((long) (count - 1) >>> shift >= MAX_PAGES) shift++;
        pageShift = shift;
        int pages = ((count - 1) >>> shift) + 1;
        pageTerminal = new int[pages + 1];
        for (int t = 0; t < terminals.length; t++) {
            // the pages whose first state lies in t's states
            long firstPage = ((long) offset[t] + (1L << shift) - 1) >>> shift;
            long lastPage = ((long) offset[t] + terminals[t].stateCount() - 1) >>> shift;
            for (long pg = firstPage; pg <= lastPage; pg++) pageTerminal[(int) pg] = t;
        }
        pageTerminal[pages] = Math.max(0, terminals.length - 1);
        startersByByte = Terminal.startersByByte(terminals);
        startersBitsByByte = new long[256][(terminals.length + 63) >>> 6];
        for (int b = 0; b < 256; b++) for (int t : startersByByte[b]) startersBitsByByte[b][t >>> 6] |= 1L << t;
    }

    public int count() { return count; }
    public Terminal[] terminals() { return terminals; }
    public Terminal terminal(int t) { return terminals[t]; }
    public int offset(int terminal) { return offset[terminal]; }

    /** Terminal of a scanner state, or -1 for {@link #BETWEEN}. */
    public int terminalOf(int state) {
        if (state == BETWEEN) return -1;
        if (state < 0 || state >= count) throw new IndexOutOfBoundsException("scanner state " + state + " of " + count);
        // the last terminal whose offset is at most state (offsets ascend strictly: every terminal has a state),
        // between the terminal of the state's page's first state and that of the next page's
        int page = state >>> pageShift;
        int lo = pageTerminal[page], hi = pageTerminal[page + 1];
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (offset[mid] <= state) lo = mid; else hi = mid - 1;
        }
        return lo;
    }

    public int localOf(int state) {
        int t = terminalOf(state);
        return t < 0 ? 0 : state - offset[t];
    }

    /** Terminals whose first byte {@code b} can be, as a bitset (64 terminals per long; shared: do not modify). */
    public long[] startersBits(int b) { return startersBitsByByte[b]; }
    /** Terminals whose first byte {@code b} can be (shared: do not modify). */
    public int[] starters(int b) { return startersByByte[b]; }
    /** {@link #starters} for every byte (shared: do not modify). */
    public int[][] startersByByte() { return startersByByte; }

    /** Display name of a scanner state: {@code between} or {@code TERMINAL:s}. */
    public String name(int state) {
        if (state == BETWEEN) return "between";
        int t = terminalOf(state);
        return terminals[t].name() + ":" + (state - offset[t]);
    }
}
