package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.util.*;
import dev.domino.runtime.internal.vocab.*;

import java.util.Arrays;

/**
 * A state's terminal walk derived from the walk of its <em>hub</em>: the state most of its bytes lead to, which
 * itself leads most bytes back to itself (the searching state of an unanchored pattern, a string's character
 * state). Both are stepped in lockstep down the trie; wherever the two reach one trie node in the same state,
 * everything below it is the same in both walks, so it is taken from the hub's walk as it is. Only the nodes
 * where the two states differ are visited: the hub's results there are removed and the state's own added.
 *
 * <p>Why: a partial match of an unanchored pattern inside a string ({@code .*uuid.*}: one state per matched
 * character) keeps nearly the whole vocabulary and walked it node by node, 200,000 nodes and 15-20 ms of CPU per
 * state, though its walk differs from the searching state's only below tokens that continue the match.
 *
 * <p>Exact: a walk is a function of the (trie node, automaton state) pairs it reaches. At a pair reached by both,
 * both walks add the same tokens and ends below it. At a node reached in different states, the node's tokens are
 * added by both (both are alive there), its end children by those of the two that accept; a child that one of them
 * cannot enter, or where either takes the whole subtree at once (a loop end), is replaced as a subtree: the hub's
 * tokens and ends there removed, the state's own walk of it added. The ends are removed by trie node ranges,
 * which is what a walk's ends are made of (children of end nodes, loop end nodes).
 */
final class HubWalk {
    /** At least this many bytes must lead the state and its hub to the same live state. */
    private static final int MIN_SHARED_BYTES = 64;

    /** Set while this thread computes a hub's walk. */
    private static final ThreadLocal<boolean[]> DERIVING = ThreadLocal.withInitial(() -> new boolean[1]);

    private final TerminalWalks walks;
    private final VocabTrie trie;
    private final ByteDfa dfa;
    private final TerminalWalks.Acc acc;
    /** Removal ranges {@code [lo, hi)} of trie nodes: for the hub's end children, and for its loop end nodes. */
    private final IntList endLo = new IntList(), endHi = new IntList(), loopLo = new IntList(), loopHi = new IntList();
    private final int budget;
    private int visited;

    private HubWalk(TerminalWalks walks, VocabTrie trie, ByteDfa dfa, int vocabSize) {
        this.walks = walks;
        this.trie = trie;
        this.dfa = dfa;
        this.acc = walks.newAcc(vocabSize);
        this.budget = Math.max(4096, trie.nodeCount() / 8);
    }

    /** The walk of {@code state} derived from its hub's, or null when it has no hub or the states differ on too much of the trie. */
    static TerminalWalks.Walk of(TerminalWalks walks, VocabTrie trie, ByteDfa dfa, int state, int vocabSize) {
        if (DERIVING.get()[0] || walks.hasTwin(dfa, state)) return null;
        int hub = hubOf(dfa, state);
        if (hub < 0) return null;
        boolean[] deriving = DERIVING.get();
        TerminalWalks.Walk base;
        deriving[0] = true; // the hub's walk (or its bounded-future class's) is walked, never derived: no cycle
        try {
            base = walks.get(dfa, hub, vocabSize);
        } finally {
            deriving[0] = false;
        }
        HubWalk h = new HubWalk(walks, trie, dfa, vocabSize);
        return h.derive(base, state, hub) ? h.finish(base, vocabSize) : null;
    }

    /**
     * The state most bytes lead to from {@code state}, when that is a state other than {@code state} whose own most
     * frequent successor is itself (so hubs never derive from one another), and the two agree on at least
     * {@link #MIN_SHARED_BYTES} bytes that lead to a live state; else -1.
     */
    static int hubOf(ByteDfa dfa, int state) {
        int[] next = new int[256];
        for (int b = 0; b < 256; b++) next[b] = dfa.step(state, b);
        int hub = mostFrequent(next);
        if (hub < 0 || hub == state) return -1;
        int[] fromHub = new int[256];
        int shared = 0;
        for (int b = 0; b < 256; b++) {
            fromHub[b] = dfa.step(hub, b);
            if (fromHub[b] == next[b] && next[b] >= 0) shared++;
        }
        if (shared < MIN_SHARED_BYTES || mostFrequent(fromHub) != hub) return -1;
        return hub;
    }

    /** The live state most bytes lead to (the smallest on a tie), or -1. */
    private static int mostFrequent(int[] next) {
        int[] sorted = next.clone();
        Arrays.sort(sorted);
        int best = -1, bestRun = 0;
        for (int i = 0; i < 256; ) {
            int j = i;
            while (j < 256 && sorted[j] == sorted[i]) j++;
            if (sorted[i] >= 0 && j - i > bestRun) { best = sorted[i]; bestRun = j - i; }
            i = j;
        }
        return best;
    }

