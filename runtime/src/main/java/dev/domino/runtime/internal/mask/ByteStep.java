package dev.domino.runtime.internal.mask;

import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;

/**
 * The byte-stepping kernel: the configurations one byte leads to from one configuration (parser
 * state p, scanner state q). Masks (dynamic token checks), opportunistic checks and commits,
 * jump-forward and token traces all step bytes with it, so they agree on what a byte does:
 * <ul>
 *   <li>between terminals: it starts every terminal that p expects and whose automaton takes it;</li>
 *   <li>inside terminal t: it continues t's automaton; and, where t may end before it and p
 *       accepts t, it completes t (terminals end lazily, when the next byte arrives) and starts a
 *       terminal, as between terminals, from the parser state after t.</li>
 * </ul>
 *
 * <p>Two forms of the one rule, tested against each other (ByteStepConsistencyTest: traces and the
 * masks' dynamic-token checks step with the cursor, opportunistic checks and commits
 * with {@link #addAll}). {@link #addAll} adds every successor at once, for breadth-first stepping.
 * The cursor yields them one by one: {@link #reset}, then {@link #next} until it returns false;
 * each successor is in {@link #parser()} and {@link #state()}, with {@link #started()} (the
 * terminal the byte starts, or -1 when it continues q's terminal) and {@link #crossed()} (q's
 * terminal completed first). Successors come lazily, in that order: a search that stops at the
 * first surviving successor does not pay for the parser scan of a crossing it never looks at.
 * No allocation per step.
 *
 * <p>Not thread-safe: one cursor per thread and search depth.
 */
public final class ByteStep {
    private static final int CONTINUE = 0, COMPLETE = 1, START = 2, DONE = 3;

    private final ScannerStates scanner;
    private final EarleyParser parser;

    private int phase;
    private int b;
    // the configuration stepped from
    private EarleyState from;
    private boolean between;
    // ... when inside a terminal: its automaton state, whether it may end there, and the parser state after it (null: not scanned yet)
    private int terminal, offset, local;
    private Terminal automaton;
    private boolean accepting;
    private EarleyState after;
    // the terminals being started: expected by startParser, whose first byte b can be
    private EarleyState startParser;
    private boolean startCrossed;
    private long[] starters, expected;
    private int word;
    private long bits;
    // the current successor
    private EarleyState parserOut;
    private int stateOut, startedOut;
    private boolean crossedOut;

    public ByteStep(ScannerStates scanner, EarleyParser parser) {
        this.scanner = scanner;
        this.parser = parser;
    }

    /** Whether this cursor steps configurations of that scanner and parser (an artifact's). */
    public boolean isFor(ScannerStates scanner, EarleyParser parser) { return this.scanner == scanner && this.parser == parser; }

    /** Starts stepping byte {@code b} (0..255) from (p, q). */
    public ByteStep reset(EarleyState p, int q, int b) {
        return from(p, q).over(b);
    }

    /**
     * Prepares stepping bytes from (p, q): {@link #over} then steps one byte after another from it.
     * Why: a trie walk steps every child edge of a node from the same configurations, and the
     * parser state after q's terminal (a memo lookup) is then found once per node, not per edge.
     */
    public ByteStep from(EarleyState p, int q) {
        from = p;
        between = q == ScannerStates.BETWEEN;
        if (!between) {
            terminal = scanner.terminalOf(q);
            offset = scanner.offset(terminal);
            local = q - offset;
            automaton = scanner.terminal(terminal);
            accepting = automaton.isAccepting(local);
            after = null;
        }
        return this;
    }

    /** Starts stepping byte {@code b} (0..255) from the configuration of the last {@link #from}. */
    public ByteStep over(int b) {
        this.b = b;
        if (between) startFrom(from, false);
        else phase = CONTINUE;
        return this;
    }

    /** Moves to the next successor; false when there is none left. */
    public boolean next() {
        if (phase == CONTINUE) {
            phase = COMPLETE;
            int s2 = automaton.step(local, b);
            if (s2 >= 0) {
                set(from, offset + s2, -1, false);
                return true;
            }
        }
        if (phase == COMPLETE) {
            phase = DONE;
            if (!accepting) return false;
            EarleyState p2 = after;
            if (p2 == null) after = p2 = parser.scan(from, terminal);
            if (p2 == parser.dead) return false;
            startFrom(p2, true);
        }
        if (phase == START) {
            while (true) {
                if (bits != 0) {
                    int t = (word << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                    set(startParser, scanner.offset(t) + scanner.terminal(t).startStep(b), t, startCrossed);
                    return true;
                }
                if (++word >= starters.length) {
                    phase = DONE;
                    return false;
                }
                bits = starters[word] & expected[word];
            }
        }
        return false;
    }

    /**
     * Adds every successor of (p, q) after byte b to {@code out}: what {@link #next} yields, in
     * one call and without the cursor's state (breadth-first stepping: commits, checks,
     * jump-forward). The rule written straight through: stepping with the cursor made
     * opportunistic checks 1.1-1.7x slower (JMH {@code MaskBenchmark.checkAllowed}, p50 50 -> 80 ns).
     */
    public void addAll(EarleyState p, int q, int b, Configurations.Builder out) {
        if (q != ScannerStates.BETWEEN) {
            int t = scanner.terminalOf(q), s = q - scanner.offset(t);
            Terminal automaton = scanner.terminal(t);
            int s2 = automaton.step(s, b);
            if (s2 >= 0) out.add(p, scanner.offset(t) + s2);
            if (!automaton.isAccepting(s)) return;
            p = parser.scan(p, t);
            if (p == parser.dead) return;
        }
        long[] starters = scanner.startersBits(b), expected = p.expected;
        for (int w = 0; w < starters.length; w++) {
            for (long x = starters[w] & expected[w]; x != 0; x &= x - 1) {
                int t = (w << 6) + Long.numberOfTrailingZeros(x);
                out.add(p, scanner.offset(t) + scanner.terminal(t).startStep(b));
            }
        }
    }

    private void startFrom(EarleyState p, boolean crossed) {
        startParser = p;
        startCrossed = crossed;
        starters = scanner.startersBits(b);
        expected = p.expected;
        word = 0;
        if (starters.length == 0) {
            phase = DONE;
            return;
        }
        bits = starters[0] & expected[0];
        phase = START;
    }

    private void set(EarleyState p, int q, int started, boolean crossed) {
        parserOut = p;
        stateOut = q;
        startedOut = started;
        crossedOut = crossed;
    }

    /** The successor's parser state. */
    public EarleyState parser() { return parserOut; }

    /** The successor's scanner state. */
    public int state() { return stateOut; }

    /** The terminal the byte starts in this successor, or -1 when it continues the terminal it was in. */
    public int started() { return startedOut; }

    /** True when the terminal the configuration was in completed before this byte. */
    public boolean crossed() { return crossedOut; }
}
