package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;
import dev.domino.runtime.internal.util.IntList;
import dev.domino.runtime.internal.vocab.VocabTrie;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the vocabulary does inside a counted terminal ({@link CountedLoop}) from one loop state,
 * for every count at once: each token that stays inside with the room it needs, and each trie
 * edge where the terminal may end with the copies started before it. A direct mask in a counted
 * terminal near its bounds (a JSON string under {@code maxLength 40}) then keeps the tokens whose
 * room fits the state's count and steps only the ends whose count lies within the bounds,
 * instead of stepping the whole string part of the trie byte by byte for every count.
 *
 * <p>Room: along a token's path, {@link CountedLoop#step} refuses a byte once the copies started
 * plus those still needed to finish exceed max. With {@code k} copies started along the path so far
 * and the loop in state {@code s}, the path needs {@code k + unitsToFinish(s)}; a token is
 * allowed from count c exactly when {@code c + need <= max}, need being the largest such value on
 * its path. Computed once per (loop automaton, unit boundaries, loop state) and vocabulary, and
 * shared by every artifact (cached in {@link TerminalWalks}).
 */
public final class CountedWalk {
    /**
     * A bitmap of the tokens with need at most v is kept where it holds at least this many tokens more than the
     * bitmap before it: a mask ORs one bitmap and fewer ids than this, whatever its room (a short string's room
     * of 12 units ORed tens of thousands of ids when bitmaps stood only at powers of two).
     */
    private static final int BITMAP_STEP_TOKENS = 4096;

    /** Tokens inside, sorted by need; {@code needStart[v]} is the first with need >= v (length maxNeed + 2). */
    private final int[] tokens;
    private final int[] needStart;
    /** {@code upTo[j]}: the tokens with need at most {@code upToNeed[j]} (increasing). */
    private final long[][] upTo;
    private final int[] upToNeed;
    /**
     * Where the terminal may end, as items in trie order: a node with children (rangeEnd 0), or a whole subtree
     * [node, rangeEnd) that stays in one accepting loop state (every node in it with children is an end). An end at
     * node p of item i counts {@code copies[i] + d * slope[i]} copies and needs {@code max(need[i], finish[i] + d *
     * slope[i], copies)}, d being p's depth below the item's node. Kept by node, not by child edge: a mask asks only
     * for the few bytes that may follow the terminal (a closing quote), so the children are found per byte when first
     * asked for ({@link #ends}), through the trie's index of edges by byte.
     */
    private final int[] endNode, endRangeEnd, endCopies, endNeed, endSlope, endFinish;
    private final VocabTrie trie;
    /** Per byte, the end children reached by it as triples (child node, copies, need); filled on first use. */
    private final AtomicReferenceArray<int[]> byByte = new AtomicReferenceArray<>(256);

    private CountedWalk(VocabTrie trie, int[] tokens, int[] needStart, long[][] upTo, int[] upToNeed, int[][] ends) {
        this.trie = trie;
        this.tokens = tokens;
        this.needStart = needStart;
        this.upTo = upTo;
        this.upToNeed = upToNeed;
        this.endNode = ends[0];
        this.endRangeEnd = ends[1];
        this.endCopies = ends[2];
        this.endNeed = ends[3];
        this.endSlope = ends[4];
        this.endFinish = ends[5];
    }

    /** Counts the per-byte ends at most once more than the end nodes: each end child belongs to one byte. */
    public long estimatedBytes() {
        long b = 64 + 16L * 256 + 4L * (tokens.length + needStart.length + 6L * endNode.length) + 12L * endChildBound();
        for (long[] m : upTo) b += 8L * m.length;
        return b;
    }

    private long endChildBound() {
        long n = 0;
        for (int i = 0; i < endNode.length; i++) n += edgeEnd(i) - trie.firstChild(endNode[i]);
        return n;
    }

    /** ORs into {@code mask[base..]} the tokens that stay inside with at most {@code room} copies of room. */
    public void orTokensWithin(long room, int[] mask, int base) {
        int maxNeed = needStart.length - 2;
        int end = room >= maxNeed ? tokens.length : room < 0 ? 0 : needStart[(int) room + 1];
        int from = 0;
        int j = upToNeed.length - 1;
        while (j >= 0 && upToNeed[j] > room) j--;
        if (j >= 0) {
            long[] bits = upTo[j];
            for (int w = 0; w < bits.length; w++) {
                long x = bits[w];
                if (x == 0) continue;
                mask[base + 2 * w] |= (int) x;
                if ((x >>> 32) != 0) mask[base + 2 * w + 1] |= (int) (x >>> 32);
            }
            from = needStart[upToNeed[j] + 1];
        }
        for (int i = from; i < end; i++) {
            int id = tokens[i];
            mask[base + (id >>> 5)] |= 1 << id;
        }
    }

