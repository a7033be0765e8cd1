package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.*;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The range-at-a-time distances of {@link TreeOrder} against a byte-at-a-time Dijkstra. */
class TreeOrderTest {
    @Test
    void distancesEqualByteAtATimeDijkstra() {
        Random random = new Random(19);
        for (int round = 0; round < 300; round++) {
            ByteDfa dfa = randomDfa(random, 1 + random.nextInt(40));
            for (int from = 0; from < dfa.stateCount(); from++) {
                assertThat(TreeOrder.distancesFrom(dfa, from)).as("round %d from %d", round, from)
                        .isEqualTo(byteAtATime(dfa, from, TreeOrder.ESCAPE_STEPS, TreeOrder.WHITESPACE_STEPS, 1));
            }
            assertThat(TreeOrder.whitespaceDepths(dfa)).as("round %d", round).isEqualTo(byteAtATime(dfa, dfa.start(), 0, 1, 0));
        }
    }

    @Test
    void rangeCostIsItsCheapestByte() {
        assertThat(TreeOrder.rangeCost('\\', '\\', 8, 8, 1)).isEqualTo(8);
        assertThat(TreeOrder.rangeCost('[', ']', 8, 8, 1)).isEqualTo(1);
        assertThat(TreeOrder.rangeCost('\t', '\n', 5, 3, 1)).isEqualTo(3);
        assertThat(TreeOrder.rangeCost('\t', '\r', 5, 3, 1)).isEqualTo(1); // 0x0B, 0x0C are neither
        assertThat(TreeOrder.rangeCost(' ', ' ', 0, 1, 0)).isEqualTo(1);
        assertThat(TreeOrder.rangeCost(0, 255, 0, 1, 0)).isEqualTo(0);
    }

    /** Transitions on runs of bytes, with whitespace and backslash often alone in their range. */
    private static ByteDfa randomDfa(Random random, int states) {
        int[] next = new int[states * 256];
        Arrays.fill(next, -1);
        int[] special = {'\t', '\n', '\r', ' ', '\\'};
        for (int s = 0; s < states; s++) {
            for (int k = random.nextInt(4); k > 0; k--) {
                int lo = random.nextInt(256), hi = Math.min(255, lo + random.nextInt(40));
                int target = random.nextInt(states);
                for (int b = lo; b <= hi; b++) next[s * 256 + b] = target;
            }
            for (int k = random.nextInt(3); k > 0; k--) next[s * 256 + special[random.nextInt(special.length)]] = random.nextInt(states);
        }
        boolean[] accepting = new boolean[states];
        accepting[random.nextInt(states)] = true;
        return new ByteDfa(states, random.nextInt(states), accepting, next);
    }

    private static int[] byteAtATime(ByteDfa dfa, int from, int backslash, int whitespace, int other) {
        int[] d = new int[dfa.stateCount()];
        Arrays.fill(d, -1);
        PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        d[from] = 0;
        queue.add(new long[] {0, from});
        while (!queue.isEmpty()) {
            long[] top = queue.poll();
            int s = (int) top[1];
            if (top[0] > d[s]) continue;
            for (int b = 0; b < 256; b++) {
                int s2 = dfa.step(s, b);
                if (s2 < 0) continue;
                int cost = b == '\\' ? backslash : b == ' ' || b == '\t' || b == '\n' || b == '\r' ? whitespace : other;
                int d2 = (int) top[0] + cost;
                if (d[s2] < 0 || d2 < d[s2]) { d[s2] = d2; queue.add(new long[] {d2, s2}); }
            }
        }
        return d;
    }
}
