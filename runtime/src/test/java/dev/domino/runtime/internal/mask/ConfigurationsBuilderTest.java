package dev.domino.runtime.internal.mask;

import dev.domino.runtime.internal.parse.*;


import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The configuration set drops duplicates the same way below and above its hash-index threshold. */
class ConfigurationsBuilderTest {
    private static EarleyState state(int rule) {
        return new EarleyState(new int[] {rule}, new EarleyState[] {null}, new long[1], false);
    }

    @Test void dropsEqualConfigurationsWhetherIndexedOrNot() {
        Configurations.Builder b = new Configurations.Builder();
        for (int round = 0; round < 3; round++) {
            for (int rule = 0; rule < 50; rule++) {
                for (int q = 0; q < 4; q++) b.add(state(rule), q); // equal, never identical, states
            }
        }
        Configurations c = b.build();
        assertThat(c.size()).isEqualTo(200);
        // insertion order is kept: first rule 0 with scanner states 0..3
        assertThat(c.scanStates[0]).isZero();
        assertThat(c.scanStates[3]).isEqualTo(3);
        assertThat(c.parsers[4]).isEqualTo(state(1));

        b.clear();
        b.add(state(7), 1);
        b.add(state(7), 1);
        b.add(state(7), 2);
        assertThat(b.build().size()).isEqualTo(2);
    }
}
