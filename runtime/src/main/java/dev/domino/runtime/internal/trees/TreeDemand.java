package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.mask.*;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * When a mask of a lazy artifact uses a tree that is not built yet, and when that tree gets built.
 *
 * <p>Masks never wait for a tree ({@link Mode#DIRECT_THEN_BUILD}, the default): a configuration
 * whose tree is missing is walked directly ({@link DirectMask}). While trees are built in the
 * background, the background builds it (the mask only hints where decoding is); otherwise the
 * mask that uses a tree for the {@link #buildAfterUses()}-th time builds it on its own thread, so a tree
 * used once or twice (most trees of a request's schema) is never built, and one that decoding
 * keeps coming back to is.
 *
 * <p>Thread-safe: use counts are atomic; the mode is a volatile switch for tests and benchmarks.
 */
public final class TreeDemand {
    public enum Mode {
        /** The first mask that needs a tree builds it, or waits for the thread building it (the former behaviour). */
        BUILD_ON_FIRST_USE,
        /** Missing trees are walked directly; built in the background, or by their {@link #buildAfterUses()}-th use. */
        DIRECT_THEN_BUILD,
        /** Every configuration is walked directly, stored trees too (tests: the tree-free mask alone). */
        DIRECT_ONLY
    }

    /** Default of {@link #buildAfterUses()} (0: never built by a mask). */
    public static final int BUILD_AFTER_USES = 4;

    private volatile Mode mode = Mode.DIRECT_THEN_BUILD;
    private volatile int buildAfter = BUILD_AFTER_USES;
    private final AtomicIntegerArray treeUses;
    private final AtomicIntegerArray rootUses;

    public TreeDemand(int treeSlots, int terminals) {
        treeUses = new AtomicIntegerArray(treeSlots);
        rootUses = new AtomicIntegerArray(terminals);
    }

    public Mode mode() { return mode; }
    public void setMode(Mode mode) { this.mode = java.util.Objects.requireNonNull(mode); }

    /** Uses of a missing tree after which a mask builds it (0: never; masks walk directly until the background has built it). */
    public int buildAfterUses() { return buildAfter; }
    public void setBuildAfterUses(int uses) {
        if (uses < 0) throw new IllegalArgumentException("uses must not be negative: " + uses);
        buildAfter = uses;
    }

    /** Counts a mask's use of a missing state tree; true when this use should build it. */
    public boolean useTree(int slot) { return due(treeUses, slot); }

    /** Counts a mask's use of a missing root tree; true when this use should build it. */
    public boolean useRoot(int terminal) { return due(rootUses, terminal); }

    private boolean due(AtomicIntegerArray uses, int i) {
        int after = buildAfter;
        if (after == 0) return false;
        int u = uses.get(i);
        if (u >= after) return true;
        return uses.incrementAndGet(i) >= after;
    }
}
