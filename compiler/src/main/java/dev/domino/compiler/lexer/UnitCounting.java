package dev.domino.compiler.lexer;

import dev.domino.runtime.internal.scan.ByteDfa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The automaton of a pattern's strings made of at least {@code min} units (JSON string characters),
 * with the states where a unit starts marked: what a counted terminal over a pattern needs (see
 * CountedLoop, which counts the units up to the maximum).
 *
 * <p>Algorithm: the product of the pattern's automaton, the automaton of {@code unit+} (at its start
 * or an accepting state a unit starts: the unit is prefix-free, so that is exact) and a count of
 * units saturating at min; accepting where the pattern and the unit loop accept and the count has
 * reached min; states that can never accept (below min where the pattern ends early) are cut. A lower
 * bound inside the automaton and an upper one in the counter are exact together: a state is viable
 * when its shortest way to accept (which meets min by construction) fits under the maximum, whatever
 * gaps the pattern's lengths have ({@code (ab)+} has no 3-unit string).
 */
final class UnitCounting {
    private UnitCounting() {}

    /** The product and, per state, whether a unit starts when leaving it. */
    record Product(ByteDfa dfa, boolean[] boundaries) {}

    /** More than the allowed product states. */
    static final class TooLarge extends RuntimeException {
        private final int states;
        TooLarge(int states) { super(null, null, false, false); this.states = states; }
        int states() { return states; }
    }

    /**
     * @param text      the pattern (no empty string), as JSON string content
     * @param loop      the automaton of {@code unit+}
     * @param maxStates bound on the product's states
     * @return null when no string of text has min units
     */
    static Product product(ByteDfa text, ByteDfa loop, int min, int maxStates) {
        Map<Long, Integer> index = new HashMap<>();
        List<int[]> triples = new ArrayList<>(); // text state, loop state, units (saturating at min)
        index.put(key(text.start(), loop.start(), 0), 0);
        triples.add(new int[] {text.start(), loop.start(), 0});
        List<int[]> rangesOf = new ArrayList<>(); // per state: lo, hi, target triples
        for (int i = 0; i < triples.size(); i++) {
            int a = triples.get(i)[0], b = triples.get(i)[1], c = triples.get(i)[2];
            int c2 = startsUnit(loop, b) ? Math.min(c + 1, min) : c;
            int[] ranges = new int[48];
            int nr = 0;
            for (int x = 0; x < 256; ) {
                int a2 = text.step(a, x), b2 = loop.step(b, x);
                int target = -1;
                if (a2 >= 0 && b2 >= 0) {
                    long k = key(a2, b2, c2);
                    Integer id = index.get(k);
                    if (id == null) {
                        id = triples.size();
                        if (id + 1 > maxStates) throw new TooLarge(id + 1);
                        index.put(k, id);
                        triples.add(new int[] {a2, b2, c2});
                    }
                    target = id;
                }
                int y = x;
                while (y + 1 < 256 && text.step(a, y + 1) == a2 && loop.step(b, y + 1) == b2) y++;
                if (target >= 0) {
                    if (nr + 3 > ranges.length) ranges = Arrays.copyOf(ranges, ranges.length * 2);
                    ranges[nr++] = x; ranges[nr++] = y; ranges[nr++] = target;
                }
                x = y + 1;
            }
            rangesOf.add(Arrays.copyOf(ranges, nr));
        }
        int n = triples.size();
        boolean[] accepting = new boolean[n];
        for (int i = 0; i < n; i++) {
            int[] q = triples.get(i);
            accepting[i] = text.isAccepting(q[0]) && loop.isAccepting(q[1]) && q[2] >= min;
        }
        boolean[] live = accepting.clone();
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int i = 0; i < n; i++) {
                if (live[i]) continue;
                int[] rs = rangesOf.get(i);
                for (int j = 2; j < rs.length; j += 3) if (live[rs[j]]) { live[i] = true; changed = true; break; }
            }
        }
        if (!live[0]) return null;
        int[] renumber = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) renumber[i] = live[i] ? m++ : -1;
        boolean[] acc = new boolean[m], boundaries = new boolean[m];
        int[] rangeStart = new int[m + 1];
        List<int[]> kept = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!live[i]) continue;
            int j = renumber[i];
            acc[j] = accepting[i];
            boundaries[j] = startsUnit(loop, triples.get(i)[1]);
            int[] rs = rangesOf.get(i);
            int[] out = new int[rs.length];
            int no = 0;
            for (int r = 0; r < rs.length; r += 3) {
                if (!live[rs[r + 2]]) continue;
                out[no++] = rs[r]; out[no++] = rs[r + 1]; out[no++] = renumber[rs[r + 2]];
            }
            kept.add(Arrays.copyOf(out, no));
            rangeStart[j + 1] = rangeStart[j] + no / 3;
        }
        byte[] lo = new byte[rangeStart[m]], hi = new byte[rangeStart[m]];
        int[] target = new int[rangeStart[m]];
        for (int j = 0, r = 0; j < m; j++) {
            int[] rs = kept.get(j);
            for (int k = 0; k < rs.length; k += 3, r++) { lo[r] = (byte) rs[k]; hi[r] = (byte) rs[k + 1]; target[r] = rs[k + 2]; }
        }
        return new Product(ByteDfa.ofRanges(m, 0, acc, rangeStart, lo, hi, target), boundaries);
    }

    private static boolean startsUnit(ByteDfa loop, int b) { return b == loop.start() || loop.isAccepting(b); }

    private static long key(int a, int b, int c) { return ((long) a << 40) | ((long) b << 20) | c; }
}
