package dev.domino.runtime.internal.trees;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a walk below a node may add ({@link TokenTree#below}): every group's tokens and root reference of the subtree. */
class TokenTreeBelowTest {
    /*
     * node 0: group {1, 2}; edges t5 -> 1, t6 -> 2
     * node 1: group {2, 3}, root reference t9; edge t7 -> 3
     * node 2: group {40}
     * node 3: group {3, 70}, root reference t8
     */
    static TokenTree tree(TokenSet wide) {
        TokenSets sets = new TokenSets(new TokenSet[] {
                TokenSet.ofIds(new int[] {1, 2}), TokenSet.ofIds(new int[] {2, 3}), TokenSet.ofIds(new int[] {40}),
                TokenSet.ofIds(new int[] {3, 70}), wide});
        return new TokenTree(new int[] {0, 2, 3, 3, 3}, new int[] {5, 6, 7}, new int[] {1, 2, 3},
                new int[] {0, 1, 2, 3, 5}, new int[] {0, 1, 2, 3, 4}, new int[] {0, 1, 2, 3, 4}, new int[0], sets, new int[0][],
                new int[] {0, 0, 1, 1, 2}, new int[] {9, 8});
    }

    @Test void subtreeTokensAndRootReferences() {
        TokenTree t = tree(TokenSet.ofIds(new int[] {3}));
        assertThat(t.below(1).tokens()).containsExactly(2, 3, 70);
        assertThat(t.below(1).rootTerminals()).containsExactly(8, 9);
        assertThat(t.below(2).tokens()).containsExactly(40);
        assertThat(t.below(2).rootTerminals()).isEmpty();
        assertThat(t.below(3).tokens()).containsExactly(3, 70);
        assertThat(t.below(0).tokens()).containsExactly(1, 2, 3, 40, 70);
        assertThat(t.below(1)).isSameAs(t.below(1)); // kept
    }

    @Test void withinTheMask() {
        TokenTree t = tree(TokenSet.ofIds(new int[] {3}));
        int[] mask = new int[4];
        for (int id : new int[] {2, 3}) mask[1 + (id >>> 5)] |= 1 << id;
        assertThat(t.below(1).tokensWithin(mask, 1)).isFalse(); // 70 is not there
        mask[1 + (70 >>> 5)] |= 1 << 70;
        assertThat(t.below(1).tokensWithin(mask, 1)).isTrue();
        assertThat(t.below(2).tokensWithin(mask, 1)).isFalse();
    }

    @Test void tooWideToSay() {
        long[] bits = new long[40];
        java.util.Arrays.fill(bits, -1L); // 2,560 tokens in one group
        TokenTree t = tree(TokenSet.ofBitmap(bits));
        assertThat(t.below(3).tokens()).isNull();
        int[] all = new int[100];
        java.util.Arrays.fill(all, -1);
        assertThat(t.below(3).tokensWithin(all, 0)).isFalse(); // not known, so never covered
        assertThat(t.below(2).tokensWithin(all, 0)).isTrue();
    }
}
