package dev.domino.runtime.internal.scan;

import dev.domino.runtime.internal.trees.*;

import dev.domino.runtime.*;

/**
 * A terminal {@code body{min,max}} (min ≥ 1; a JSON string's characters under minLength and
 * maxLength) kept as the small automaton of {@code body+} plus a counter, instead of max copies
 * of the body's automaton. More generally ({@link #CountedLoop(ByteDfa, boolean[], int, int)}):
 * any automaton whose strings are made of units (a {@code pattern} or {@code format} over JSON
 * string characters), with the states where a unit may start marked, counting the units.
 *
 * <p>The body must be prefix-free (a character, an escape), so the automaton of {@code body+}
 * starts a new copy exactly when it leaves its start state or an accepting state (its unit
 * boundaries). A local scanner state is {@code count * N + s}: {@code count} copies started,
 * loop state s (N states).
 *
 * <p>Why it pays: a token of at most Λ bytes starts at most Λ copies, so from any state with at
 * least min copies done and at least Λ still allowed, the vocabulary sees exactly what it sees in
 * {@code body+}. All those states share the N trees of the plain loop ({@link #canonical}).
 * The other states (below min, or within Λ of max) share one tree per loop state annotated with
 * the copies each token starts (TokenTree.copies); a mask keeps the tokens that fit the state's
 * count. No walk over the whole vocabulary per count.
 */
public final class CountedLoop {
    /**
     * Bound on local states (counts × loop states). They are numbers only: nothing is kept per
     * scanner state (see {@link ScannerStates}, {@link TreeSlots}), so the bound keeps the sum of
     * all terminals' states within an int: a string of maxLength 3 million (21 loop states), the
     * RFC 5321 email {@code format} (1,024 to 2,044 states as JSON string content) up to 32,000.
     */
    public static final int MAX_STATES = 1 << 26;

    /**
     * A max meaning no maximum ({@code body{min,}}: a string under {@code minLength} alone): the
     * count saturates at min, so the states are (min + 1) × N. One terminal instead of min counted
     * copies followed by a {@code body*} terminal: in that pair a token could end the counted copies
     * at any of its characters, and each such path needed a byte-by-byte check (see TreeBuilder).
     */
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    private final ByteDfa loop;
    private final int min;
    private final int max;
    /** The largest count a state holds: max, or min when unbounded (counts saturate there). */
    private final int cap;
    private final int n;
    /** Null: the unit boundaries of {@code body+} (start and accepting states); else per loop state. */
    private final boolean[] boundaries;
    /** {@link #boundaries} as an immutable value, for cache keys. */
    private final java.util.List<Boolean> boundaryKey;

    /** @param loop the automaton of {@code body+} (start state not accepting); 1 ≤ min ≤ max copies */
    public CountedLoop(ByteDfa loop, int min, int max) { this(loop, null, min, max); }

    /**
     * @param loop       an automaton without the empty string whose strings are sequences of units
     * @param boundaries per loop state, true where a unit may start (the start state included); null
     *                   for the automaton of {@code body+}
     */
    public CountedLoop(ByteDfa loop, boolean[] boundaries, int min, int max) {
        if (min < 1 || max < min) throw new IllegalArgumentException("counted repeat needs 1 <= min <= max");
        if (loop.isAccepting(loop.start())) throw new IllegalArgumentException("counted repeat of a nullable body");
        this.cap = max == UNBOUNDED ? min : max;
        if ((long) (cap + 1) * loop.stateCount() > MAX_STATES) throw new IllegalArgumentException("counted repeat too large: " + cap);
        if (boundaries != null && (boundaries.length != loop.stateCount() || !boundaries[loop.start()])) {
            throw new IllegalArgumentException("unit boundaries must name every loop state and include the start");
        }
        this.loop = loop;
        this.min = min;
        this.max = max;
        this.n = loop.stateCount();
        this.boundaries = boundaries == null ? null : boundaries.clone();
        if (boundaries == null) boundaryKey = null;
        else {
            Boolean[] boxed = new Boolean[n];
            for (int i = 0; i < n; i++) boxed[i] = boundaries[i];
            boundaryKey = java.util.List.of(boxed);
        }
        this.toFinish = unitsToFinish();
        int most = 0;
        boolean[] entered = new boolean[n];
        for (int q = 0; q < n; q++) for (int b = 0; b < 256; b++) { int q2 = loop.step(q, b); if (q2 >= 0) entered[q2] = true; }
        for (int q = 0; q < n; q++) {
            if (toFinish[q] == Integer.MAX_VALUE) throw new IllegalArgumentException("counted loop state " + q + " can never finish");
            if (entered[q]) most = Math.max(most, toFinish[q]);
        }
        this.slack = most;
    }

    /**
     * Per loop state, the fewest units that must still start before an accepting state: 0 inside
     * {@code body+} (the current copy ends it), more inside a pattern ({@code \d{5}x} after two digits: 4).
     * A state is viable only if its count plus this stays within max.
     */
    private final int[] toFinish;
    /** The largest {@link #toFinish} of a state other than the start (0 for {@code body+}). */
    private final int slack;

