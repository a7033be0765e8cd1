package dev.domino.runtime.internal.scan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The incremental refinement ({@link BoundedFutures#representatives}) gives the classes of the
 * whole-round one ({@link BoundedFutures#representativesByRounds}) at every depth: on random
 * automata (cyclic, few bytes so that states look alike) and on the shapes of generated grammars
 * (whitespace runs around a key, unrolled strings).
 */
class BoundedFuturesTest {
    @Test
    void randomAutomataAgreeWithWholeRounds() {
        Random random = new Random(34);
        for (int trial = 0; trial < 3000; trial++) {
            ByteDfa dfa = random(random, 1 + random.nextInt(40), 1 + random.nextInt(4), random.nextDouble());
            for (int depth : new int[] {0, 1, 2, 3, 5, 8, 13, 50, 1000}) {
                assertThat(BoundedFutures.representatives(dfa, depth, Long.MAX_VALUE))
                        .as("trial %d depth %d", trial, depth)
                        .isEqualTo(BoundedFutures.representativesByRounds(dfa, depth, Long.MAX_VALUE));
            }
        }
    }

    @Test
    void generatedGrammarShapesAgreeWithWholeRounds() {
        Random random = new Random(27);
        for (int trial = 0; trial < 200; trial++) {
            int before = random.nextInt(120), after = random.nextInt(120), key = 1 + random.nextInt(20);
            ByteDfa dfa = whitespaceKeyWhitespace(before, key, after, random.nextBoolean());
            for (int depth : new int[] {1, 7, 64, 128, 300}) {
                int[] incremental = BoundedFutures.representatives(dfa, depth, Long.MAX_VALUE);
                assertThat(incremental).as("trial %d depth %d", trial, depth)
                        .isEqualTo(BoundedFutures.representativesByRounds(dfa, depth, Long.MAX_VALUE));
            }
        }
    }

    @Test
    void workBoundRefusesAlike() {
        ByteDfa dfa = whitespaceKeyWhitespace(100, 10, 100, true);
        assertThat(BoundedFutures.representatives(dfa, 128, 1000)).isNull();
        assertThat(BoundedFutures.representativesByRounds(dfa, 128, 1000)).isNull();
    }

    /** n states, each with a few transitions on bytes drawn from {@code alphabet} values. */
    private static ByteDfa random(Random random, int n, int alphabet, double density) {
        boolean[] accepting = new boolean[n];
        List<int[]> ranges = new ArrayList<>();
        int[] rangeStart = new int[n + 1];
        for (int s = 0; s < n; s++) {
            accepting[s] = random.nextInt(3) == 0;
            rangeStart[s] = ranges.size();
            for (int b = 0; b < alphabet; b++) {
                if (random.nextDouble() > density) continue;
                int lo = 'a' + 2 * b, hi = lo + random.nextInt(2);
                ranges.add(new int[] {lo, hi, random.nextInt(n)});
            }
        }
        rangeStart[n] = ranges.size();
        return of(n, accepting, rangeStart, ranges);
    }

    /** {@code [ \n]{0,before} k{key} [ \n]{0,after} :}, optionally the key as a loop {@code k+} (a cycle). */
    private static ByteDfa whitespaceKeyWhitespace(int before, int key, int after, boolean loop) {
        // states: 0..before (whitespace read so far), then key states, then after-whitespace, then ':' accepting
        int n = before + 1 + key + after + 2;
        boolean[] accepting = new boolean[n];
        accepting[n - 1] = true;
        List<int[]> ranges = new ArrayList<>();
        int[] rangeStart = new int[n + 1];
        int keyStart = before + 1, afterStart = keyStart + key, colon = n - 1;
        for (int s = 0; s < n; s++) {
            rangeStart[s] = ranges.size();
            if (s <= before) {
                if (s < before) { ranges.add(new int[] {'\n', '\n', s + 1}); ranges.add(new int[] {' ', ' ', s + 1}); }
                ranges.add(new int[] {'k', 'k', keyStart});
            } else if (s < afterStart) {
                int i = s - keyStart; // i + 1 key bytes read
                List<int[]> mine = new ArrayList<>();
                if (i == key - 1) {
                    mine.add(new int[] {'\n', '\n', afterStart});
                    mine.add(new int[] {' ', ' ', afterStart});
                    mine.add(new int[] {':', ':', colon});
                }
                if (i < key - 1) mine.add(new int[] {'k', 'k', s + 1});
                else if (loop) mine.add(new int[] {'k', 'k', s});
                mine.sort((x, y) -> Integer.compare(x[0], y[0]));
                ranges.addAll(mine);
            } else if (s < colon) {
                int i = s - afterStart; // i + 1 whitespace bytes after the key
                if (i < after - 1) { ranges.add(new int[] {'\n', '\n', s + 1}); ranges.add(new int[] {' ', ' ', s + 1}); }
                ranges.add(new int[] {':', ':', colon});
            }
        }
        rangeStart[n] = ranges.size();
        return of(n, accepting, rangeStart, ranges);
    }

    private static ByteDfa of(int n, boolean[] accepting, int[] rangeStart, List<int[]> ranges) {
        byte[] lo = new byte[ranges.size()], hi = new byte[ranges.size()];
        int[] target = new int[ranges.size()];
        for (int i = 0; i < ranges.size(); i++) {
            lo[i] = (byte) ranges.get(i)[0];
            hi[i] = (byte) ranges.get(i)[1];
            target[i] = ranges.get(i)[2];
        }
        return ByteDfa.ofRanges(n, 0, accepting, rangeStart, lo, hi, target);
    }
}
