package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;
import dev.domino.runtime.internal.util.IntList;
import dev.domino.runtime.internal.vocab.VocabTrie;

import java.util.Arrays;

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
    /** Bitmaps of the tokens whose need is at most 2^j, kept only where that many tokens are worth a bitmap. */
    private static final int BITMAP_MIN_TOKENS = 2048;

    /** Tokens inside, sorted by need; {@code needStart[v]} is the first with need >= v (length maxNeed + 2). */
    private final int[] tokens;
    private final int[] needStart;
    /** {@code upTo[j]}: tokens with need <= 2^j - 1, or null where the ids are cheaper. */
    private final long[][] upTo;
    /** End edges grouped by byte ({@code endStart} has 257 entries): the child node, copies an end there counts (final weight included), need up to it. */
    private final int[] endStart, endNode, endCopies, endNeed;

    private CountedWalk(int[] tokens, int[] needStart, long[][] upTo, int[] endStart, int[] endNode, int[] endCopies, int[] endNeed) {
        this.tokens = tokens;
        this.needStart = needStart;
        this.upTo = upTo;
        this.endStart = endStart;
        this.endNode = endNode;
        this.endCopies = endCopies;
        this.endNeed = endNeed;
    }

    public long estimatedBytes() {
        long b = 64 + 4L * (tokens.length + needStart.length + endStart.length + 3L * endNode.length);
        for (long[] m : upTo) if (m != null) b += 8L * m.length;
        return b;
    }

    /** ORs into {@code mask[base..]} the tokens that stay inside with at most {@code room} copies of room. */
    public void orTokensWithin(long room, int[] mask, int base) {
        int maxNeed = needStart.length - 2;
        int end = room >= maxNeed ? tokens.length : room < 0 ? 0 : needStart[(int) room + 1];
        int from = 0;
        for (int j = upTo.length - 1; j >= 0; j--) {
            long limit = (1L << j) - 1;
            if (upTo[j] == null || limit > room) continue;
            long[] bits = upTo[j];
            for (int w = 0; w < bits.length; w++) {
                long x = bits[w];
                if (x == 0) continue;
                mask[base + 2 * w] |= (int) x;
                if ((x >>> 32) != 0) mask[base + 2 * w + 1] |= (int) (x >>> 32);
            }
            from = needStart[(int) Math.min(limit + 1, maxNeed + 1)];
            break;
        }
        for (int i = from; i < end; i++) {
            int id = tokens[i];
            mask[base + (id >>> 5)] |= 1 << id;
        }
    }

    public int endFrom(int b) { return endStart[b]; }
    public int endTo(int b) { return endStart[b + 1]; }
    public int endNode(int i) { return endNode[i]; }
    public int endCopies(int i) { return endCopies[i]; }
    public int endNeed(int i) { return endNeed[i]; }

    /** The walk of {@code counted}'s loop automaton {@code loop} from loop state s over the trie. */
    static CountedWalk compute(VocabTrie trie, ByteDfa loop, CountedLoop counted, int s, int vocabSize) {
        IntList tokenIds = new IntList(), tokenNeeds = new IntList();
        IntList edges = new IntList(), edgeCopies = new IntList(), edgeNeeds = new IntList();
        int[] stackNode = new int[256], stackState = new int[256], stackCopies = new int[256], stackNeed = new int[256];
        int sp = 0;
        stackNode[sp] = 0; stackState[sp] = s; stackCopies[sp] = 0; stackNeed[sp++] = counted.unitsToFinish(s);
        int maxNeed = 0;
        while (sp > 0) {
            int n = stackNode[--sp], q = stackState[sp], k = stackCopies[sp], need = stackNeed[sp];
            if (n != 0) {
                for (int i = trie.tokenStart(n), e = trie.tokenEnd(n); i < e; i++) { tokenIds.add(trie.token(i)); tokenNeeds.add(need); }
                maxNeed = Math.max(maxNeed, need);
            }
            int first = trie.firstChild(n), end = trie.endChild(n);
            if (n != 0 && loop.isAccepting(q)) {
                // an end in q counts its final weight: the copies and the room it needs
                int ended = k + counted.finalWeight(q);
                for (int c = first; c < end; c++) { edges.add(c); edgeCopies.add(ended); edgeNeeds.add(Math.max(need, ended)); }
            }
            int k2 = counted.startsCopy(q) ? k + 1 : k;
            for (int c = first; c < end; c++) {
                int q2 = loop.step(q, trie.childByte(c));
                if (q2 < 0) continue;
                if (sp == stackNode.length) {
                    int len = sp * 2;
                    stackNode = Arrays.copyOf(stackNode, len); stackState = Arrays.copyOf(stackState, len);
                    stackCopies = Arrays.copyOf(stackCopies, len); stackNeed = Arrays.copyOf(stackNeed, len);
                }
                stackNode[sp] = trie.childNode(c); stackState[sp] = q2; stackCopies[sp] = k2;
                stackNeed[sp++] = Math.max(need, k2 + counted.unitsToFinish(q2));
            }
        }
        // tokens by need: counting sort
        int count = tokenIds.size;
        int[] needStart = new int[maxNeed + 2];
        for (int i = 0; i < count; i++) needStart[tokenNeeds.a[i] + 1]++;
        for (int v = 0; v <= maxNeed; v++) needStart[v + 1] += needStart[v];
        int[] fill = Arrays.copyOf(needStart, maxNeed + 1);
        int[] sorted = new int[count];
        for (int i = 0; i < count; i++) sorted[fill[tokenNeeds.a[i]]++] = tokenIds.a[i];
        long[][] upTo = new long[32 - Integer.numberOfLeadingZeros(maxNeed + 1)][];
        for (int j = 0; j < upTo.length; j++) {
            int limit = (1 << j) - 1, n = needStart[Math.min(limit + 1, maxNeed + 1)];
            if (n < BITMAP_MIN_TOKENS) continue;
            long[] bits = new long[(vocabSize + 63) >>> 6];
            for (int i = 0; i < n; i++) bits[sorted[i] >>> 6] |= 1L << sorted[i];
            upTo[j] = bits;
        }
        // end edges by byte: counting sort
        int m = edges.size;
        int[] endStart = new int[257];
        for (int i = 0; i < m; i++) endStart[trie.childByte(edges.a[i]) + 1]++;
        for (int b = 0; b < 256; b++) endStart[b + 1] += endStart[b];
        int[] at = Arrays.copyOf(endStart, 256);
        int[] endNode = new int[m], endCopies = new int[m], endNeed = new int[m];
        for (int i = 0; i < m; i++) {
            int j = at[trie.childByte(edges.a[i])]++;
            endNode[j] = trie.childNode(edges.a[i]);
            endCopies[j] = edgeCopies.a[i];
            endNeed[j] = edgeNeeds.a[i];
        }
        return new CountedWalk(sorted, needStart, upTo, endStart, endNode, endCopies, endNeed);
    }
}
