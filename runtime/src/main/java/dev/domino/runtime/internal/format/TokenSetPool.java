package dev.domino.runtime.internal.format;

import dev.domino.runtime.internal.trees.TokenSet;
import dev.domino.runtime.internal.trees.TokenSets;
import dev.domino.runtime.internal.trees.TokenTree;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The artifact's one pool of token sets: every stored tree's group sets, equal sets written once,
 * numbered in the order of first use (trees in order, groups in order).
 *
 * <p>Why per tree's set list and not per group: a large artifact has millions of groups but far fewer
 * distinct (set list, index) pairs, and a lookup by equality hashes and compares whole sets. Each set
 * list is mapped to pool numbers once; a group then costs an array read.
 */
final class TokenSetPool {
    private final Map<TokenSet, Integer> numbers = new LinkedHashMap<>();
    /** Per set list of a tree (shared lists are one object), its sets' pool numbers, -1 before first use. */
    private final Map<TokenSets, int[]> byList = new IdentityHashMap<>();

    TokenSetPool(TokenTree[] trees) {
        for (TokenTree t : trees) groupNumbers(t);
    }

    /** Per group of {@code t}, the pool number of its token set. */
    int[] groupNumbers(TokenTree t) {
        int[] ofList = byList.computeIfAbsent(t.tokenSets(), l -> {
            int[] none = new int[l.count()];
            Arrays.fill(none, -1);
            return none;
        });
        int[] out = new int[t.groupCount()];
        for (int g = 0; g < out.length; g++) {
            int set = t.groupSet[g];
            if (ofList[set] < 0) ofList[set] = numbers.computeIfAbsent(t.tokenSets().get(set), s -> numbers.size());
            out[g] = ofList[set];
        }
        return out;
    }

    /** The distinct sets in pool order. */
    Iterable<TokenSet> sets() { return numbers.keySet(); }

    int size() { return numbers.size(); }
}
