package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A state of an ordinary terminal automaton whose future is a bounded run of a counted loop's units
 * followed by an exit: {@code U{min,max} X}, U the body of a loop automaton {@code U+} that some
 * counted terminal uses (a JSON string character), X the automaton's own states after a byte no unit
 * starts with (a closing quote), or the terminal's end. The compiler keeps a short repeat (a string
 * under {@code maxLength 12}, a key and its short value merged into one terminal) as copies of the
 * unit, one state per position and character byte: every position's walk covers most of the trie,
 * with no loop to share and no counted walk to filter. Recognized here, such a state is walked as the
 * loop's counted walk ({@link CountedWalk}, shared per vocabulary with every counted string), keeping
 * the tokens whose room fits {@code max} and the ends whose count lies in {@code [min, max]}.
 *
 * <p>Recognition is exact: the state is paired with the counted run's states (loop state, units
 * started) breadth first, and every pair must accept alike and step on the same bytes to paired
 * states, or to the same exit state; otherwise there is no run and the plain walk is used.
 */
public final class UnitRun {
    /** Unbounded {@link #max}. */
    public static final int UNBOUNDED = Integer.MAX_VALUE;
    /** Units counted exactly while looking for the bounds; a run still going there is taken as unbounded (then verified so). */
    private static final int COUNT_PROBE = 32;
    /** Pairs visited at most per recognition (a state whose future is larger keeps its plain walk). */
    private static final int MAX_PAIRS = 1 << 12;
    /** Loops remembered per process (the first ones seen; a JSON string's character loop comes with the warm-up). */
    private static final int MAX_LOOPS = 8;
    /** States of a remembered loop at most (a JSON string character's has about 20). */
    private static final int MAX_LOOP_STATES = 64;

    private static final CopyOnWriteArrayList<Loop> LOOPS = new CopyOnWriteArrayList<>();

    /** The loop automaton {@code U+} (its walks are the counted walks of every counted terminal over it). */
    public final ByteDfa loop;
    /** The counter over {@link #loop} without bounds: only its boundaries matter to a counted walk. */
    public final CountedLoop counter;
    /** The loop state the run is in (the state after a whole unit at a boundary). */
    public final int loopState;
    /** Units that must start before the run may exit, and may start at most ({@link #UNBOUNDED}). */
    public final int min, max;
    /** Whether the terminal may end where the run may exit. */
    public final boolean ends;
    /** Per byte, the automaton state an exit by it leads to, or -1 (bytes that start no unit). */
    private final int[] exit;
    /** The bytes with an exit (4 longs). */
    private final long[] exitBytes = new long[4];

    private UnitRun(Loop l, int loopState, int min, int max, boolean ends, int[] exit) {
        this.loop = l.dfa;
        this.counter = l.counter;
        this.loopState = loopState;
        this.min = min;
        this.max = max;
        this.ends = ends;
        this.exit = exit;
        for (int b = 0; b < 256; b++) if (exit[b] >= 0) exitBytes[b >>> 6] |= 1L << b;
    }

    /** Whether the run may exit (or end) where {@code copies} units have started since the state. */
    public boolean exitsAt(long copies) { return copies >= min && copies <= max; }

    /** The automaton state an exit by byte b leads to, or -1. */
    public int exit(int b) { return exit[b]; }

    public boolean hasExit(int b) { return (exitBytes[b >>> 6] & (1L << b)) != 0; }

    /** Whether the run's state is a unit boundary (not inside a unit). */
    public boolean atBoundary() { return loop.isAccepting(loopState); }

    /**
     * Remembers a counted terminal's loop automaton as one whose runs are recognized, when it is the loop
     * of a body ({@code body+}: one accepting state, stepping as the start state does).
     */
    public static void registerLoop(ByteDfa loopDfa, CountedLoop counted) {
        if (counted.boundaryKey() != null || LOOPS.size() >= MAX_LOOPS) return;
        for (Loop l : LOOPS) if (l.dfa.equals(loopDfa)) return;
        Loop l = Loop.of(loopDfa);
        if (l != null) LOOPS.addIfAbsent(l);
    }

    /** The run that state s of dfa is, over one of the remembered loops, or null. */
    public static UnitRun of(ByteDfa dfa, int s) {
        for (Loop l : LOOPS) {
            UnitRun r = l.runAt(dfa, s);
            if (r != null) return r;
        }
        return null;
    }

