package dev.domino.runtime.internal.trees;

import java.util.function.IntFunction;

/**
 * A CPU-time budget for the tree builds a mask starts on its own thread: a build that runs past it
 * is given up ({@link Exceeded}) and the mask walks that configuration directly instead.
 *
 * <p>Why: a mask that builds a tree on the decode path costs what the build costs, and on a large
 * schema that is milliseconds where the direct walk it replaces costs a few hundred microseconds.
 * {@link TreeDemand} sets the budget to what direct walks of that state have cost so far, so a
 * build that would not repay itself yet stops early; the shared walks it computed stay cached.
 *
 * <p>The budget belongs to the thread (builds do not nest across threads): {@link TreeBuilder}'s
 * walks read it when they start, check it then, and check the thread's CPU clock every
 * {@link #CHECK_EVERY} trie nodes; a build inside {@code within(0, ...)} is given up at its first
 * walk. Work shared between builds (terminal walks, subtrees entered at the root, trees of the same
 * future) is only published when complete, so a build given up leaves nothing half-made.
 */
public final class BuildBudget {
    private BuildBudget() {}

    /** No deadline: builds in the background, at compile time and by masks that must have the tree. */
    public static final long NONE = Long.MAX_VALUE;

    /** Trie nodes visited between two reads of the clock (a read costs about a microsecond). */
    static final int CHECK_EVERY = 1024;

    /** Thrown out of a build that ran past its thread's budget (no stack trace: it is control flow). */
    public static final class Exceeded extends RuntimeException {
        private Exceeded() { super("tree build over its budget", null, false, false); }
    }

    static final Exceeded EXCEEDED = new Exceeded();

    private static final ThreadLocal<long[]> DEADLINE = ThreadLocal.withInitial(() -> new long[] {NONE});

    /** This thread's deadline on {@link TreeDemand#clockNanos()}, or {@link #NONE}. */
    static long deadline() { return DEADLINE.get()[0]; }

    /** Throws {@link Exceeded} when the thread's clock has reached {@code deadline}. */
    static void check(long deadline) {
        if (deadline != NONE && TreeDemand.clockNanos() >= deadline) throw EXCEEDED;
    }

    /**
     * One walk's work against the thread's budget as it was when the walk started: {@link #tick} counts
     * trie nodes (or work worth that many) and reads the clock every {@link #CHECK_EVERY}. Outside a
     * budgeted build it costs a comparison.
     */
    static final class Meter {
        private final long deadline = deadline();
        private int sinceCheck;

        /** Counts one trie node visited. */
        void tick() { tick(1); }

        /** Counts work worth {@code nodes} trie nodes; gives the build up ({@link Exceeded}) once it is over its budget. */
        void tick(int nodes) {
            if (deadline != NONE && (sinceCheck += nodes) >= CHECK_EVERY) {
                sinceCheck = 0;
                check(deadline);
            }
        }

        /** Gives the build up now if it is over its budget (before work that cannot be interrupted). */
        void checkNow() { check(deadline); }

        boolean bounded() { return deadline != NONE; }
    }

    /**
     * Runs {@code build.apply(arg)} with at most {@code nanos} of this thread's CPU time for its
     * walks ({@link #NONE}: unbounded); throws {@link Exceeded} when it runs out.
     */
    public static <T> T within(long nanos, IntFunction<T> build, int arg) {
        if (nanos == NONE) return build.apply(arg);
        long[] d = DEADLINE.get();
        long before = d[0];
        long now = TreeDemand.clockNanos();
        d[0] = Math.min(before, nanos > NONE - now ? NONE : now + nanos);
        try {
            return build.apply(arg);
        } finally {
            d[0] = before;
        }
    }
}
