package dev.domino.runtime.internal;

import dev.domino.runtime.*;
import dev.domino.runtime.diagnostics.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

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
        int[][] depth = new int[terminals.length][];
        for (int t = 0; t < terminals.length; t++) depth[t] = depths(terminals[t].dfa());
        long[] keys = new long[states.size()];
        int n = 0;
        for (int q = 0; q < states.size(); q++) {
            int t = states.get(q)[0], s = states.get(q)[1];
            int d = t < 0 ? 0 : depth[t][s % terminals[t].dfa().stateCount()];
            if (t >= 0 && d <= 0) continue; // a start state, or unreachable
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

    /** Distance of each state from the start (a backslash counts {@link #ESCAPE_STEPS}); -1 when unreachable. */
    public static int[] depths(ByteDfa dfa) {
        return distancesFrom(dfa, dfa.start());
    }

    /** Distance of each state from {@code from} (a backslash counts {@link #ESCAPE_STEPS}); -1 when unreachable. */
    public static int[] distancesFrom(ByteDfa dfa, int from) {
        int[] d = new int[dfa.stateCount()];
        Arrays.fill(d, -1);
        // Dijkstra over (distance << 32 | state)
        PriorityQueue<Long> queue = new PriorityQueue<>();
        d[from] = 0;
        queue.add((long) from);
        while (!queue.isEmpty()) {
            long top = queue.poll();
            int s = (int) top, ds = (int) (top >>> 32);
            if (ds > d[s]) continue;
            for (int b = 0; b < 256; b++) {
                int s2 = dfa.step(s, b);
                if (s2 < 0) continue;
                int d2 = ds + (b == '\\' ? ESCAPE_STEPS : 1);
                if (d[s2] < 0 || d2 < d[s2]) { d[s2] = d2; queue.add(((long) d2 << 32) | s2); }
            }
        }
        return d;
    }
}
