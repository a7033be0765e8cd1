package dev.domino.runtime;

import dev.domino.runtime.diagnostics.TokenTrace;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three users of the byte-stepping kernel ({@code ByteStep}) agree on every token of the
 * vocabulary at prefixes inside and between terminals: the mask (tree walk, plus the kernel's
 * depth-first search for dynamic tokens), the opportunistic check ({@link Matcher#isAllowed}, the
 * kernel breadth first) and the token trace ({@link TokenTrace}, the kernel with paths).
 */
class ByteStepConsistencyTest {
    @Test void maskCheckAndTraceAgreeOnEveryToken() {
        Artifact a = Fixtures.json();
        Vocabulary v = a.vocabulary();
        for (String prefix : List.of("", "{", "{\"na", "{\"name\"", "{\"name\": ", "{\"name\": 12", "{\"name\": [1, tr",
                "{\"x\": \"\\u00", "{\"x\": {}, \"y\": -0.5e", "{\"x\": null}")) {
            Matcher m = a.newMatcher();
            assertThat(m.acceptString(prefix)).as(prefix).isTrue();
            BitSet mask = m.nextTokenMask();
            for (int id = 0; id < v.size(); id++) {
                boolean allowed = m.isAllowed(id);
                assertThat(allowed).as("isAllowed %s after %s", v.display(id), prefix).isEqualTo(mask.get(id));
                if (v.isGrammarToken(id)) {
                    assertThat(TokenTrace.explainToken(m, id).viable()).as("trace %s after %s", v.display(id), prefix).isEqualTo(allowed);
                }
            }
            assertThat(mask.cardinality()).as(prefix).isPositive();
        }
    }

    @Test void finiteLookaheadMasksAgreeWithTheCheck() {
        Artifact a = Fixtures.json();
        Vocabulary v = a.vocabulary();
        for (int k = 0; k <= 2; k++) {
            for (String prefix : List.of("{", "{\"name\": 12", "{\"a\": [1")) {
                Matcher m = a.newMatcher(k);
                assertThat(m.acceptString(prefix)).isTrue();
                BitSet mask = m.nextTokenMask();
                for (int id = 0; id < v.size(); id++) {
                    assertThat(m.isAllowed(id)).as("k=%d isAllowed %s after %s", k, v.display(id), prefix).isEqualTo(mask.get(id));
                }
            }
        }
    }
}
