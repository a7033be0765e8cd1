package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.mask.*;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When a mask of a lazy artifact uses a tree that is not built yet, and when that tree gets built.
 *
 * <p>Masks never wait for a tree ({@link Mode#DIRECT_THEN_BUILD}, the default): a configuration
 * whose tree is missing is walked directly ({@link DirectMask}). While trees are built in the
 * background, the background builds it (the mask only hints where decoding is). Otherwise a mask
 * builds it on its own thread once walking it directly has cost about what building it would
 * (ski rental, {@link #buildAfterDirectMicros()}): a state whose direct walk costs milliseconds is
 * built on its second use, one that costs 50 µs only after dozens, and a tree used once or twice
 * (most trees of a request's schema) is never built. The first direct walk of a state is not
 * charged: it mostly computes the terminal walks a build would reuse. One that computed none and
 * cost the whole budget by itself is (a string pattern's free prefix, which may end before any
 * byte: every walk steps the whole trie, tens of milliseconds, where a build takes ten), so such a
 * state is built on its second use. A fixed use count
 * ({@link #setBuildAfterUses}) replaces the cost rule, for tests and comparisons.
 *
 * <p>What a build will cost is not known before it runs: from a few hundred microseconds to tens of
 * milliseconds on a large schema. So a mask's build gets what direct walks of that state have cost
 * so far as its budget ({@link #treeBudgetNanos}, {@link BuildBudget}); a build that runs past it is
 * given up, and the next attempt waits until direct walks have cost twice as much (ski rental with
 * doubling: the builds given up cost at most what the direct walks did). A tree whose build costs
 * far more than its walks stays walked directly, and no mask pays a build its state has not earned.
 *
 * <p>Thread-safe: use counts and costs are atomic; the policy is a volatile switch for tests and benchmarks.
 */
public final class TreeDemand {
    public enum Mode {
        /** The first mask that needs a tree builds it, or waits for the thread building it (the former behaviour). */
        BUILD_ON_FIRST_USE,
        /** Missing trees are walked directly; built in the background, or once walking them has cost about a build. */
        DIRECT_THEN_BUILD,
        /** Every configuration is walked directly, stored trees too (tests: the tree-free mask alone). */
        DIRECT_ONLY
    }

    /**
     * Default of {@link #buildAfterDirectMicros()}: about what a mask that builds a tree costs once its
     * state's terminal walks are cached (see docs/direct-masks.md).
     */
    public static final long BUILD_AFTER_DIRECT_MICROS = 300;

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final boolean THREAD_CPU = THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();

    /**
     * The clock direct walks are charged in: the mask thread's CPU time (wall time where the JVM
     * cannot measure it). On a loaded machine wall time counts the time the thread waited for a
     * core, and the cost rule would build trees earlier than their walks cost.
     */
    public static long clockNanos() { return THREAD_CPU ? THREADS.getCurrentThreadCpuTime() : System.nanoTime(); }

    private volatile Mode mode = Mode.DIRECT_THEN_BUILD;
    /** Fixed use count after which a mask builds (0: never), or -1 for the cost rule. */
    private volatile int buildAfter = -1;
    private volatile long buildAfterNanos = BUILD_AFTER_DIRECT_MICROS * 1_000;
    private final AtomicIntegerArray treeUses;
    private final AtomicIntegerArray rootUses;
    private final AtomicLongArray treeCost;
    private final AtomicLongArray rootCost;
    /** Direct-walk cost at which the next build is due after one was given up (0: none given up). */
    private final AtomicLongArray treeRetry;
    private final AtomicLongArray rootRetry;

    public TreeDemand(int treeSlots, int terminals) {
        treeUses = new AtomicIntegerArray(treeSlots);
        rootUses = new AtomicIntegerArray(terminals);
        treeCost = new AtomicLongArray(treeSlots);
        rootCost = new AtomicLongArray(terminals);
        treeRetry = new AtomicLongArray(treeSlots);
        rootRetry = new AtomicLongArray(terminals);
    }

    public Mode mode() { return mode; }
    public void setMode(Mode mode) { this.mode = java.util.Objects.requireNonNull(mode); }

    /** Fixed uses of a missing tree after which a mask builds it (0: never), or -1 under the cost rule. */
    public int buildAfterUses() { return buildAfter; }
    /** A fixed use count instead of the cost rule (0: masks never build; they walk directly until the background has built it). */
    public void setBuildAfterUses(int uses) {
        if (uses < 0) throw new IllegalArgumentException("uses must not be negative: " + uses);
        buildAfter = uses;
    }

    /** CPU time of direct walks (after a state's first) after which a mask builds the tree. */
    public long buildAfterDirectMicros() { return buildAfterNanos / 1_000; }
    /** The cost rule with this budget (0: build on the second use). */
    public void setBuildAfterDirectMicros(long micros) {
        if (micros < 0) throw new IllegalArgumentException("micros must not be negative: " + micros);
        buildAfterNanos = micros * 1_000;
        buildAfter = -1;
    }

    /** Counts a mask's use of a missing state tree; true when this use should build it. */
    public boolean useTree(int slot) { return due(treeUses, treeCost, treeRetry, slot); }

    /** Counts a mask's use of a missing root tree; true when this use should build it. */
    public boolean useRoot(int terminal) { return due(rootUses, rootCost, rootRetry, terminal); }

    /** CPU time the build {@link #useTree} called for may take ({@link BuildBudget#NONE}: unbounded). */
    public long treeBudgetNanos(int slot) { return budget(treeCost, slot); }

    /** {@link #treeBudgetNanos} for a root tree. */
    public long rootBudgetNanos(int terminal) { return budget(rootCost, terminal); }

    /** A mask gave up building a state tree over its budget: the next try waits for twice the cost. */
    public void treeBuildGivenUp(int slot) { treeRetry.set(slot, 2 * treeCost.get(slot)); }

    /** {@link #treeBuildGivenUp} for a root tree. */
    public void rootBuildGivenUp(int terminal) { rootRetry.set(terminal, 2 * rootCost.get(terminal)); }

    private long budget(AtomicLongArray cost, int i) {
        // a fixed use count, or a zero budget ("build on the second use"), builds whatever it costs
        if (buildAfter >= 0 || buildAfterNanos == 0) return BuildBudget.NONE;
        return Math.max(buildAfterNanos, cost.get(i));
    }

    /** Charges a direct walk of a missing state tree's configuration (nanoseconds; whether it computed terminal walks). */
    public void chargeTree(int slot, long nanos, boolean computedWalks) { charge(treeUses, treeCost, slot, nanos, computedWalks); }

    /** Charges a direct walk standing for a missing root tree (nanoseconds; whether it computed terminal walks). */
    public void chargeRoot(int terminal, long nanos, boolean computedWalks) { charge(rootUses, rootCost, terminal, nanos, computedWalks); }

    private void charge(AtomicIntegerArray uses, AtomicLongArray cost, int i, long nanos, boolean computedWalks) {
        if (buildAfter < 0 && (uses.get(i) > 1 || !computedWalks && nanos >= buildAfterNanos)) cost.addAndGet(i, nanos);
    }

    private boolean due(AtomicIntegerArray uses, AtomicLongArray cost, AtomicLongArray retry, int i) {
        int after = buildAfter;
        if (after == 0) return false;
        if (after < 0) {
            int u = uses.incrementAndGet(i);
            return u > 1 && cost.get(i) >= Math.max(buildAfterNanos, retry.get(i));
        }
        int u = uses.get(i);
        if (u >= after) return true;
        return uses.incrementAndGet(i) >= after;
    }
}
