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
    /** @param continuation tokens that end inside the terminal
     *  @param endNodes     trie nodes (with children) where the automaton is in an accepting state
     *  @param endStates    the automaton state at each end node */
    public record Walk(TokenSet continuation, int[] endNodes, int[] endStates) {}

    private static final int MAX_AUTOMATA = 50_000;

    private final VocabTrie trie;
    private final ConcurrentHashMap<ByteDfa, AtomicReferenceArray<Walk>> cache = new ConcurrentHashMap<>();

    TerminalWalks(VocabTrie trie) { this.trie = trie; }

    public Walk get(ByteDfa dfa, int state, int vocabSize) {
        if (cache.size() > MAX_AUTOMATA) cache.clear(); // bound memory in long-running servers
        AtomicReferenceArray<Walk> perState = cache.computeIfAbsent(dfa, d -> new AtomicReferenceArray<>(d.stateCount()));
        Walk w = perState.get(state);
        if (w == null) {
            w = compute(dfa, state, vocabSize);
            perState.compareAndSet(state, null, w);
            w = perState.get(state);
        }
        return w;
    }

    private Walk compute(ByteDfa dfa, int state, int vocabSize) {
        // accumulate into a bitmap: ids come out sorted without a sort
        long[] bits = new long[(vocabSize + 63) >>> 6];
        int tokenCount = 0;
        int[] endNodes = new int[16], endStates = new int[16];
        int ends = 0;
        int[] stackNode = new int[256], stackState = new int[256];
        int sp = 0;
        stackNode[sp] = 0; stackState[sp++] = state;
        while (sp > 0) {
            int n = stackNode[--sp], s = stackState[sp];
            if (n != 0) {
                for (int i = trie.tokenStart(n), to = trie.tokenEnd(n); i < to; i++) {
                    int id = trie.token(i);
                    bits[id >>> 6] |= 1L << id;
                    tokenCount++;
                }
            }
            int first = trie.firstChild(n), end = trie.endChild(n);
            if (first == end) continue;
            if (dfa.isAccepting(s)) {
                if (ends == endNodes.length) { endNodes = Arrays.copyOf(endNodes, ends * 2); endStates = Arrays.copyOf(endStates, ends * 2); }
                endNodes[ends] = n; endStates[ends++] = s;
            }
            for (int c = first; c < end; c++) {
                int s2 = dfa.step(s, trie.childByte(c));
                if (s2 < 0) continue;
                if (sp == stackNode.length) { stackNode = Arrays.copyOf(stackNode, sp * 2); stackState = Arrays.copyOf(stackState, sp * 2); }
                stackNode[sp] = trie.childNode(c); stackState[sp++] = s2;
            }
        }
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
        return new Walk(continuation, Arrays.copyOf(endNodes, ends), Arrays.copyOf(endStates, ends));
    }
}
