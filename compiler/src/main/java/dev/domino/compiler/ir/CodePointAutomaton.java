package dev.domino.compiler.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable minimal deterministic automaton over Unicode code points: the language of an
 * {@link Expr.Automaton} leaf. State 0 is the start; state s has sorted, disjoint code point
 * ranges {@code lo..hi -> target}; a missing range rejects (no dead state is kept).
 *
 * <p>Built by {@link Builder}, which trims the states that are unreachable or cannot accept,
 * merges equivalent states by Moore refinement (signatures of each state's acceptance and of the
 * blocks its ranges lead to, one hash pass over the transitions per round, rounds up to the
 * longest distinguishing suffix), and numbers the states breadth-first from the start, ranges
 * ascending: equal languages give equal automata, so {@link #equals} compares languages.
 * The empty language is one non-accepting state without ranges.
 */
public final class CodePointAutomaton {
    private final boolean[] accepting;
    /** State s has ranges {@code rangeStart[s] .. rangeStart[s + 1] - 1}. */
    private final int[] rangeStart;
    private final int[] lo, hi, target;
    private final int hash;

    private CodePointAutomaton(boolean[] accepting, int[] rangeStart, int[] lo, int[] hi, int[] target) {
        this.accepting = accepting;
        this.rangeStart = rangeStart;
        this.lo = lo;
        this.hi = hi;
        this.target = target;
        this.hash = 31 * (31 * Arrays.hashCode(accepting) + Arrays.hashCode(lo)) + Arrays.hashCode(target) + Arrays.hashCode(hi);
    }

    public int stateCount() { return accepting.length; }
    public int start() { return 0; }
    public boolean isAccepting(int s) { return accepting[s]; }
    /** Ranges of all states together. */
    public int rangeCount() { return lo.length; }
    public int firstRange(int s) { return rangeStart[s]; }
    public int endRange(int s) { return rangeStart[s + 1]; }
    public int lo(int r) { return lo[r]; }
    public int hi(int r) { return hi[r]; }
    public int target(int r) { return target[r]; }

    /** The empty language (nothing matches). */
    public boolean isEmpty() { return !accepting[0] && rangeStart[1] == 0; }

    /** The state after cp from s, or -1. */
    public int step(int s, int cp) {
        int a = rangeStart[s], b = rangeStart[s + 1] - 1;
        while (a <= b) {
            int m = (a + b) >>> 1;
            if (cp < lo[m]) b = m - 1;
            else if (cp > hi[m]) a = m + 1;
            else return target[m];
        }
        return -1;
    }

    public boolean matches(String text) {
        int s = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            s = step(s, cp);
            if (s < 0) return false;
            i += Character.charCount(cp);
        }
        return accepting[s];
    }

    /** The code points leaving s, as one set. */
    public CodePointSet firstSet(int s) {
        int[] pairs = new int[2 * (rangeStart[s + 1] - rangeStart[s])];
        for (int r = rangeStart[s], k = 0; r < rangeStart[s + 1]; r++) { pairs[k++] = lo[r]; pairs[k++] = hi[r]; }
        return CodePointSet.fromRanges(pairs);
    }

    /** The language of the strings read from state s (the derivative by any text leading to s). */
    public CodePointAutomaton from(int s) {
        if (s == 0) return this;
        Builder b = new Builder();
        for (int q = 0; q < stateCount(); q++) b.addState(accepting[q]);
        for (int q = 0; q < stateCount(); q++) for (int r = rangeStart[q]; r < rangeStart[q + 1]; r++) b.addRange(q, lo[r], hi[r], target[r]);
        return b.build(s);
    }

    /** Length in code points of the shortest accepted string; -1 for the empty language. */
    public int minLength() {
        if (isEmpty()) return -1;
        int[] dist = new int[stateCount()];
        Arrays.fill(dist, -1);
        int[] queue = new int[stateCount()];
        int qn = 0;
        dist[0] = 0;
        queue[qn++] = 0;
        for (int i = 0; i < qn; i++) {
            int q = queue[i];
            if (accepting[q]) return dist[q];
            for (int r = rangeStart[q]; r < rangeStart[q + 1]; r++) {
                if (dist[target[r]] < 0) { dist[target[r]] = dist[q] + 1; queue[qn++] = target[r]; }
            }
        }
        return -1;
    }

    /** Length of the longest accepted string: Integer.MAX_VALUE when there is a cycle (every state is live), -1 when empty. */
    public int maxLength() {
        if (isEmpty()) return -1;
        int n = stateCount();
        // longest path in the DAG (every state is reachable and live: a cycle means unbounded)
        int[] indeg = new int[n];
        for (int r = 0; r < lo.length; r++) indeg[target[r]]++;
        int[] order = new int[n];
        int on = 0;
        for (int q = 0; q < n; q++) if (indeg[q] == 0) order[on++] = q;
        for (int i = 0; i < on; i++) {
            int q = order[i];
            for (int r = rangeStart[q]; r < rangeStart[q + 1]; r++) if (--indeg[target[r]] == 0) order[on++] = target[r];
        }
        if (on < n) return Integer.MAX_VALUE;
        int[] longest = new int[n];
        Arrays.fill(longest, Integer.MIN_VALUE);
        longest[0] = 0;
        int best = -1;
        for (int i = 0; i < n; i++) {
            int q = order[i];
            if (longest[q] == Integer.MIN_VALUE) continue;
            if (accepting[q]) best = Math.max(best, longest[q]);
            for (int r = rangeStart[q]; r < rangeStart[q + 1]; r++) longest[target[r]] = Math.max(longest[target[r]], longest[q] + 1);
        }
        return best;
    }

    @Override public boolean equals(Object o) {
        return o instanceof CodePointAutomaton a && a.hash == hash && Arrays.equals(accepting, a.accepting)
                && Arrays.equals(rangeStart, a.rangeStart) && Arrays.equals(lo, a.lo) && Arrays.equals(hi, a.hi) && Arrays.equals(target, a.target);
    }

    @Override public int hashCode() { return hash; }

    @Override public String toString() { return "dfa<" + stateCount() + " states, " + rangeCount() + " ranges>"; }

    /**
     * Collects a deterministic automaton (state 0 the start unless {@link #build(int)} says otherwise):
     * ranges of one state must not overlap.
     */
    public static final class Builder {
        private final List<Boolean> acc = new ArrayList<>();
        private final List<int[]> ranges = new ArrayList<>(); // per state: lo, hi, target triples
        private final List<Integer> sizes = new ArrayList<>();

        public int addState(boolean accepting) {
            acc.add(accepting);
            ranges.add(new int[6]);
            sizes.add(0);
            return acc.size() - 1;
        }

        public int stateCount() { return acc.size(); }

        /** Adds {@code l..h -> to} out of {@code from}; surrogates (no UTF-8 encoding) are left out. */
        public void addRange(int from, int l, int h, int to) {
            if (l <= 0xDFFF && h >= 0xD800) {
                if (l < 0xD800) addRange(from, l, 0xD7FF, to);
                if (h > 0xDFFF) addRange(from, 0xE000, h, to);
                return;
            }
            if (l > h) return;
            int n = sizes.get(from);
            int[] rs = ranges.get(from);
            if (n + 3 > rs.length) { rs = Arrays.copyOf(rs, rs.length * 2); ranges.set(from, rs); }
            rs[n] = l; rs[n + 1] = h; rs[n + 2] = to;
            sizes.set(from, n + 3);
        }

        public void addEdge(int from, CodePointSet set, int to) {
            for (int i = 0; i < set.rangeCount(); i++) addRange(from, set.lo(i), set.hi(i), to);
        }

        public CodePointAutomaton build() { return build(0); }

        /** The minimal automaton of the language read from {@code start}. */
        public CodePointAutomaton build(int start) {
            int n = acc.size();
            // per state: ranges sorted by lo, checked disjoint
            int[][] sorted = new int[n][];
            for (int q = 0; q < n; q++) {
                int m = sizes.get(q) / 3;
                int[] rs = ranges.get(q);
                boolean inOrder = true;
                for (int i = 1; i < m && inOrder; i++) inOrder = rs[3 * i] > rs[3 * i - 3];
                int[] out;
                if (inOrder) {
                    out = Arrays.copyOf(rs, 3 * m); // most states add their ranges ascending: no sort
                } else {
                    Integer[] idx = new Integer[m];
                    for (int i = 0; i < m; i++) idx[i] = i;
                    Arrays.sort(idx, (a, b) -> Integer.compare(rs[3 * a], rs[3 * b]));
                    out = new int[3 * m];
                    for (int i = 0; i < m; i++) {
                        out[3 * i] = rs[3 * idx[i]]; out[3 * i + 1] = rs[3 * idx[i] + 1]; out[3 * i + 2] = rs[3 * idx[i] + 2];
                    }
                }
                for (int i = 1; i < m; i++) {
                    if (out[3 * i] <= out[3 * i - 2]) throw new IllegalArgumentException("overlapping ranges out of state " + q + ": not deterministic");
                }
                sorted[q] = out;
            }
            // reachable from start
            boolean[] reach = new boolean[n];
            int[] queue = new int[n];
            int qn = 0;
            reach[start] = true;
            queue[qn++] = start;
            for (int i = 0; i < qn; i++) {
                int[] rs = sorted[queue[i]];
                for (int k = 2; k < rs.length; k += 3) if (!reach[rs[k]]) { reach[rs[k]] = true; queue[qn++] = rs[k]; }
            }
            // live: reaches an accepting state
            List<List<Integer>> rev = new ArrayList<>(n);
            for (int q = 0; q < n; q++) rev.add(null);
            for (int q = 0; q < n; q++) {
                if (!reach[q]) continue;
                int[] rs = sorted[q];
                for (int k = 2; k < rs.length; k += 3) {
                    if (rev.get(rs[k]) == null) rev.set(rs[k], new ArrayList<>());
                    rev.get(rs[k]).add(q);
                }
            }
            boolean[] live = new boolean[n];
            qn = 0;
            for (int q = 0; q < n; q++) if (reach[q] && acc.get(q)) { live[q] = true; queue[qn++] = q; }
            for (int i = 0; i < qn; i++) {
                List<Integer> ps = rev.get(queue[i]);
                if (ps != null) for (int p : ps) if (!live[p]) { live[p] = true; queue[qn++] = p; }
            }
            if (!live[start]) return new CodePointAutomaton(new boolean[1], new int[2], new int[0], new int[0], new int[0]);
            // Moore refinement over the live states
            int[] block = new int[n];
            Arrays.fill(block, -1);
            for (int q = 0; q < n; q++) if (live[q]) block[q] = acc.get(q) ? 1 : 0;
            int blocks = -1;
            int[] key = new int[16];
            while (true) {
                Map<Signature, Integer> sig = new HashMap<>();
                int[] fresh = new int[n];
                Arrays.fill(fresh, -1);
                for (int q = 0; q < n; q++) {
                    if (!live[q]) continue;
                    int[] rs = sorted[q];
                    if (key.length < rs.length + 1) key = new int[Math.max(rs.length + 1, 2 * key.length)];
                    int kn = 0;
                    key[kn++] = block[q];
                    int prevHi = -2, prevBlock = -1;
                    for (int k = 0; k < rs.length; k += 3) {
                        int t = block[rs[k + 2]];
                        if (t < 0) continue; // into a dead state: as if absent
                        if (rs[k] == prevHi + 1 && t == prevBlock) { key[kn - 1] = rs[k + 1]; prevHi = rs[k + 1]; continue; }
                        key[kn++] = rs[k]; key[kn++] = t; key[kn++] = rs[k + 1]; // hi last: a following adjacent range extends it
                        prevHi = rs[k + 1];
                        prevBlock = t;
                    }
                    fresh[q] = sig.computeIfAbsent(new Signature(Arrays.copyOf(key, kn)), x -> sig.size());
                }
                block = fresh;
                if (sig.size() == blocks) break;
                blocks = sig.size();
            }
            // breadth-first numbering of the blocks from the start's
            int[] number = new int[blocks];
            Arrays.fill(number, -1);
            int[] repr = new int[blocks];
            for (int q = n - 1; q >= 0; q--) if (live[q]) repr[block[q]] = q;
            int[] order = new int[blocks];
            int on = 0;
            number[block[start]] = 0;
            order[on++] = block[start];
            List<int[]> rowOf = new ArrayList<>();
            int total = 0;
            for (int i = 0; i < on; i++) {
                int[] rs = sorted[repr[order[i]]];
                int[] row = new int[rs.length];
                int m = 0;
                for (int k = 0; k < rs.length; k += 3) {
                    int b = block[rs[k + 2]];
                    if (b < 0) continue;
                    if (number[b] < 0) { number[b] = on; order[on++] = b; }
                    if (m > 0 && row[m - 2] + 1 == rs[k] && row[m - 1] == number[b]) { row[m - 2] = rs[k + 1]; continue; }
                    row[m++] = rs[k]; row[m++] = rs[k + 1]; row[m++] = number[b];
                }
                rowOf.add(Arrays.copyOf(row, m));
                total += m / 3;
            }
            boolean[] accepting = new boolean[on];
            int[] rangeStart = new int[on + 1];
            int[] lo = new int[total], hi = new int[total], target = new int[total];
            for (int i = 0, r = 0; i < on; i++) {
                accepting[i] = acc.get(repr[order[i]]);
                int[] row = rowOf.get(i);
                for (int k = 0; k < row.length; k += 3, r++) { lo[r] = row[k]; hi[r] = row[k + 1]; target[r] = row[k + 2]; }
                rangeStart[i + 1] = r;
            }
            return new CodePointAutomaton(accepting, rangeStart, lo, hi, target);
        }

        /** A state's block and its ranges' blocks in one round of the refinement, compared by content. */
        private static final class Signature {
            final int[] parts;
            final int hash;
            Signature(int[] parts) { this.parts = parts; this.hash = Arrays.hashCode(parts); }
            @Override public int hashCode() { return hash; }
            @Override public boolean equals(Object o) { return o instanceof Signature x && x.hash == hash && Arrays.equals(x.parts, parts); }
        }
    }
}
