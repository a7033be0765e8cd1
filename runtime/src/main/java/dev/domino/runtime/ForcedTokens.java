package dev.domino.runtime;

import java.util.Arrays;

/**
 * Forced bytes to forced tokens (see {@link Matcher#forcedTokens()}): the longest vocabulary
 * entry first, walking the vocabulary's byte trie. The last token is left out when a longer
 * entry starts with its bytes: the model's own tokenizer might merge it with the text that
 * follows, so a server that appended it could force a tokenization the model would not choose.
 */
final class ForcedTokens {
    private ForcedTokens() {}

    static int[] of(Vocabulary vocabulary, byte[] forced) {
        if (forced.length == 0) return new int[0];
        VocabTrie trie = VocabTrie.of(vocabulary);
        int[] tokens = new int[forced.length];
        int n = 0, pos = 0;
        int lastEndNode = -1;
        while (pos < forced.length) {
            int node = 0, bestToken = -1, bestEnd = -1, bestNode = -1;
            for (int i = pos; i < forced.length; i++) {
                node = child(trie, node, forced[i] & 0xFF);
                if (node < 0) break;
                if (trie.tokenEnd(node) > trie.tokenStart(node)) {
                    bestToken = trie.token(trie.tokenStart(node));
                    bestEnd = i + 1;
                    bestNode = node;
                }
            }
            if (bestToken < 0) break; // no grammar token spells these bytes (cannot happen with byte-fallback vocabularies)
            tokens[n++] = bestToken;
            pos = bestEnd;
            lastEndNode = bestNode;
        }
        // a token that ends where the forced text ends may be the start of a longer token
        if (n > 0 && pos == forced.length && trie.endChild(lastEndNode) > trie.firstChild(lastEndNode)) n--;
        return Arrays.copyOf(tokens, n);
    }

    private static int child(VocabTrie trie, int node, int b) {
        for (int e = trie.firstChild(node), end = trie.endChild(node); e < end; e++) {
            if (trie.childByte(e) == b) return trie.childNode(e);
        }
        return -1;
    }
}