    /**
     * The trie nodes reached by byte b from a node where the terminal may end, as triples (child node, copies an end
     * there counts, need up to it), in trie order. Do not modify.
     */
    public int[] ends(int b) {
        int[] r = byByte.get(b);
        if (r == null) {
            r = endsOf(b);
            byByte.set(b, r);
        }
        return r;
    }

    /** The end after the last child edge of item i's nodes (edges are laid out by parent, in preorder). */
    private int edgeEnd(int i) { return endRangeEnd[i] == 0 ? trie.endChild(endNode[i]) : trie.firstChild(endRangeEnd[i]); }

    /** The edges labelled b whose parent is an end: each edge's item found by binary search among the items. */
    private int[] endsOf(int b) {
        int from = trie.byteEdgesFrom(b, 0), to = trie.byteEdgesTo(b, 0);
        IntList out = new IntList();
        int lo = 0, items = endNode.length;
        for (int j = from; j < to && lo < items; j++) {
            int edge = trie.byteEdge(j);
            // the last item whose first child edge is at most this edge: galloping from the last one found, so that a
            // common byte (one edge per item or more) costs a step per edge and a rare one a search per edge
            int step = 1, a = lo;
            while (a + step < items && trie.firstChild(endNode[a + step]) <= edge) { a += step; step <<= 1; }
            int z = Math.min(items, a + step);
            while (a < z) { int m = (a + z) >>> 1; if (trie.firstChild(endNode[m]) <= edge) a = m + 1; else z = m; }
            int i = a - 1;
            if (i < lo) continue;
            lo = i;
            if (edge >= edgeEnd(i)) continue;
            int child = trie.childNode(edge);
            int d = trie.depth(child) - 1 - trie.depth(endNode[i]);
            int copies = endCopies[i] + d * endSlope[i];
            out.add(child);
            out.add(copies);
            out.add(Math.max(Math.max(endNeed[i], endFinish[i] + d * endSlope[i]), copies));
        }
        return out.toArray();
    }

    /**
     * Sets the needs of the tokens in trie nodes [n, subEnd), a subtree that stays in one loop state: {@code
     * max(need, base + depth * slope)}. Returns the largest need set. (Its own method: called once per such subtree,
     * tens of thousands of times per walk, it is compiled long before the walk's loop is.)
     */
    private static int loopSubtreeNeeds(VocabTrie trie, int[] needAt, int n, int subEnd, int need, int base, int slope) {
        int most = 0;
        for (int m = n; m < subEnd; m++) {
            int from = trie.tokenStart(m), to = trie.tokenEnd(m);
            if (from == to) continue;
            int nm = Math.max(need, base + trie.depth(m) * slope);
            for (int i = from; i < to; i++) needAt[i] = nm;
            most = Math.max(most, nm);
        }
        return most;
    }

