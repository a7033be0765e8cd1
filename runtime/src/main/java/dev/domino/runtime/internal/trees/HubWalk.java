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
        push(0, state, hub);
        while (sp > 0) {
            if (++visited > budget) return false;
            acc.tick();
            int n = stackNode[--sp], a = stackA[sp], b = stackB[sp];
            if (n != 0) {
                boolean wholeA = takesWhole(n, a, loops), wholeB = takesWhole(n, b, loops);
                // both take the whole subtree: its every token, and the same loop end or none, so the hub's results stand
                if (wholeA && wholeB && sameLoopEnd(a, b, accepting, loops)) continue;
                if (wholeA || wholeB) {
                    if (!replace(n, a)) return false;
                    continue;
                }
            }
            long[] parting = trie.subtreeEnd(n) - n >= MIN_JUMP_NODES ? parting(a, b) : null;
            if (parting != null && fewPartingEdges(n, parting)) {
                if (!jumpToParting(n, a, b, parting)) return false;
                continue;
            }
            int first = trie.firstChild(n), end = trie.endChild(n);
            if (n != 0 && first < end && accepting[a] != accepting[b]) {
                // the node's tokens are both walks'; its end children only of the one that accepts
                if (accepting[a]) for (int c = first; c < end; c++) acc.endEdges.add(c);
                else for (int c = first; c < end; c++) { endLo.add(trie.childNode(c)); endHi.add(trie.childNode(c) + 1); }
            }
            for (int c = first; c < end; c++) {
                if (!step(trie.childNode(c), dfa.step(a, trie.childByte(c)), dfa.step(b, trie.childByte(c)))) return false;
            }
        }
        return true;
    }

    /** Child node {@code child} entered in state a2 by the state's walk and b2 by the hub's. */
    private boolean step(int child, int a2, int b2) {
        if (a2 == b2) return true; // the same below: the hub's results stand
        if (b2 < 0) return walkOwn(child, a2);
        if (a2 < 0) removeHub(child);
        else push(child, a2, b2);
        return true;
    }

    private int[] stackNode = new int[64], stackA = new int[64], stackB = new int[64];
    private int sp;

    private void push(int node, int a, int b) {
        if (sp == stackNode.length) {
            stackNode = Arrays.copyOf(stackNode, 2 * sp); stackA = Arrays.copyOf(stackA, 2 * sp); stackB = Arrays.copyOf(stackB, 2 * sp);
        }
        stackNode[sp] = node; stackA[sp] = a; stackB[sp++] = b;
    }

    // ------------------------------------------------------------------ alike pairs

    /** Subtrees smaller than this are walked in lockstep: proving a pair alike would cost more. */
    private static final int MIN_JUMP_NODES = 256;
    /** At most this many bytes may part an alike pair (a string's closing quote, its backslash). */
    private static final int MAX_PARTING_BYTES = 32;
    /** At most this many state pairs in the closure that proves a pair alike. */
    private static final int MAX_ALIKE_PAIRS = 1024;
    private static final long[] NOT_ALIKE = new long[0];

    /**
     * The bytes that part states a and b, when the two are <em>alike</em>: neither accepts, and on every other
     * byte both die, both go to one state, or both go to another alike pair. Below a trie node reached in an
     * alike pair, the two walks then keep the same tokens and no ends (neither accepts) on every path until its
     * first parting byte. Where a partial match of one unanchored pattern has matched another (a key of
     * {@code patternProperties} with several patterns), the pair never meets again on letters, only the closing
     * quote tells them apart, and walking the pair node by node visited the whole vocabulary. Null when not alike.
     * Known per automaton ({@link TerminalWalks#alikePairs}): every state of it derives from the same hubs.
     */
    private long[] parting(int a, int b) {
        java.util.concurrent.ConcurrentHashMap<Long, long[]> known = walks.alikePairs(dfa);
        long[] seen = known.get(pairKey(a, b));
        if (seen != null) return seen == NOT_ALIKE ? null : seen;
        boolean[] accepting = dfa.acceptingArray();
        long[] parting = new long[4];
        int partingCount = 0;
        java.util.LinkedHashSet<Long> pairs = new java.util.LinkedHashSet<>();
        IntList queue = new IntList();
        pairs.add(pairKey(a, b));
        queue.add(a); queue.add(b);
        boolean ok = !accepting[a] && !accepting[b];
        for (int q = 0; ok && q < queue.size; q += 2) {
            int x = queue.a[q], y = queue.a[q + 1];
            visited += 4; // a pair costs about as much as a few trie nodes
            for (int c = 0; c < 256; c++) {
                if ((parting[c >>> 6] & (1L << c)) != 0) continue;
                int x2 = dfa.step(x, c), y2 = dfa.step(y, c);
                if (x2 == y2) continue;
                if (x2 < 0 || y2 < 0 || accepting[x2] || accepting[y2]) {
                    parting[c >>> 6] |= 1L << c;
                    if (++partingCount > MAX_PARTING_BYTES) { ok = false; break; }
                } else if (pairs.add(pairKey(x2, y2))) {
                    if (pairs.size() > MAX_ALIKE_PAIRS) { ok = false; break; }
                    queue.add(x2); queue.add(y2);
                }
            }
        }
        // on success every pair of the closure is alike with these bytes (its own may be fewer: more jumps, still
        // exact); on failure the pairs met are not tried again (some may be alike: a lost shortcut, never a wrong walk)
        long[] value = ok ? parting : NOT_ALIKE;
        int added = 0;
        for (long p : pairs) if (known.putIfAbsent(p, value) == null) added++;
        walks.alikeAdded(dfa, added);
        return ok ? parting : null;
    }

    private static long pairKey(int a, int b) { return ((long) a << 32) | (b & 0xffffffffL); }

    /** Whether node n's subtree has few edges of the parting bytes, so that jumping to them beats walking it. */
    private boolean fewPartingEdges(int n, long[] parting) {
        long edges = 0;
        for (int d = 0; d < 256; d++) {
            if ((parting[d >>> 6] & (1L << d)) != 0) edges += trie.byteEdgesTo(d, n) - trie.byteEdgesFrom(d, n);
        }
        return edges * 8 < trie.subtreeEnd(n) - n;
    }

    /**
     * Below node n, reached in the alike pair (a, b): the hub's results stand except below the first parting edge
     * of each path, found by the trie's index of edges by byte; the pair is stepped down the path to each such
     * edge, and the edge is taken as a child is in {@link #derive}.
     */
    private boolean jumpToParting(int n, int a, int b, long[] parting) {
        JUMPS.incrementAndGet();
        LongList found = new LongList();
        for (int d = 0; d < 256; d++) {
            if ((parting[d >>> 6] & (1L << d)) == 0) continue;
            for (int i = trie.byteEdgesFrom(d, n), to = trie.byteEdgesTo(d, n); i < to; i++) {
                int e = trie.byteEdge(i);
                found.add(((long) trie.childNode(e) << 32) | e);
            }
        }
        long[] edges = found.sorted(); // in preorder of the nodes they enter: a path's first parting edge comes first
        int handledTo = -1;
        for (long packed : edges) {
            int child = (int) (packed >>> 32), e = (int) packed;
            if (child < handledTo) continue; // below a parting edge taken already
            handledTo = trie.subtreeEnd(child);
            if (++visited > budget) return false;
            acc.tick();
            int node = n, x = a, y = b;
            while (e < trie.firstChild(node) || e >= trie.endChild(node)) {
                // the path's bytes down to the edge part nothing: the pair stays alike, meets, or dies on both sides
                int c = childToward(node, child);
                x = dfa.step(x, trie.childByte(c));
                y = dfa.step(y, trie.childByte(c));
                node = trie.childNode(c);
                visited++;
                if (x == y) break;
            }
            if (x == y) {
                handledTo = Math.max(handledTo, trie.subtreeEnd(node));
                continue;
            }
            int d = trie.childByte(e);
            if (!step(child, dfa.step(x, d), dfa.step(y, d))) return false;
        }
        return true;
    }

    /** The child edge of {@code node} whose subtree holds {@code target} (a node below it). */
    private int childToward(int node, int target) {
        int lo = trie.firstChild(node), hi = trie.endChild(node) - 1;
        while (lo < hi) {
            int m = (lo + hi + 1) >>> 1;
            if (trie.childNode(m) <= target) lo = m; else hi = m - 1;
        }
        return lo;
    }

    private static final java.util.concurrent.atomic.AtomicLong JUMPS = new java.util.concurrent.atomic.AtomicLong();

    /** How many alike pairs this process jumped below (tests check that the mechanism is exercised). */
    static long alikeJumps() { return JUMPS.get(); }

    /** A growable list of longs, sorted once. */
    private static final class LongList {
        private long[] a = new long[64];
        private int size;

        void add(long v) {
            if (size == a.length) a = Arrays.copyOf(a, 2 * size);
            a[size++] = v;
        }

        long[] sorted() {
            long[] out = Arrays.copyOf(a, size);
            Arrays.sort(out);
            return out;
        }
    }

    /** Whether a walk takes node n's whole subtree at once in state q (as {@code TerminalWalks.walkInto} does). */
    private boolean takesWhole(int n, int q, long[] loops) {
        long lo = loops[2 * q], hi = loops[2 * q + 1];
        return (lo | hi) != 0 && trie.subtreeWithin(n, lo, hi);
    }

    /** Whether a walk taking a whole subtree in state a leaves the same loop end there (or none) as one in state b. */
    private static boolean sameLoopEnd(int a, int b, boolean[] accepting, long[] loops) {
        if (accepting[a] != accepting[b]) return false;
        return !accepting[a] || loops[2 * a] == loops[2 * b] && loops[2 * a + 1] == loops[2 * b + 1];
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

    /**
     * Disjoint or nested trie node ranges, for membership tests: a bitmap over the nodes they span.
     * Why a bitmap: a hub's walk inside a string holds tens of thousands of ends, each tested once per derived
     * walk; binary searches over the ranges were most of a derivation's time.
     */
    static final class Ranges {
        private final int first, end;
        private final long[] bits;

        Ranges(IntList los, IntList his) {
            int f = Integer.MAX_VALUE, e = Integer.MIN_VALUE;
            for (int i = 0; i < los.size; i++) {
                if (los.a[i] >= his.a[i]) continue;
                f = Math.min(f, los.a[i]);
                e = Math.max(e, his.a[i]);
            }
            if (f >= e) { first = 0; end = 0; bits = new long[0]; return; }
            first = f;
            end = e;
            bits = new long[((e - f) + 63) >>> 6];
            for (int i = 0; i < los.size; i++) {
                int a = los.a[i] - f, b = his.a[i] - f; // [a, b)
                if (a >= b) continue;
                int wa = a >>> 6, wb = (b - 1) >>> 6;
                long headMask = -1L << a, tailMask = -1L >>> (63 - ((b - 1) & 63));
                if (wa == wb) { bits[wa] |= headMask & tailMask; continue; }
                bits[wa] |= headMask;
                for (int w = wa + 1; w < wb; w++) bits[w] = -1L;
                bits[wb] |= tailMask;
            }
        }

        boolean isEmpty() { return end == first; }

        boolean contains(int node) {
            if (node < first || node >= end) return false;
            int i = node - first;
            return (bits[i >>> 6] & (1L << i)) != 0;
        }
    }
}
