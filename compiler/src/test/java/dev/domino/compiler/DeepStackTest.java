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

    /** A per-request compile calls twice (parse, compile): the second and later calls run on the thread the first left idle. */
    @Test void callsRunOnTheThreadsEarlierCallsLeftIdle() {
        DeepStack.call(() -> depth(10));
        int started = DeepStack.threadsStarted();
        for (int i = 0; i < 20; i++) assertThat(DeepStack.call(() -> depth(100_000))).isEqualTo(100_000);
        assertThat(DeepStack.threadsStarted() - started).as("threads started for 20 calls in a row").isLessThanOrEqualTo(2);
    }

    /** The limits in force on the caller's thread hold in the compile thread, whichever call it ran before. */
    @Test void eachCallRunsUnderItsCallersLimits() {
        CompileLimits.Values tight = CompileLimits.Values.DEFAULTS.with("nesting-depth=7");
        for (int i = 0; i < 3; i++) {
            assertThat(CompileLimits.in(tight, () -> DeepStack.call(CompileLimits.NESTING_DEPTH::value))).isEqualTo(7L);
            assertThat(DeepStack.call(CompileLimits.NESTING_DEPTH::value)).isEqualTo(CompileLimits.NESTING_DEPTH.defaultValue());
        }
    }

    /** Calls from several threads at once each get their own compile thread and their own result. */
    @Test void concurrentCallsEachGetTheirOwnResult() throws Exception {
        var pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            var results = new java.util.ArrayList<java.util.concurrent.Future<Integer>>();
            for (int i = 0; i < 60; i++) {
                int n = 1000 + i;
                results.add(pool.submit(() -> DeepStack.call(() -> depth(n))));
            }
            for (int i = 0; i < 60; i++) assertThat(results.get(i).get()).isEqualTo(1000 + i);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void limitsNameThemselvesAndHowToRaiseThem() {
        assertThatThrownBy(() -> CompileLimits.NESTING_DEPTH.check(5000))
                .hasMessageContaining("nesting-depth=1000").hasMessageContaining("--limit nesting-depth=N");
        assertThatThrownBy(() -> CompileLimits.Values.DEFAULTS.with("nope=1")).isInstanceOf(IllegalArgumentException.class);
    }
}