    /** A body's loop automaton ({@code body+}) and its state after a whole unit. */
    private static final class Loop {
        final ByteDfa dfa;
        final CountedLoop counter;
        final int n;
        /** The one accepting state (after a whole unit). */
        final int after;

        private Loop(ByteDfa dfa, int after) {
            this.dfa = dfa;
            this.counter = new CountedLoop(dfa, 1, CountedLoop.UNBOUNDED);
            this.n = dfa.stateCount();
            this.after = after;
        }

        static Loop of(ByteDfa dfa) {
            int n = dfa.stateCount();
            if (n > MAX_LOOP_STATES || dfa.isAccepting(dfa.start())) return null;
            int after = -1;
            for (int q = 0; q < n; q++) {
                if (!dfa.isAccepting(q)) continue;
                if (after >= 0) return null;
                after = q;
            }
            if (after < 0) return null;
            for (int b = 0; b < 256; b++) if (dfa.step(after, b) != dfa.step(dfa.start(), b)) return null;
            try {
                return new Loop(dfa, after);
            } catch (IllegalArgumentException e) {
                return null; // a loop the counter refuses (a state that can never finish) has no runs
            }
        }

        boolean boundary(int l) { return l == after || l == dfa.start(); }

        /** The run at state s, trying the boundary and then each state inside a unit that steps on the same bytes. */
        UnitRun runAt(ByteDfa dfa, int s) {
            int[] seg = new int[4 * 256];
            UnitRun r = steps(dfa, s, after, seg) ? runFrom(dfa, s, after, seg) : null;
            if (r != null) return r;
            for (int l = 0; l < n; l++) {
                if (boundary(l) || !steps(dfa, s, l, seg)) continue;
                r = runFrom(dfa, s, l, seg);
                if (r != null) return r;
            }
            return null;
        }

        /**
         * Whether state q may pair with loop state l: inside a unit, live on exactly the loop's bytes; at a boundary,
         * live on all of a unit's first bytes or on none.
         */
        private boolean steps(ByteDfa dfa, int q, int l, int[] seg) {
            int count = segments(dfa, q, l, seg);
            boolean atBoundary = boundary(l), live = false, dead = false;
            for (int g = 0; g < count; g++) {
                boolean inQ = seg[4 * g + 2] >= 0, inL = seg[4 * g + 3] >= 0;
                if (!atBoundary && inQ != inL) return false;
                if (inL) { if (inQ) live = true; else dead = true; }
            }
            return !(live && dead);
        }

        /**
         * The byte segments of pair (q, l): {@code seg} gets (first byte, last byte, q's target, l's target) per
         * maximal segment where both targets are constant and one is live; returns the segment count. Merges the
         * two states' ranges: a pair costs their ranges, not 256 steps.
         */
        private int segments(ByteDfa dfa, int q, int l, int[] seg) {
            int i = dfa.firstRange(q), ie = dfa.endRange(q), j = this.dfa.firstRange(l), je = this.dfa.endRange(l);
            int count = 0, b = 0;
            while (b < 256 && (i < ie || j < je)) {
                while (i < ie && dfa.rangeHi(i) < b) i++;
                while (j < je && this.dfa.rangeHi(j) < b) j++;
                if (i >= ie && j >= je) break;
                boolean inQ = i < ie && dfa.rangeLo(i) <= b, inL = j < je && this.dfa.rangeLo(j) <= b;
                int end = 255;
                if (i < ie) end = Math.min(end, inQ ? dfa.rangeHi(i) : dfa.rangeLo(i) - 1);
                if (j < je) end = Math.min(end, inL ? this.dfa.rangeHi(j) : this.dfa.rangeLo(j) - 1);
                if (inQ || inL) {
                    seg[4 * count] = b;
                    seg[4 * count + 1] = end;
                    seg[4 * count + 2] = inQ ? dfa.rangeTarget(i) : -1;
                    seg[4 * count + 3] = inL ? this.dfa.rangeTarget(j) : -1;
                    count++;
                }
                b = end + 1;
            }
            return count;
        }

