package dev.domino.runtime.internal.scan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Scanner states are numbers only (nothing per state): the terminal of a state comes from a page
 * table. Checked against a linear search over the offsets, on small scanners (a page per state)
 * and on scanners with counted terminals of millions of states (pages of many states, terminals
 * of one state among them).
 */
class ScannerStatesTest {
    /** An automaton of n states, no transitions (only its size matters here). */
    static Terminal plain(int n) {
        int[] next = new int[n * 256];
        Arrays.fill(next, -1);
        return new Terminal("p" + n, "p", new ByteDfa(n, 0, new boolean[n], next), false);
    }

    /** a{1,max} as a counted terminal: 2 × (max + 1) states. */
    static Terminal counted(int max) {
        int[] next = new int[2 * 256];
        Arrays.fill(next, -1);
        next['a'] = 1;
        next[256 + 'a'] = 1;
        ByteDfa loop = new ByteDfa(2, 0, new boolean[] {false, true}, next);
        return new Terminal("c" + max, "c", loop, false, new CountedLoop(loop, 1, max));
    }

    static void checkAgainstLinearSearch(Terminal[] terminals, long seed) {
        ScannerStates s = new ScannerStates(terminals);
        List<Integer> probes = new ArrayList<>(List.of(0, s.count() - 1));
        for (int t = 0; t < terminals.length; t++) {
            int o = s.offset(t), n = terminals[t].stateCount();
            probes.addAll(List.of(o, o + n - 1, o + n / 2));
        }
        Random r = new Random(seed);
        for (int i = 0; i < 20_000 && s.count() > 1; i++) probes.add(1 + r.nextInt(s.count() - 1));
        for (int q : probes) {
            int expected = -1;
            for (int t = 0; t < terminals.length; t++) if (s.offset(t) <= q) expected = t;
            assertThat(s.terminalOf(q)).as("state %d", q).isEqualTo(expected);
            assertThat(s.localOf(q)).isEqualTo(expected < 0 ? 0 : q - s.offset(expected));
        }
        assertThatThrownBy(() -> s.terminalOf(s.count())).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test void smallScannersHaveAPagePerState() {
        Random r = new Random(1);
        Terminal[] ts = new Terminal[300];
        for (int t = 0; t < ts.length; t++) ts[t] = plain(1 + r.nextInt(20));
        checkAgainstLinearSearch(ts, 2);
        checkAgainstLinearSearch(new Terminal[] {plain(1)}, 3);
        checkAgainstLinearSearch(new Terminal[0], 4);
    }

    @Test void countedTerminalsOfMillionsOfStatesShareAPageTable() {
        Random r = new Random(5);
        List<Terminal> ts = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            ts.add(plain(1 + r.nextInt(3))); // runs of one-state terminals inside one page
            if (i % 50 == 7) ts.add(counted(1_000_000 + r.nextInt(1000)));
        }
        ScannerStates s = new ScannerStates(ts.toArray(new Terminal[0]));
        assertThat(s.count()).isGreaterThan(16_000_000);
        checkAgainstLinearSearch(ts.toArray(new Terminal[0]), 6);
    }

    @Test void tooManyStatesIsAClearError() {
        Terminal big = counted(CountedLoop.MAX_STATES / 2 - 1); // 2^26 states
        Terminal[] ts = new Terminal[17];
        Arrays.fill(ts, big);
        assertThatThrownBy(() -> new ScannerStates(ts)).hasMessageContaining("too many scanner states");
    }
}
