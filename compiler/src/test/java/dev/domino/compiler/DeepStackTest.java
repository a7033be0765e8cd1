package dev.domino.compiler;

import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeepStackTest {
    static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

    @Test void recursionDeeperThanADefaultStackFits() {
        assertThat(DeepStack.call(() -> depth(200_000))).isEqualTo(200_000);
    }

    @Test void failuresReachTheCallerUnchanged() {
        assertThatThrownBy(() -> DeepStack.call(() -> { throw new GrammarException("bad", 3, 4); }))
                .isInstanceOf(GrammarException.class).hasMessage("line 3, column 4: bad");
        assertThatThrownBy(() -> DeepStack.call(() -> { throw new java.io.IOException("io"); }))
                .isInstanceOf(IllegalStateException.class).hasCauseInstanceOf(java.io.IOException.class);
    }

    @Test void limitsNameThemselvesAndHowToRaiseThem() {
        assertThatThrownBy(() -> CompileLimits.NESTING_DEPTH.check(5000))
                .hasMessageContaining("nesting-depth=1000").hasMessageContaining("--limit nesting-depth=N");
        assertThatThrownBy(() -> CompileLimits.Values.DEFAULTS.with("nope=1")).isInstanceOf(IllegalArgumentException.class);
    }
}