    /** 0-1 breadth-first search backwards from the accepting states; leaving a boundary costs a unit. */
    private int[] unitsToFinish() {
        int[] dist = new int[n];
        java.util.Arrays.fill(dist, Integer.MAX_VALUE);
        // predecessor lists with one entry per run of bytes to the same target (bounded by the
        // automaton's ranges, not 256 per state: a hostile artifact's loop may have 2^19 states)
        int[] predCount = new int[n];
        for (int q = 0; q < n; q++) {
            int last = -1;
            for (int b = 0; b < 256; b++) { int q2 = loop.step(q, b); if (q2 >= 0 && q2 != last) predCount[q2]++; last = q2; }
        }
        int[][] preds = new int[n][];
        for (int q = 0; q < n; q++) preds[q] = new int[predCount[q]];
        java.util.Arrays.fill(predCount, 0);
        for (int q = 0; q < n; q++) {
            int last = -1;
            for (int b = 0; b < 256; b++) {
                int q2 = loop.step(q, b);
                if (q2 >= 0 && q2 != last) preds[q2][predCount[q2]++] = q;
                last = q2;
            }
        }
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        for (int q = 0; q < n; q++) if (loop.isAccepting(q)) { dist[q] = 0; work.add(q); }
        while (!work.isEmpty()) {
            int q = work.pollFirst();
            for (int i = 0; i < predCount[q]; i++) {
                int p = preds[q][i];
                int w = startsCopy(p) ? 1 : 0;
                if (dist[q] + w < dist[p]) {
                    dist[p] = dist[q] + w;
                    if (w == 0) work.addFirst(p); else work.addLast(p);
                }
            }
        }
        return dist;
    }

    /** Units that must still start after loop state s before the terminal can end (see {@link #toFinish}). */
    public int unitsToFinish(int s) { return toFinish[s]; }

    /** The explicit unit boundaries as an immutable list (a cache key), or null for those of {@code body+}. */
    public java.util.List<Boolean> boundaryKey() { return boundaryKey; }

    /** The explicit unit boundaries, or null for those of {@code body+}. */
    public boolean[] boundaries() { return boundaries == null ? null : boundaries.clone(); }

    public int min() { return min; }
    public int max() { return max; }
    public int stateCount() { return (cap + 1) * n; }
    /** True when the count has no maximum (see {@link #UNBOUNDED}). */
    public boolean unbounded() { return max == UNBOUNDED; }

    /** True when leaving loop state s starts a new copy of the body. */
    public boolean startsCopy(int s) { return boundaries != null ? boundaries[s] : s == loop.start() || loop.isAccepting(s); }

    public int step(int local, int b) {
        int c = local / n, s = local - c * n;
        int s2 = loop.step(s, b);
        if (s2 < 0) return -1;
        if (startsCopy(s)) {
            if (c == max) return -1;
            if (c < cap) c++; // else unbounded and at min: saturated
        }
        if (max != UNBOUNDED && c + toFinish[s2] > max) return -1;
        return c * n + s2;
    }

    public boolean isAccepting(int local) { return loop.isAccepting(local % n) && local / n >= min; }

    /** The copies started in a local state (saturated at min when unbounded). */
    public int count(int local) { return local / n; }

    /** The loop automaton's state within a local state. */
    public int loopState(int local) { return local % n; }

    /** Copies that may still start from this local state. */
    public int remaining(int local) { return max == UNBOUNDED ? UNBOUNDED_ROOM : max - local / n; }

    /** {@link #remaining} without a maximum: more than any token starts, with room to add to it. */
    private static final int UNBOUNDED_ROOM = 1 << 30;

    /** Copies still needed before the terminal may end. */
    public int needed(int local) { return Math.max(0, min - local / n); }

    /** True when the state's tree is the plain loop's (see the class comment). */
    public boolean sharesLoopTree(int local, int lambda) { return needed(local) == 0 && (long) remaining(local) >= (long) lambda + slack; }

    /**
     * The local state whose tree this state uses: for states sharing the loop's trees, the
     * representative with min copies; for the others, the loop state itself (count 0, which no
     * configuration holds but the start): its tree is annotated with copies, and masks filter it
     * by this state's {@link #needed} and {@link #remaining}.
     */
    public int canonical(int local, int lambda) { return sharesLoopTree(local, lambda) ? min * n + local % n : local % n; }

    /** True when some state shares the loop's trees (their representatives are {@code min * N + s}). */
    public boolean hasLoopTrees(int lambda) { return max == UNBOUNDED || (long) max - min >= (long) lambda + slack; }

    /** True when a walk entering the terminal can run on the plain loop: no token can reach a bound. */
    public boolean plainEntry(int lambda) { return min <= 1 && (max == UNBOUNDED || (long) max >= (long) lambda + slack); }
}