    /**
     * The walk of {@code counted}'s loop automaton {@code loop} from loop state s over the trie: depth first, children
     * pushed last to first so that nodes are visited in preorder (the end nodes come out sorted).
     */
    static CountedWalk compute(VocabTrie trie, ByteDfa loop, CountedLoop counted, int s, int vocabSize) {
        int grammarTokens = trie.subtreeTokenEnd(0);
        // per index of the trie's token list, the token's need (-1: not inside); a subtree's tokens are one run of it
        int[] needAt = new int[grammarTokens];
        Arrays.fill(needAt, -1);
        int tokenCount = 0;
        IntList[] ends = new IntList[6];
        for (int i = 0; i < ends.length; i++) ends[i] = new IntList();
        int[] stackNode = new int[256], stackState = new int[256], stackCopies = new int[256], stackNeed = new int[256];
        int sp = 0;
        stackNode[sp] = 0; stackState[sp] = s; stackCopies[sp] = 0; stackNeed[sp++] = counted.unitsToFinish(s);
        int maxNeed = 0;
        int[] table = loop.table();
        long[] loops = loop.asciiLoops();
        BuildBudget.Meter budget = new BuildBudget.Meter(); // computed inside a mask's tree build: gives up with it
        while (sp > 0) {
            budget.tick();
            int n = stackNode[--sp], q = stackState[sp], k = stackCopies[sp], need = stackNeed[sp];
            int first = trie.firstChild(n), end = trie.endChild(n);
            long lo = loops[2 * q], hi = loops[2 * q + 1];
            if (n != 0 && (lo | hi) != 0 && trie.subtreeWithin(n, lo, hi)) {
                // every byte below n loops on q: a node d bytes below counts k + d * slope copies, so the tokens' needs
                // and the ends follow from the depths, without stepping (most of a string's trie)
                int slope = counted.startsCopy(q) ? 1 : 0, finish = k + counted.unitsToFinish(q), d0 = trie.depth(n);
                int subEnd = trie.subtreeEnd(n);
                tokenCount += trie.subtreeTokenEnd(n) - trie.tokenStart(n);
                maxNeed = Math.max(maxNeed, loopSubtreeNeeds(trie, needAt, n, subEnd, need, finish - d0 * slope, slope));
                if (loop.isAccepting(q) && first < end) {
                    int fw = counted.finalWeight(q);
                    ends[0].add(n); ends[1].add(subEnd); ends[2].add(k + fw); ends[3].add(need); ends[4].add(slope); ends[5].add(finish);
                }
                continue;
            }
            if (n != 0) {
                int from = trie.tokenStart(n), to = trie.tokenEnd(n);
                if (from < to) {
                    for (int i = from; i < to; i++) needAt[i] = need;
                    tokenCount += to - from;
                    maxNeed = Math.max(maxNeed, need);
                }
            }
            if (first == end) continue;
            if (n != 0 && loop.isAccepting(q)) {
                // an end in q counts its final weight: the copies and the room it needs
                int ended = k + counted.finalWeight(q);
                ends[0].add(n); ends[1].add(0); ends[2].add(ended); ends[3].add(Math.max(need, ended)); ends[4].add(0); ends[5].add(0);
            }
            int k2 = counted.startsCopy(q) ? k + 1 : k;
            if (sp + (end - first) > stackNode.length) {
                int len = Math.max(sp + (end - first), stackNode.length * 2);
                stackNode = Arrays.copyOf(stackNode, len); stackState = Arrays.copyOf(stackState, len);
                stackCopies = Arrays.copyOf(stackCopies, len); stackNeed = Arrays.copyOf(stackNeed, len);
            }
            for (int c = end - 1; c >= first; c--) {
                int b = trie.childByte(c);
                int q2 = table != null ? table[(q << 8) | b] : loop.step(q, b);
                if (q2 < 0) continue;
                stackNode[sp] = trie.childNode(c); stackState[sp] = q2; stackCopies[sp] = k2;
                stackNeed[sp++] = Math.max(need, k2 + counted.unitsToFinish(q2));
            }
        }
        // tokens by need: counting sort
        int count = tokenCount;
        int[] needStart = new int[maxNeed + 2];
        for (int i = 0; i < grammarTokens; i++) needStart[needAt[i] + 1]++; // needStart[0] counts the tokens outside
        needStart[0] = 0;
        for (int v = 0; v <= maxNeed; v++) needStart[v + 1] += needStart[v];
        int[] fill = Arrays.copyOf(needStart, maxNeed + 1);
        int[] sorted = new int[count];
        for (int i = 0; i < grammarTokens; i++) if (needAt[i] >= 0) sorted[fill[needAt[i]]++] = trie.token(i);
        // bitmaps of the tokens with need <= v, each from the one before it, where it adds enough tokens
        java.util.List<long[]> maps = new java.util.ArrayList<>();
        IntList mapNeeds = new IntList();
        long[] bits = null;
        int done = 0;
        for (int v = 0; v <= maxNeed; v++) {
            int n = needStart[v + 1];
            if (n - done < BITMAP_STEP_TOKENS) continue;
            bits = bits == null ? new long[(vocabSize + 63) >>> 6] : bits.clone();
            for (int i = done; i < n; i++) bits[sorted[i] >>> 6] |= 1L << sorted[i];
            done = n;
            maps.add(bits);
            mapNeeds.add(v);
        }
        long[][] upTo = maps.toArray(new long[0][]);
        int[][] endArrays = new int[ends.length][];
        for (int i = 0; i < ends.length; i++) endArrays[i] = ends[i].toArray();
        return new CountedWalk(trie, sorted, needStart, upTo, mapNeeds.toArray(), endArrays);
    }
}
