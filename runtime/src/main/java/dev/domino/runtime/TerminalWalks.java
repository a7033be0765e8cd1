package dev.domino.runtime;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the vocabulary does inside one terminal, from one automaton state, ignoring everything
 * after the terminal ends: the tokens that stay inside it to their last byte, and the trie
 * nodes where it may end with more bytes to come. This is the expensive, context-independent
 * part of a tree (inside a JSON string: nearly the whole vocabulary), so it is computed once
 * per (vocabulary, automaton, state) and shared by every tree and artifact that needs it.
 */
public final class TerminalWalks {
    /**
     * @param continuation  tokens that end inside the terminal
     * @param endsAtRoot    the automaton state itself is accepting (the terminal may end before the token's first byte)
     * @param endChildStart per byte b, {@code endChildNode[endChildStart[b] .. endChildStart[b+1])} are the trie
     *                      nodes reached by byte b from a node where the terminal may end: where the next
     *                      terminal starts with b (grouped by byte, so a tree visits only bytes its follow
     *                      terminals can start with)
     */
    public record Walk(TokenSet continuation, boolean endsAtRoot, int[] endChildStart, int[] endChildNode) {
        public int endChildCount() { return endChildNode.length; }
    }

    private static final int MAX_AUTOMATA = 50_000;
    /** Residual automata larger than this are not worth canonicalizing (and would be big keys). */
    private static final int MAX_RESIDUAL_STATES = 128;
    /** Bound on the states held by residual keys (about 1 KB each). */
    private static final int MAX_RESIDUAL_TOTAL = 65_536;

    private final VocabTrie trie;
    private final ConcurrentHashMap<ByteDfa, AtomicReferenceArray<Walk>> cache = new ConcurrentHashMap<>();
    /**
     * Walks by residual automaton: terminals that differ only before a shared tail (a property
     * key merged with the string value that follows it, say) reach states whose walks are equal.
     */
    private final ConcurrentHashMap<ByteDfa, Walk> byResidual = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger residualStates = new java.util.concurrent.atomic.AtomicInteger();

    TerminalWalks(VocabTrie trie) { this.trie = trie; }

    public Walk get(ByteDfa dfa, int state, int vocabSize) {
        if (cache.size() > MAX_AUTOMATA) cache.clear(); // bound memory in long-running servers
        AtomicReferenceArray<Walk> perState = cache.computeIfAbsent(dfa, d -> new AtomicReferenceArray<>(d.stateCount()));
        Walk w = perState.get(state);
        if (w == null) {
            w = computeShared(dfa, state, vocabSize);
            perState.compareAndSet(state, null, w);
            w = perState.get(state);
        }
        return w;
    }

    private Walk computeShared(ByteDfa dfa, int state, int vocabSize) {
        ByteDfa residual = dfa.residual(state, MAX_RESIDUAL_STATES);
        if (residual == null) return compute(dfa, state, vocabSize);
        Walk w = byResidual.get(residual);
        if (w == null) {
            w = compute(residual, 0, vocabSize);
            if (residualStates.addAndGet(residual.stateCount()) > MAX_RESIDUAL_TOTAL) {
                byResidual.clear();
                residualStates.set(residual.stateCount());
            }
            Walk raced = byResidual.putIfAbsent(residual, w);
            if (raced != null) w = raced;
        }
        return w;
    }

    private Walk compute(ByteDfa dfa, int state, int vocabSize) {
        // accumulate into a bitmap: ids come out sorted without a sort
        long[] bits = new long[(vocabSize + 63) >>> 6];
        long[] loops = dfa.asciiLoops();
        int tokenCount = 0;
        boolean endsAtRoot = false;
        int[] endChildren = new int[16];
        int ends = 0;
        int[] stackNode = new int[256], stackState = new int[256];
        int sp = 0;
        stackNode[sp] = 0; stackState[sp++] = state;
        while (sp > 0) {
            int n = stackNode[--sp], s = stackState[sp];
            int first = trie.firstChild(n), end = trie.endChild(n);
            long loLoop = loops[2 * s], hiLoop = loops[2 * s + 1];
            if (n != 0 && (loLoop | hiLoop) != 0 && trie.subtreeWithin(n, loLoop, hiLoop)) {
                // every byte below n loops on s: the whole subtree stays in state s
                for (int i = trie.tokenStart(n), to = trie.subtreeTokenEnd(n); i < to; i++) {
                    int id = trie.token(i);
                    bits[id >>> 6] |= 1L << id;
                }
                tokenCount += trie.subtreeTokenEnd(n) - trie.tokenStart(n);
                if (dfa.isAccepting(s)) {
                    for (int m = n, last = trie.subtreeEnd(n); m < last; m++) {
                        for (int c = trie.firstChild(m); c < trie.endChild(m); c++) {
                            if (ends == endChildren.length) endChildren = Arrays.copyOf(endChildren, ends * 2);
                            endChildren[ends++] = c;
                        }
                    }
                }
                continue;
            }
            for (int i = trie.tokenStart(n), to = trie.tokenEnd(n); i < to; i++) {
                int id = trie.token(i);
                bits[id >>> 6] |= 1L << id;
                tokenCount++;
            }
            if (first == end) continue;
            if (dfa.isAccepting(s)) {
                if (n == 0) {
                    endsAtRoot = true;
                } else {
                    for (int c = first; c < end; c++) {
                        if (ends == endChildren.length) endChildren = Arrays.copyOf(endChildren, ends * 2);
                        endChildren[ends++] = c;
                    }
                }
            }
            for (int c = first; c < end; c++) {
                int s2 = dfa.step(s, trie.childByte(c));
                if (s2 < 0) continue;
                if (sp == stackNode.length) { stackNode = Arrays.copyOf(stackNode, sp * 2); stackState = Arrays.copyOf(stackState, sp * 2); }
                stackNode[sp] = trie.childNode(c); stackState[sp++] = s2;
            }
        }
        // group the end children (child-edge indexes) by byte: counting sort
        int[] byteStart = new int[257];
        for (int i = 0; i < ends; i++) byteStart[trie.childByte(endChildren[i]) + 1]++;
        for (int b = 0; b < 256; b++) byteStart[b + 1] += byteStart[b];
        int[] fill = Arrays.copyOf(byteStart, 256);
        int[] nodes = new int[ends];
        for (int i = 0; i < ends; i++) nodes[fill[trie.childByte(endChildren[i])]++] = trie.childNode(endChildren[i]);
        TokenSet continuation;
        if ((long) tokenCount * 32 > vocabSize) {
            continuation = TokenSet.ofBitmap(bits);
        } else {
            int[] ids = new int[tokenCount];
            int k = 0;
            for (int w = 0; w < bits.length && k < tokenCount; w++) {
                long word = bits[w];
                while (word != 0) { ids[k++] = (w << 6) + Long.numberOfTrailingZeros(word); word &= word - 1; }
            }
            continuation = TokenSet.ofIds(ids);
        }
        return new Walk(continuation, endsAtRoot, byteStart, nodes);
    }
}
