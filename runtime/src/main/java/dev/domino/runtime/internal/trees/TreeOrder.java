package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.*;

import dev.domino.runtime.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which scanner states own a tree, and in which order to build them when not all can be built
 * at once (prebuilt within a compile budget, or in the background after the first mask): the
 * order decoding is likely to need them.
 */
public final class TreeOrder {
    private TreeOrder() {}

    /**
     * The scanner states that own a tree, as {terminal (-1 = between), local state, global state}:
     * the between state, then each terminal's automaton states; a counted terminal's further
     * states share these trees (see {@link CountedLoop#canonical}) but for the plain loop's trees
     * at count min.
     */
    public static List<int[]> treeStates(Terminal[] terminals, int maxTokenBytes) {
        List<int[]> states = new ArrayList<>();
        states.add(new int[] {-1, 0, 0});
        int stateTotal = 1;
        for (int t = 0; t < terminals.length; t++) {
            CountedLoop counted = terminals[t].counted();
            int loopStates = terminals[t].dfa().stateCount();
            for (int s = 0; s < loopStates; s++) states.add(new int[] {t, s, stateTotal + s});
            if (counted != null && counted.hasLoopTrees(maxTokenBytes)) {
                // representatives: annotated trees at count 0, and the plain loop's trees at count min
                int base = counted.min() * loopStates;
                for (int s = 0; s < loopStates; s++) states.add(new int[] {t, base + s, stateTotal + base + s});
            }
            stateTotal += terminals[t].stateCount();
        }
        return states;
    }

    /**
     * Indexes into {@code states} (see {@link #treeStates}) of the trees worth building, most
     * used first: between terminals, then by distance from their terminal's start (escapes count
     * more, see {@link #ESCAPE_STEPS}), counted terminals' annotated trees last. Every member of a
     * large object passes the first states of every key terminal that may come next, but only the
     * deep states of the key it writes. Start states are left out: a configuration enters a
     * terminal with its first byte, so never sits there.
     */
    public static int[] buildOrder(Terminal[] terminals, List<int[]> states) {
        return buildOrder(terminals, states, Integer.MAX_VALUE);
    }

    /**
     * The part of {@link #buildOrder} worth building before the first mask: states reached with at
     * most {@link #PREBUILD_MAX_WHITESPACE} whitespace bytes inside their terminal. The others are
     * built on first use (or in the background).
     */
    public static int[] prebuildOrder(Terminal[] terminals, List<int[]> states) {
        return buildOrder(terminals, states, PREBUILD_MAX_WHITESPACE);
    }

    /**
     * Whitespace bytes inside one terminal beyond which a state's tree is not prebuilt. A JSON
     * Schema key, comma or bracket terminal has a state per whitespace byte on each side (up to
     * 100): measured on the MaskBench tests of 104 dev schemas (every 100th Github_medium and
     * Kubernetes file, every 80th of the rest), 442,266 trees, of which the tests used 4,435:
     * 4,283 of the 51,932 trees reached without whitespace, 152 of the 3,933 reached with one
     * whitespace byte, none of the 386,401 that need two or more. Those are built on first use
     * (pretty-printed output, a newline and indentation, needs a few of them).
     */
    public static final int PREBUILD_MAX_WHITESPACE = 1;

    private static int[] buildOrder(Terminal[] terminals, List<int[]> states, int maxWhitespace) {
        int[][] depth = new int[terminals.length][];
        for (int t = 0; t < terminals.length; t++) depth[t] = depths(terminals[t].dfa());
        int[][] whitespace = new int[terminals.length][];
        if (maxWhitespace != Integer.MAX_VALUE) for (int t = 0; t < terminals.length; t++) whitespace[t] = whitespaceDepths(terminals[t].dfa());
        long[] keys = new long[states.size()];
        int n = 0;
        for (int q = 0; q < states.size(); q++) {
            int t = states.get(q)[0], s = states.get(q)[1];
            int d = t < 0 ? 0 : depth[t][s % terminals[t].dfa().stateCount()];
            if (t >= 0 && d <= 0) continue; // a start state, or unreachable
            if (t >= 0 && whitespace[t] != null && whitespace[t][s % terminals[t].dfa().stateCount()] > maxWhitespace) continue;
            // a counted terminal's annotated trees (count 0) last: each walks the whole vocabulary
            // for states only the ends of strings use, while cheap trees wait
            if (t >= 0 && terminals[t].counted() != null && s < terminals[t].dfa().stateCount()) d += 1 << 20;
            keys[n++] = ((long) d << 32) | q;
        }
        keys = Arrays.copyOf(keys, n);
        Arrays.sort(keys);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = (int) keys[i];
        return order;
    }

