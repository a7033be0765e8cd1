package dev.domino.runtime.internal.vocab;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * Paths per trie node in one walk: a dense array (reset through the list of touched nodes),
 * because hashing every visited node cost more than the rest of the dfs. Borrowed from the
 * trie's pool and given back by {@link #release} (one that is not given back is collected).
 */
public final class VisitCounter {
    private final VocabTrie trie;
    private int[] counts;
    private int[] touched = new int[256];
    private int size;

    private VisitCounter(VocabTrie trie) { this.trie = trie; this.counts = trie.borrowCounts(); }

    public static VisitCounter forTrie(VocabTrie trie) { return new VisitCounter(trie); }

    /** Gives the zeroed counts back to the trie's pool; the walk is over. */
    public void release() {
        if (counts == null) return;
        clear();
        trie.releaseCounts(counts);
        counts = null;
    }

    public int increment(int node) {
        if (counts[node]++ == 0) {
            if (size == touched.length) touched = Arrays.copyOf(touched, size * 2);
            touched[size++] = node;
        }
        return counts[node];
    }

    public void clear() {
        for (int i = 0; i < size; i++) counts[touched[i]] = 0;
        size = 0;
    }
}
