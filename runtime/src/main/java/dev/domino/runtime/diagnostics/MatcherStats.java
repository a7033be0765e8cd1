package dev.domino.runtime.diagnostics;

import dev.domino.runtime.*;
import dev.domino.runtime.internal.*;

/**
 * Optional counters of the work masks do, for profiling ({@code bench maskbench --profile}).
 * Off by default; when off, {@link Matcher} pays one static boolean read per counted event.
 * Process-wide and not thread-safe: meant for single-threaded measurement runs. Turn on with
 * {@link #enable(boolean)}, read with {@link #snapshot()}, zero with {@link #reset()}.
 */
public final class MatcherStats {
    private MatcherStats() {}

    public static boolean enabled;

    /** Masks computed. */
    public static long masks;
    /** Live configurations (parser state, scanner state) the masks walked. */
    public static long configurations;
    /** Tree nodes visited by the walks. */
    public static long treeNodes;
    /** Parser scans (Earley steps) taken by the walks. */
    public static long earleyScans;
    /** Tokens checked at run time byte by byte (tree nodes too wide to precompute). */
    public static long dynamicChecks;
    /** Groups (terminal or terminal class, token set) the walks looked at. */
    public static long groupsSeen;
    /** Groups whose tokens the walks ORed into masks, and the tokens those groups held. */
    public static long groupsOred, tokensOred;

    /** Lazy trees built (on any thread, masks or background tasks) and the time their builds took. */
    private static final java.util.concurrent.atomic.AtomicLong treesBuilt = new java.util.concurrent.atomic.AtomicLong();
    private static final java.util.concurrent.atomic.AtomicLong treeBuildNanos = new java.util.concurrent.atomic.AtomicLong();

    public static void treeBuilt(long nanos) {
        treesBuilt.incrementAndGet();
        treeBuildNanos.addAndGet(nanos);
    }

    public static void enable(boolean on) { enabled = on; }

    public static boolean isEnabled() { return enabled; }

    public static void reset() {
        masks = configurations = treeNodes = earleyScans = dynamicChecks = groupsSeen = groupsOred = tokensOred = 0;
        treesBuilt.set(0);
        treeBuildNanos.set(0);
    }

    /**
     * Parser states that {@code artifact} and the {@code live} matchers keep reachable (a graph
     * walk: for soak tests and leak hunting, not for a hot path). Bounded by the artifact's
     * shared-state budget plus what the live matchers reach.
     */
    public static long reachableParserStates(Artifact artifact, Iterable<Matcher> live) {
        java.util.List<EarleyState> roots = new java.util.ArrayList<>();
        for (Matcher m : live) RuntimeAccess.get().collectParserStates(m, roots);
        return RuntimeAccess.of(artifact).parser().reachableStates(roots);
    }

    /** The counters so far. */
    public static Snapshot snapshot() {
        return new Snapshot(masks, configurations, treeNodes, earleyScans, dynamicChecks, groupsSeen, groupsOred, tokensOred,
                treesBuilt.get(), treeBuildNanos.get());
    }

    public record Snapshot(long masks, long configurations, long treeNodes, long earleyScans, long dynamicChecks,
                           long groupsSeen, long groupsOred, long tokensOred, long treesBuilt, long treeBuildNanos) {
        /** This minus an earlier snapshot. */
        public Snapshot minus(Snapshot o) {
            return new Snapshot(masks - o.masks, configurations - o.configurations, treeNodes - o.treeNodes,
                    earleyScans - o.earleyScans, dynamicChecks - o.dynamicChecks, groupsSeen - o.groupsSeen,
                    groupsOred - o.groupsOred, tokensOred - o.tokensOred, treesBuilt - o.treesBuilt,
                    treeBuildNanos - o.treeBuildNanos);
        }
    }
}