    /**
     * A backslash costs this many steps in {@link #depths}: outputs rarely escape characters that
     * need no escaping, so a key's plain spelling comes before its {@code \u0061} spellings, which
     * have five states per character where the plain one has one.
     */
    public static final int ESCAPE_STEPS = 8;

    /**
     * A whitespace byte costs this many steps in {@link #depths}: outputs use one or two bytes of
     * a whitespace run, so the states inside a key or a value come before the fourth space of a
     * run, and the prebuild order reaches the trees the first masks use sooner
     * (docs/performance.md).
     */
    public static final int WHITESPACE_STEPS = 8;

    /** Distance of each state from the start (a backslash counts {@link #ESCAPE_STEPS}, whitespace {@link #WHITESPACE_STEPS}); -1 when unreachable. */
    public static int[] depths(ByteDfa dfa) {
        return distancesFrom(dfa, dfa.start());
    }

    /** Distance of each state from {@code from} (a backslash counts {@link #ESCAPE_STEPS}, whitespace {@link #WHITESPACE_STEPS}); -1 when unreachable. */
    public static int[] distancesFrom(ByteDfa dfa, int from) {
        return shortestPaths(dfa, from, ESCAPE_STEPS, WHITESPACE_STEPS, 1);
    }

    /** Fewest whitespace bytes on a path from the start to each state; -1 when unreachable. */
    static int[] whitespaceDepths(ByteDfa dfa) {
        return shortestPaths(dfa, dfa.start(), 0, 1, 0);
    }

    /**
     * Dijkstra from {@code from} where a byte costs {@code backslash}, {@code whitespace} or
     * {@code other}. Edges are taken a byte range at a time (a range costs its cheapest byte), not
     * a byte at a time: stepping all 256 bytes of every state of a large schema's automata is a
     * visible part of the time before the first mask.
     */
    static int[] shortestPaths(ByteDfa dfa, int from, int backslash, int whitespace, int other) {
        int[] d = new int[dfa.stateCount()];
        Arrays.fill(d, -1);
        LongHeap queue = new LongHeap();
        d[from] = 0;
        queue.add(from);
        while (!queue.isEmpty()) {
            long top = queue.poll();
            int s = (int) top, ds = (int) (top >>> 32);
            if (ds > d[s]) continue;
            for (int r = dfa.firstRange(s), end = dfa.endRange(s); r < end; r++) {
                int d2 = ds + rangeCost(dfa.rangeLo(r), dfa.rangeHi(r), backslash, whitespace, other);
                int s2 = dfa.rangeTarget(r);
                if (d[s2] < 0 || d2 < d[s2]) { d[s2] = d2; queue.add(((long) d2 << 32) | s2); }
            }
        }
        return d;
    }

    /** The cheapest byte of {@code lo..hi}. */
    static int rangeCost(int lo, int hi, int backslash, int whitespace, int other) {
        int special = 0, cost = Integer.MAX_VALUE;
        if (lo <= '\\' && '\\' <= hi) { special++; cost = backslash; }
        for (int b : WHITESPACE) {
            if (lo <= b && b <= hi) { special++; cost = Math.min(cost, whitespace); }
        }
        return hi - lo + 1 > special ? Math.min(cost, other) : cost;
    }

    private static final int[] WHITESPACE = {'\t', '\n', '\r', ' '};

    /** A binary min-heap of longs (no boxing: a Kubernetes schema's terminals have 10^5 states). */
    private static final class LongHeap {
        private long[] a = new long[64];
        private int n;

        boolean isEmpty() { return n == 0; }

        void add(long v) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            int i = n++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (a[parent] <= v) break;
                a[i] = a[parent];
                i = parent;
            }
            a[i] = v;
        }

        long poll() {
            long top = a[0], last = a[--n];
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= n) break;
                if (c + 1 < n && a[c + 1] < a[c]) c++;
                if (a[c] >= last) break;
                a[i] = a[c];
                i = c;
            }
            if (n > 0) a[i] = last;
            return top;
        }
    }

}
