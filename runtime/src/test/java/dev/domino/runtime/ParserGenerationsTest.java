package dev.domino.runtime;

import dev.domino.runtime.diagnostics.MatcherStats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parser states are shared per generation (see {@code EarleyParser}): matchers of different
 * generations give the same masks, and after the requests end the artifact keeps only the
 * current generation's states, however many requests ran.
 */
class ParserGenerationsTest {
    @Test void generationsKeepMasksAndBoundTheStatesKept() {
        Artifact shared = Fixtures.json(), fresh = Fixtures.json();
        shared.parser.setSharedBytes(Long.MAX_VALUE); // one generation for the artifact's lifetime
        fresh.parser.setSharedBytes(0);               // a fresh generation for every matcher
        Random random = new Random(7);
        int[] a = new int[shared.newMatcher().bitmaskInts()], b = new int[a.length];
        for (int request = 0; request < 60; request++) {
            Matcher ms = shared.newMatcher(), mf = fresh.newMatcher();
            for (byte[] chunk : Fixtures.chunks(Fixtures.randomJson(random, 3), random)) {
                ms.fillNextTokenBitmask(a, 0);
                mf.fillNextTokenBitmask(b, 0);
                assertThat(b).isEqualTo(a);
                assertThat(ms.acceptBytes(chunk)).isTrue();
                assertThat(mf.acceptBytes(chunk)).isTrue();
            }
            assertThat(mf.isAccepting()).isTrue();
        }
        long keptShared = MatcherStats.reachableParserStates(shared, List.of());
        long keptFresh = MatcherStats.reachableParserStates(fresh, List.of());
        assertThat(keptShared).isGreaterThan(300);
        assertThat(keptFresh).as("states kept after the requests").isLessThan(keptShared / 10);
        fresh.parser.clearSharedStates();
        assertThat(MatcherStats.reachableParserStates(fresh, List.of())).isEqualTo(1);
    }
}
