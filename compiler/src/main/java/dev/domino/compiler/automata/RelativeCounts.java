package dev.domino.compiler.automata;

import dev.domino.runtime.internal.scan.ByteDfa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The least-count automaton of {@code B{m,n}} (m ≤ 1) with counts relative to their minimum: the
 * loop automaton of a counter for bodies that split several ways (see docs/counted-repeats.md,
 * "Not done yet"). A state is the set of pairs (state of B's minimal automaton D in the current
 * copy, copies started minus the least of them), as in {@link CountingAutomata#repeat}; the least
 * count is the counter, outside the state. A transition adds its {@link #delta} to the counter (by
 * the byte: after a digit in {@code ("a" | [0-9]+)*} a digit adds 0, a letter 1; more than 1 when
 * the cheapest pair dies); an accepting state has a {@link #finalWeight}, the offset of its
 * cheapest accepting pair. A string is in {@code B{m,n}} iff it ends in an accepting state with
 * m ≤ counter + weight ≤ n; pairs whose offset passes n are dropped (their copies exceed n).
 *
 * <p>Built for measurement and as the counter's loop: {@link #counted} unrolls it back into the
 * plain automaton, which must equal {@link CountingAutomata}'s (the test of exactness).
 */
public final class RelativeCounts {
    /** No transition on that byte. */
    public static final int DEAD = -1;
    /** Not accepting. */
    public static final int NONE = -1;

    private final int[][] next;
    private final int[][] delta;
    private final int[] finalWeight;
    private final int min;
    private final int max;

    private RelativeCounts(int[][] next, int[][] delta, int[] finalWeight, int min, int max) {
        this.next = next;
        this.delta = delta;
        this.finalWeight = finalWeight;
        this.min = min;
        this.max = max;
    }

    /**
     * @param body      B's language (its automaton without the empty string, as {@link DfaBuilder} gives it)
     * @param min       at most 1 (the least count is exact only then); a nullable body makes it 0
     * @param max       the most copies, at least 1 (bounded: offsets past it are dropped)
     * @param maxStates bound on the states ({@link DfaBuilder.TooLarge} past it)
     */
    public static RelativeCounts of(DfaBuilder.Language body, int min, int max, int maxStates) {
        if (min > 1 || max < 1 || body.dfa() == null) throw new IllegalArgumentException("relative counts need min <= 1 <= max and a non-empty body");
        ByteDfa d = body.dfa();
        int m = body.nullable() ? 0 : min;
        Map<List<Integer>, Integer> ids = new HashMap<>();
        List<int[]> states = new ArrayList<>();
        states.add(new int[0]); // the start: no copy started
        ids.put(List.of(), 0);
        List<int[]> nexts = new ArrayList<>(), deltas = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        int[] best = new int[d.stateCount()];
        Arrays.fill(best, Integer.MAX_VALUE);
        for (int i = 0; i < states.size(); i++) {
            dev.domino.compiler.CompileLimits.checkClock();
            int[] pairs = states.get(i);
            int[] to = new int[256], add = new int[256];
            for (int b = 0; b < 256; b++) {
                int first = d.step(d.start(), b);
                List<Integer> touched = new ArrayList<>();
                if (i == 0 && first >= 0) offer(best, touched, first, 1);
                for (int p = 0; p < pairs.length; p += 2) {
                    int q = pairs[p], k = pairs[p + 1];
                    int q2 = d.step(q, b);
                    if (q2 >= 0) offer(best, touched, q2, k);
                    if (first >= 0 && d.isAccepting(q)) offer(best, touched, first, k + 1);
                }
                if (touched.isEmpty()) { to[b] = DEAD; continue; }
                int least = Integer.MAX_VALUE;
                for (int q : touched) least = Math.min(least, best[q]);
                List<Integer> flat = new ArrayList<>();
                touched.sort(null);
                for (int q : touched) {
                    int offset = best[q] - least;
                    best[q] = Integer.MAX_VALUE;
                    if (offset <= max) { flat.add(q); flat.add(offset); }
                }
                Integer id = ids.get(flat);
                if (id == null) {
                    if (states.size() >= maxStates) throw new DfaBuilder.TooLarge(maxStates);
                    id = states.size();
                    ids.put(flat, id);
                    states.add(flat.stream().mapToInt(Integer::intValue).toArray());
                }
                to[b] = id;
                add[b] = least;
            }
            nexts.add(to);
            deltas.add(add);
            int weight = i == 0 ? (m == 0 ? 0 : NONE) : NONE;
            for (int p = 0; p < pairs.length; p += 2) {
                if (d.isAccepting(pairs[p]) && (weight == NONE || pairs[p + 1] < weight)) weight = pairs[p + 1];
            }
            weights.add(weight);
        }
        return new RelativeCounts(nexts.toArray(int[][]::new), deltas.toArray(int[][]::new),
                weights.stream().mapToInt(Integer::intValue).toArray(), m, max);
    }

    private static void offer(int[] best, List<Integer> touched, int q, int k) {
        if (best[q] == Integer.MAX_VALUE) touched.add(q);
        if (k < best[q]) best[q] = k;
    }

    public int stateCount() { return next.length; }
    /** The state after byte b, or {@link #DEAD}. */
    public int step(int s, int b) { return next[s][b]; }
    /** What the transition on b adds to the counter (meaningless when it is {@link #DEAD}). */
    public int delta(int s, int b) { return delta[s][b]; }
    /** The offset of the cheapest accepting pair, or {@link #NONE}. */
    public int finalWeight(int s) { return finalWeight[s]; }

    /** The largest delta of a transition (1 when no cheapest pair ever dies with its count). */
    public int maxDelta() {
        int most = 0;
        for (int s = 0; s < next.length; s++) for (int b = 0; b < 256; b++) if (next[s][b] != DEAD) most = Math.max(most, delta[s][b]);
        return most;
    }

    /** The largest final weight. */
    public int maxFinalWeight() { return Arrays.stream(finalWeight).max().orElse(NONE); }

    /**
     * The states after splitting each by the delta of the transition that entered it (the one-byte
     * lag that makes the increment a property of the state left, for a counter that counts on
     * leaving: see docs/counted-repeats.md).
     */
    public int laggedStateCount() {
        java.util.Set<Long> split = new java.util.HashSet<>();
        split.add(0L);
        for (int s = 0; s < next.length; s++) for (int b = 0; b < 256; b++) if (next[s][b] != DEAD) split.add(((long) next[s][b] << 32) | delta[s][b]);
        return split.size();
    }

    /**
     * This automaton for a counter that counts on leaving a state (as {@code CountedLoop} does): each
     * state split by the delta ℓ of the transition that entered it (0 or 1; null when some delta
     * passes 1). Leaving a state with ℓ = 1 counts one copy, so the counter lags the true count by
     * the current state's ℓ, and a state accepts with final weight ℓ + {@link #finalWeight}.
     */
    public Lagged lagged() {
        if (maxDelta() > 1) return null;
        Map<Long, Integer> ids = new HashMap<>();
        List<long[]> states = new ArrayList<>();
        states.add(new long[] {0, 0});
        ids.put(0L, 0);
        List<int[]> nexts = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            int s = (int) states.get(i)[0];
            int[] to = new int[256];
            for (int b = 0; b < 256; b++) {
                if (next[s][b] == DEAD) { to[b] = DEAD; continue; }
                long key = ((long) next[s][b] << 32) | delta[s][b];
                Integer id = ids.get(key);
                if (id == null) { id = states.size(); ids.put(key, id); states.add(new long[] {next[s][b], delta[s][b]}); }
                to[b] = id;
            }
            nexts.add(to);
        }
        boolean[] boundary = new boolean[states.size()];
        int[] weight = new int[states.size()];
        for (int i = 0; i < states.size(); i++) {
            int s = (int) states.get(i)[0], entered = (int) states.get(i)[1];
            boundary[i] = entered == 1;
            weight[i] = finalWeight[s] == NONE ? NONE : entered + finalWeight[s];
        }
        return new Lagged(nexts.toArray(int[][]::new), boundary, weight);
    }

    /** A loop automaton whose counter counts on leaving a boundary state, with final weights. */
    public record Lagged(int[][] next, boolean[] boundary, int[] weight) {
        public int stateCount() { return next.length; }

        /** The loop automaton (start 0; accepting where a weight is given), for {@code CountedLoop}. */
        public ByteDfa dfa() {
            int n = next.length;
            int[] table = new int[n * 256];
            boolean[] accepting = new boolean[n];
            for (int s = 0; s < n; s++) {
                System.arraycopy(next[s], 0, table, s * 256, 256);
                accepting[s] = weight[s] != NONE;
            }
            return new ByteDfa(n, 0, accepting, table);
        }

        /** The final weights with 0 where a state does not accept ({@code CountedLoop}'s form). */
        public int[] finalWeights() {
            int[] w = weight.clone();
            for (int s = 0; s < w.length; s++) if (w[s] == NONE) w[s] = 0;
            return w;
        }
    }

    /**
     * The language of a counter over {@link #lagged} (state, count of boundaries left), unrolled and
     * minimized: a string is accepted when min ≤ count + weight ≤ max.
     */
    public DfaBuilder.Language countedOnLeaving() {
        Lagged l = lagged();
        if (l == null) throw new IllegalStateException("a delta passes 1");
        return unroll(l.next, (s, b) -> l.boundary[s] ? 1 : 0, l.weight);
    }

    /** The plain automaton of pairs (state, counter), minimized: the language of {@code B{m,n}}. */
    public DfaBuilder.Language counted() { return unroll(next, (s, b) -> delta[s][b], finalWeight); }

    private interface Increment { int of(int state, int byteValue); }

    private DfaBuilder.Language unroll(int[][] to, Increment increment, int[] weight) {
        Map<Long, Integer> ids = new HashMap<>();
        List<long[]> states = new ArrayList<>();
        states.add(new long[] {0, 0});
        ids.put(0L, 0);
        DfaBuilder.Sparse out = new DfaBuilder.Sparse();
        for (int i = 0; i < states.size(); i++) {
            int s = (int) states.get(i)[0], c = (int) states.get(i)[1];
            int lo = 0;
            int target = -2;
            for (int b = 0; b <= 256; b++) {
                int t = -1;
                if (b < 256 && to[s][b] != DEAD && c + increment.of(s, b) <= max) {
                    int s2 = to[s][b], c2 = c + increment.of(s, b);
                    long key = ((long) s2 << 32) | c2;
                    Integer id = ids.get(key);
                    if (id == null) { id = states.size(); ids.put(key, id); states.add(new long[] {s2, c2}); }
                    t = id;
                }
                if (b == 256 || t != target) {
                    if (b > 0 && target >= 0) out.addRange(lo, b - 1, target);
                    lo = b;
                    target = t;
                }
            }
            int w = weight[s];
            out.endState(w != NONE && c + w >= min && c + w <= max);
        }
        return DfaBuilder.finish(out);
    }
}
