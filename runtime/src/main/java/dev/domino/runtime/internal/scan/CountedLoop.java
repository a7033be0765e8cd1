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
    /**
     * Null: every accepting loop state ends the terminal at its count. Else per loop state, the copies
     * an end there adds to the count (a final weight: the loop automaton of a body that splits several
     * ways, see RelativeCounts in the compiler and docs/counted-repeats.md); the state accepts at
     * count c when min ≤ c + weight ≤ max.
     */
    private final int[] weights;
    /** {@link #boundaries} and {@link #weights} as an immutable value, for cache keys. */
    private final java.util.List<Integer> boundaryKey;

    /** @param loop the automaton of {@code body+} (start state not accepting); 1 ≤ min ≤ max copies */
    public CountedLoop(ByteDfa loop, int min, int max) { this(loop, null, min, max); }

    /**
     * @param loop       an automaton without the empty string whose strings are sequences of units
     * @param boundaries per loop state, true where a unit may start (the start state included); null
     *                   for the automaton of {@code body+}
     */
    public CountedLoop(ByteDfa loop, boolean[] boundaries, int min, int max) { this(loop, boundaries, null, min, max); }

    /**
     * @param weights null, or per loop state the final weight of an end there (see {@link #weights});
     *                needs explicit boundaries (the start may then be none: the count lags, see
     *                docs/counted-repeats.md) and a bounded max; each weight in [0, {@link #MAX_STATES}]
     */
    public CountedLoop(ByteDfa loop, boolean[] boundaries, int[] weights, int min, int max) {
        if (min < 1 || max < min) throw new IllegalArgumentException("counted repeat needs 1 <= min <= max");
        if (loop.isAccepting(loop.start())) throw new IllegalArgumentException("counted repeat of a nullable body");
        this.cap = max == UNBOUNDED ? min : max;
        if ((long) (cap + 1) * loop.stateCount() > MAX_STATES) throw new IllegalArgumentException("counted repeat too large: " + cap);
        if (boundaries != null && (boundaries.length != loop.stateCount() || weights == null && !boundaries[loop.start()])) {
            throw new IllegalArgumentException("unit boundaries must name every loop state and include the start");
        }
        if (weights != null) {
            if (boundaries == null || max == UNBOUNDED) throw new IllegalArgumentException("final weights need unit boundaries and a bounded count");
            if (weights.length != loop.stateCount()) throw new IllegalArgumentException("final weights must name every loop state");
            for (int w : weights) if (w < 0 || w > MAX_STATES) throw new IllegalArgumentException("bad final weight " + w);
        }
        this.loop = loop;
        this.min = min;
        this.max = max;
        this.n = loop.stateCount();
        this.boundaries = boundaries == null ? null : boundaries.clone();
        this.weights = weights == null ? null : weights.clone();
        if (boundaries == null) boundaryKey = null;
        else {
            Integer[] boxed = new Integer[n];
            for (int i = 0; i < n; i++) boxed[i] = (boundaries[i] ? 1 : 0) | (weights == null ? 0 : (weights[i] + 1) << 1);
            boundaryKey = java.util.List.of(boxed);
        }
        this.toFinish = unitsToFinish();
        int most = 0;
        boolean[] entered = new boolean[n];
        for (int q = 0; q < n; q++) for (int b = 0; b < 256; b++) { int q2 = loop.step(q, b); if (q2 >= 0) entered[q2] = true; }
        for (int q = 0; q < n; q++) {
            if (toFinish[q] == Integer.MAX_VALUE) throw new IllegalArgumentException("counted loop state " + q + " can never finish");
            // a token ending the terminal in q adds its weight: the count must have room for it too
            if (entered[q]) most = Math.max(most, Math.max(toFinish[q], loop.isAccepting(q) ? finalWeight(q) : 0));
        }
        this.slack = most;
    }

    /**
     * Per loop state, the fewest units that must still start before an accepting state: 0 inside
     * {@code body+} (the current copy ends it), more inside a pattern ({@code \d{5}x} after two digits: 4).
     * A state is viable only if its count plus this stays within max.
     */
    private final int[] toFinish;
    /**
     * The largest {@link #toFinish} or final weight of an accepting state, over the states other
     * than the start (0 for {@code body+}): a count this far from max lets no token reach it.
     */
    private final int slack;

    /**
     * 0-1 breadth-first search backwards from the accepting states; leaving a boundary costs a unit.
     * With final weights, a shortest-path search from each accepting state at its weight.
     */
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
        if (weights != null) return weightedToFinish(dist, preds, predCount);
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

    /** {@link #unitsToFinish()} from accepting states at their weights (Dijkstra: a weight may pass 1). */
    private int[] weightedToFinish(int[] dist, int[][] preds, int[] predCount) {
        java.util.PriorityQueue<long[]> work = new java.util.PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));
        for (int q = 0; q < n; q++) if (loop.isAccepting(q)) { dist[q] = weights[q]; work.add(new long[] {weights[q], q}); }
        while (!work.isEmpty()) {
            long[] top = work.poll();
            int q = (int) top[1];
            if (top[0] != dist[q]) continue;
            for (int i = 0; i < predCount[q]; i++) {
                int p = preds[q][i];
                int d = dist[q] + (startsCopy(p) ? 1 : 0);
                if (d < dist[p]) { dist[p] = d; work.add(new long[] {d, p}); }
            }
        }
        return dist;
    }

    /** The copies an end in accepting loop state s adds to the count (0 without final weights). */
    public int finalWeight(int s) { return weights == null ? 0 : weights[s]; }

    /** The final weights, or null when every end adds nothing (see {@link #weights}). */
    public int[] weights() { return weights == null ? null : weights.clone(); }

    /** True when loop state s may end the terminal with {@code count} copies counted before it. */
    public boolean endsAt(int s, long count) {
        if (!loop.isAccepting(s)) return false;
        long total = count + finalWeight(s);
        return total >= min && (max == UNBOUNDED || total <= max);
    }

    /** Copies counted after the terminal's first byte (leaving the start counts one unless the count lags). */
    public int firstCopies() { return startsCopy(loop.start()) ? 1 : 0; }

    /** Units that must still start after loop state s before the terminal can end (see {@link #toFinish}). */
    public int unitsToFinish(int s) { return toFinish[s]; }

    /** The explicit unit boundaries and final weights as an immutable list (a cache key), or null for those of {@code body+}. */
    public java.util.List<Integer> boundaryKey() { return boundaryKey; }

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

    public boolean isAccepting(int local) { return endsAt(local % n, local / n); }

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
