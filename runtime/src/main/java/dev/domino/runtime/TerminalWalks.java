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
        int[] tokens = new int[64];
        int tokenCount = 0;
        int[] endNodes = new int[16], endStates = new int[16];
        int ends = 0;
        int[] stackNode = new int[256], stackState = new int[256];
        int sp = 0;
        stackNode[sp] = 0; stackState[sp++] = state;
        while (sp > 0) {
            int n = stackNode[--sp], s = stackState[sp];
            if (n != 0) {
                int from = trie.tokenStart(n), to = trie.tokenEnd(n);
                if (tokenCount + (to - from) > tokens.length) tokens = Arrays.copyOf(tokens, Math.max(tokens.length * 2, tokenCount + to - from));
                for (int i = from; i < to; i++) tokens[tokenCount++] = trie.token(i);
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
        int[] sorted = Arrays.copyOf(tokens, tokenCount);
        Arrays.sort(sorted);
        return new Walk(TokenSet.of(sorted, vocabSize), Arrays.copyOf(endNodes, ends), Arrays.copyOf(endStates, ends));
    }
}
