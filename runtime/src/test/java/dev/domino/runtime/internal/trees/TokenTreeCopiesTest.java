package dev.domino.runtime.internal.trees;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An annotated group's tokens ordered by copies (a counting sort) equal the order of sorting (copies, id) pairs. */
class TokenTreeCopiesTest {
    static TokenTree.Copies reference(int[] ids, int[] k) {
        long[] packed = new long[ids.length];
        for (int i = 0; i < ids.length; i++) packed[i] = (long) k[i] << 32 | ids[i];
        Arrays.sort(packed);
        int[] a = new int[ids.length], b = new int[ids.length];
        for (int i = 0; i < ids.length; i++) { a[i] = (int) packed[i]; b[i] = (int) (packed[i] >>> 32); }
        return new TokenTree.Copies(a, b);
    }

    @Test void countingSortEqualsSortingPairs() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = r.nextInt(round < 100 ? 50 : 5000);
            int[] ids = r.ints(n, 0, 200_000).distinct().sorted().toArray();
            int range = round % 3 == 0 ? 3 : round % 3 == 1 ? 300 : 100_000; // the last: the sorting fallback
            int[] k = r.ints(ids.length, 0, range).toArray();
            TokenTree.Copies got = TokenTree.sortedByCopies(ids, k), want = reference(ids, k);
            assertThat(got.ids()).isEqualTo(want.ids());
            assertThat(got.copies()).isEqualTo(want.copies());
        }
        assertThatThrownBy(() -> TokenTree.sortedByCopies(new int[] {1}, new int[] {-1})).hasMessageContaining("negative");
    }
}