        /** Finds the bounds and the exit by pairing with exact counts, then verifies the run they make. */
        private UnitRun runFrom(ByteDfa dfa, int s, int l0, int[] seg) {
            // 1. observe: per count at a boundary, whether units may start and what exits there are; fail at
            //    the first pair that steps unlike any run (inside a unit: unlike the loop; at a boundary: some
            //    unit bytes live and others not)
            int[] exit = null;
            boolean ends = false;
            int lo = Integer.MAX_VALUE, hi = -1, lastUnit = -1;
            boolean unbounded = false;
            Set<Long> seen = new HashSet<>();
            ArrayDeque<long[]> work = new ArrayDeque<>();
            work.add(new long[] {s, l0, 0});
            seen.add(key(s, l0, 0));
            while (!work.isEmpty()) {
                long[] p = work.poll();
                int q = (int) p[0], l = (int) p[1], k = (int) p[2];
                if (seen.size() > MAX_PAIRS) return null;
                if (k >= COUNT_PROBE) { unbounded = true; continue; }
                int count = segments(dfa, q, l, seg);
                boolean atBoundary = boundary(l), anyUnit = false, deadUnit = false;
                if (!atBoundary && dfa.isAccepting(q)) return null;
                int[] ex = null;
                int k2 = atBoundary ? k + 1 : k;
                for (int g = 0; g < count; g++) {
                    int from = seg[4 * g], to = seg[4 * g + 1], qt = seg[4 * g + 2], lt = seg[4 * g + 3];
                    if (lt >= 0) {
                        if (qt < 0) { if (!atBoundary) return null; deadUnit = true; continue; }
                        anyUnit = true;
                        if (seen.add(key(qt, lt, k2))) work.add(new long[] {qt, lt, k2});
                    } else {
                        if (!atBoundary) return null;
                        if (ex == null) { ex = new int[256]; Arrays.fill(ex, -1); }
                        Arrays.fill(ex, from, to + 1, qt);
                    }
                }
                if (anyUnit && deadUnit) return null;
                if (!atBoundary) continue;
                if (ex != null || dfa.isAccepting(q)) {
                    if (ex == null) { ex = new int[256]; Arrays.fill(ex, -1); }
                    if (exit == null) { exit = ex; ends = dfa.isAccepting(q); }
                    else if (!Arrays.equals(exit, ex) || ends != dfa.isAccepting(q)) return null;
                    lo = Math.min(lo, k);
                    hi = Math.max(hi, k);
                }
                if (anyUnit) lastUnit = Math.max(lastUnit, k);
            }
            // at least one unit: a state that can only exit (the closing quote after a key) walks a few tokens
            if (exit == null || lastUnit < 0) return null;
            int min = lo, max = unbounded ? UNBOUNDED : hi;
            if (!unbounded && lastUnit >= max) return null;
            UnitRun run = new UnitRun(this, l0, min, max, ends, exit);
            return verify(dfa, s, l0, run, seg) ? run : null;
        }

        private static long key(long q, long l, long k) { return (q << 28) ^ (l << 20) ^ k; }

        /**
         * Whether state s's language is the run's: every reachable pair (automaton state, loop state, units started,
         * saturated at min when unbounded) accepts alike and steps on the same bytes, units to paired states and exits
         * to the run's exit states.
         */
        private boolean verify(ByteDfa dfa, int s, int l0, UnitRun run, int[] seg) {
            Set<Long> seen = new HashSet<>();
            ArrayDeque<long[]> work = new ArrayDeque<>();
            work.add(new long[] {s, l0, 0});
            seen.add(key(s, l0, 0));
            while (!work.isEmpty()) {
                if (seen.size() > MAX_PAIRS) return false;
                long[] p = work.poll();
                int q = (int) p[0], l = (int) p[1], k = (int) p[2];
                boolean atBoundary = boundary(l), inWindow = atBoundary && run.exitsAt(k);
                if (dfa.isAccepting(q) != (inWindow && run.ends)) return false;
                int k2 = atBoundary ? k + 1 : k;
                boolean room = k2 <= run.max;
                if (run.max == UNBOUNDED) k2 = Math.min(k2, run.min);
                int count = segments(dfa, q, l, seg);
                for (int g = 0; g < count; g++) {
                    int from = seg[4 * g], to = seg[4 * g + 1], qt = seg[4 * g + 2], lt = seg[4 * g + 3];
                    if (lt >= 0 && (!atBoundary || room)) {
                        if (qt < 0) return false;
                        if (seen.add(key(qt, lt, k2))) work.add(new long[] {qt, lt, k2});
                    } else if (lt < 0 && inWindow) {
                        for (int b = from; b <= to; b++) if (run.exit[b] != qt) return false;
                    } else if (qt >= 0) {
                        return false;
                    }
                }
                // bytes outside every segment are dead in both; an exit the run has there is missing here
                if (inWindow) for (int b = 0; b < 256; b++) if (run.exit[b] >= 0 && dfa.step(q, b) != run.exit[b]) return false;
            }
            return true;
        }
    }
}
