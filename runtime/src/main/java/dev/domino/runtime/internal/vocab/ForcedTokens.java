package dev.domino.runtime.internal.vocab;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * Forced bytes to forced tokens (see {@link Matcher#forcedTokens()}): the longest vocabulary
 * entry first, walking the vocabulary's byte trie.
 */
public final class ForcedTokens {
    private ForcedTokens() {}

    /** The forced bytes spelled longest entry first; stops where no grammar token spells the next bytes. */
    public static int[] greedy(VocabTrie trie, byte[] forced) {
        int[] tokens = new int[forced.length];
        int n = 0, pos = 0;
        while (pos < forced.length) {
            int node = 0, bestToken = -1, bestEnd = -1;
            for (int i = pos; i < forced.length; i++) {
                node = child(trie, node, forced[i] & 0xFF);
                if (node < 0) break;
                if (trie.tokenEnd(node) > trie.tokenStart(node)) {
                    bestToken = trie.token(trie.tokenStart(node));
                    bestEnd = i + 1;
                }
            }
            if (bestToken < 0) break; // cannot happen with byte-fallback vocabularies
            tokens[n++] = bestToken;
            pos = bestEnd;
        }
        return Arrays.copyOf(tokens, n);
    }

    /** Whether the mask (32 tokens per int) allows a token whose bytes extend {@code bytes}. */
    public static boolean longerAllowed(VocabTrie trie, byte[] bytes, int[] mask) {
        int node = 0;
        for (byte b : bytes) {
            node = child(trie, node, b & 0xFF);
            if (node < 0) return false;
        }
        if (trie.endChild(node) == trie.firstChild(node)) return false; // no longer entry
        for (int i = trie.tokenEnd(node), end = trie.subtreeTokenEnd(node); i < end; i++) {
            int t = trie.token(i);
            if ((mask[t >>> 5] & (1 << t)) != 0) return true;
        }
        return false;
    }

    private static int child(VocabTrie trie, int node, int b) {
        for (int e = trie.firstChild(node), end = trie.endChild(node); e < end; e++) {
            if (trie.childByte(e) == b) return trie.childNode(e);
        }
        return -1;
    }
}