    private boolean derive(TerminalWalks.Walk base, int state, int hub) {
        if (acc.bits == null) acc.toBitmap();
        base.continuation().orInto(acc.bits);
        acc.endsAtRoot = dfa.isAccepting(state);
        boolean[] accepting = dfa.acceptingArray();
        long[] loops = dfa.asciiLoops();
        int[] stackNode = new int[64], stackA = new int[64], stackB = new int[64];
        int sp = 0;
        stackNode[sp] = 0; stackA[sp] = state; stackB[sp++] = hub;
        while (sp > 0) {
            if (++visited > budget) return false;
            int n = stackNode[--sp], a = stackA[sp], b = stackB[sp];
            if (n != 0 && (takesWhole(n, a, loops) || takesWhole(n, b, loops))) {
                if (!replace(n, a)) return false;
                continue;
            }
            int first = trie.firstChild(n), end = trie.endChild(n);
            if (n != 0 && first < end && accepting[a] != accepting[b]) {
                // the node's tokens are both walks'; its end children only of the one that accepts
                if (accepting[a]) for (int c = first; c < end; c++) acc.endEdges.add(c);
                else for (int c = first; c < end; c++) { endLo.add(trie.childNode(c)); endHi.add(trie.childNode(c) + 1); }
            }
            for (int c = first; c < end; c++) {
                int by = trie.childByte(c), a2 = dfa.step(a, by), b2 = dfa.step(b, by);
                if (a2 == b2) continue; // the same below: the hub's results stand
                int child = trie.childNode(c);
                if (b2 < 0) {
                    if (!walkOwn(child, a2)) return false;
                } else if (a2 < 0) {
                    removeHub(child);
                } else {
                    if (sp == stackNode.length) {
                        stackNode = Arrays.copyOf(stackNode, 2 * sp); stackA = Arrays.copyOf(stackA, 2 * sp); stackB = Arrays.copyOf(stackB, 2 * sp);
                    }
                    stackNode[sp] = child; stackA[sp] = a2; stackB[sp++] = b2;
                }
            }
        }
        return true;
    }

    /** Whether a walk takes node n's whole subtree at once in state q (as {@code TerminalWalks.walkInto} does). */
    private boolean takesWhole(int n, int q, long[] loops) {
        long lo = loops[2 * q], hi = loops[2 * q + 1];
        return (lo | hi) != 0 && trie.subtreeWithin(n, lo, hi);
    }

    /** The hub's results in node n's subtree replaced by the state's own walk of it from state a. */
    private boolean replace(int n, int a) {
        removeHub(n);
        return walkOwn(n, a);
    }

    private boolean walkOwn(int n, int a) {
        int size = trie.subtreeEnd(n) - n;
        if (!walks.walkPlain(acc, dfa, n, a, budget - visited)) return false;
        visited += size;
        return visited <= budget;
    }

    /** Removes the hub's tokens and ends in node n's subtree (the end children of n's parent are not in it). */
    private void removeHub(int n) {
        long[] bits = acc.bits;
        for (int i = trie.subtreeTokenStart(n), e = trie.subtreeTokenEnd(n); i < e; i++) {
            int id = trie.token(i);
            bits[id >>> 6] &= ~(1L << id);
        }
        endLo.add(n + 1); endHi.add(trie.subtreeEnd(n));
        loopLo.add(n); loopHi.add(trie.subtreeEnd(n));
    }

    private TerminalWalks.Walk finish(TerminalWalks.Walk base, int vocabSize) {
        int count = 0;
        for (long w : acc.bits) count += Long.bitCount(w);
        acc.tokenCount = count;
        Ranges ends = new Ranges(endLo, endHi), loopRanges = new Ranges(loopLo, loopHi);
        for (TerminalWalks.Ends e : base.parts) {
            TerminalWalks.Ends kept = e.without(ends, loopRanges);
            if (kept.count() > 0) acc.parts.add(kept);
        }
        return acc.finish(vocabSize);
    }

    /** Disjoint or nested trie node ranges, for membership tests. */
    static final class Ranges {
        private final int[] lo, hi;

        Ranges(IntList los, IntList his) {
            int n = los.size;
            long[] packed = new long[n];
            for (int i = 0; i < n; i++) packed[i] = ((long) los.a[i] << 32) | (his.a[i] & 0xffffffffL);
            Arrays.sort(packed);
            // merge overlapping ranges so that a binary search finds the one holding a node
            int[] l = new int[n], h = new int[n];
            int k = 0;
            for (long p : packed) {
                int a = (int) (p >>> 32), b = (int) p;
                if (a >= b) continue;
                if (k > 0 && a <= h[k - 1]) h[k - 1] = Math.max(h[k - 1], b);
                else { l[k] = a; h[k++] = b; }
            }
            lo = Arrays.copyOf(l, k);
            hi = Arrays.copyOf(h, k);
        }

        boolean isEmpty() { return lo.length == 0; }

        boolean contains(int node) {
            int i = Arrays.binarySearch(lo, node);
            if (i < 0) i = -i - 2;
            return i >= 0 && node < hi[i];
        }
    }
}
